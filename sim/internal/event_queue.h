// The event loop of the models that model their resources themselves (store-and-forward, packet, the
// flow model's own solver, open-loop traffic): what sim::at() schedules and sim::now() reads while no
// SimGrid comm is involved. An event is a callable stored inline in a pooled slot (no allocation or
// std::function per event; a callable above kInlineBytes is boxed); the dates sit in a Fibonacci heap
// that makes the moves of SimGrid 3.32's timer heap (boost::heap::fibonacci_heap, compared by date
// only) on compact nodes. Events of one date therefore run in exactly the order SimGrid's timers ran
// them, and run() advances the clock as SimGrid's engine does (now += next - now): the paper
// reproductions depend on that order, bit for bit. With fifo ties, the events of one date run in scheduling order
// (one heap entry per date, as sim/transport.cpp's set_fifo_ties did on SimGrid's timers).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mapsim::sim {

// boost::heap::fibonacci_heap's push and pop (Boost 1.74, the heap of SimGrid 3.32's timers), step for
// step, on compact nodes addressed by index: the same root list order, the same links and the same top
// among equal keys, hence the same pop order. Keys compare by date only, as SimGrid's
// xbt::HeapComparator: `later(a, b)` is a.date > b.date. Without decrease or erase no node is ever cut,
// so the nodes need neither parent pointers nor marks. Items are the caller's indices (event slots).
class FibonacciHeap {
 public:
  static constexpr uint32_t kNil = ~uint32_t{0};

  FibonacciHeap() : nodes_(2) { nodes_[kRoots].prev = nodes_[kRoots].next = kRoots; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  uint32_t top() const { return top_ - 2; }  // (not empty)
  double top_date() const { return nodes_[top_].date; }
  double date(uint32_t item) const { return nodes_[item + 2].date; }

  // Adds item i (unused: not in the heap) at `date`: boost's push (front of the roots; the top moves
  // only to a strictly earlier date).
  void push(uint32_t item, double date) {
    const uint32_t i = item + 2;
    if (i >= nodes_.size()) nodes_.resize(i + 1);
    Node* nodes = nodes_.data();
    Node& n = nodes[i];
    n.date = date;
    n.first_child = n.last_child = kNoChild;
    n.degree = 0;
    n.prev = kRoots;
    n.next = nodes[kRoots].next;
    nodes[n.next].prev = i;
    nodes[kRoots].next = i;
    ++size_;
    if (top_ == kRoots || nodes[top_].date > date) top_ = i;
  }

  // Removes the top: boost's pop (its children to the end of the roots, then consolidate).
  void pop() {
    Node* nodes = nodes_.data();
    const uint32_t e = top_;
    unlink(nodes, e);
    const Node& n = nodes[e];
    if (n.first_child != kNoChild) {  // splice the children, in order, at the end of the roots
      const uint32_t last_root = nodes[kRoots].prev;
      nodes[last_root].next = n.first_child;
      nodes[n.first_child].prev = last_root;
      nodes[n.last_child].next = kRoots;
      nodes[kRoots].prev = n.last_child;
    }
    if (--size_ > 0) consolidate();
    else top_ = kRoots;
  }

 private:
  // Node kRoots heads the roots (their list is circular through it; as top_: none); node kNoChild
  // stands for no child and takes the writes that would go to none. Item i is node i + 2.
  static constexpr uint32_t kRoots = 0, kNoChild = 1;
  struct Node {
    double date;
    uint32_t prev, next;  // siblings: in the roots or a parent's children
    uint32_t first_child, last_child;
    uint32_t degree;
  };

  static void unlink(Node* nodes, uint32_t i) {  // from the roots
    nodes[nodes[i].prev].next = nodes[i].next;
    nodes[nodes[i].next].prev = nodes[i].prev;
  }

  // boost's consolidate: walks the roots from the front, links trees of equal degree (the later date
  // under the earlier; on a tie the tree met first under the one met later), and the top is the last
  // root walked whose date is not later than the top's so far. No node is ever cut, so a tree of
  // degree k holds 2^k nodes: degrees stay below 32. The linking chain is what bounds the speed: the
  // degrees met sit in a bit mask and their roots' dates beside them, and a linked root's degree is
  // written, not read back, so that each link waits on no load from the nodes.
  void consolidate() {
    uint32_t aux[40];  // the root of each degree met so far (where `met` has its bit)
    double aux_date[40];
    uint64_t met = 0;
    Node* nodes = nodes_.data();
    uint32_t it = nodes[kRoots].next;
    uint32_t top = it;
    double top_date = nodes[it].date;
    do {
      uint32_t n = it;
      double date = nodes[n].date;
      it = nodes[n].next;
      uint32_t rank = nodes[n].degree;
      while (met >> rank & 1) {
        uint32_t other = aux[rank];
        const double other_date = aux_date[rank];
        const uint32_t swap = (n ^ other) & (0u - static_cast<uint32_t>(date > other_date));  // branch-free
        n ^= swap;
        other ^= swap;
        date = std::min(date, other_date);
        unlink(nodes, other);  // to the end of n's children
        Node& p = nodes[n];
        nodes[other].next = kNoChild;
        nodes[other].prev = p.last_child;
        nodes[p.last_child].next = other;  // to kNoChild when p has no child
        p.first_child = p.last_child == kNoChild ? other : p.first_child;
        p.last_child = other;
        met ^= uint64_t{1} << rank;
        p.degree = ++rank;
      }
      aux[rank] = n;
      aux_date[rank] = date;
      met |= uint64_t{1} << rank;
      top ^= (top ^ n) & (0u - static_cast<uint32_t>(!(date > top_date)));
      top_date = std::min(date, top_date);
    } while (it != kRoots);
    top_ = top;
  }

  std::vector<Node> nodes_;
  uint32_t top_ = kRoots;
  std::size_t size_ = 0;
};

class EventQueue {
 public:
  static constexpr std::size_t kInlineBytes = 56;  // a callable's captures stored in its slot

  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  ~EventQueue() {
    while (!heap_.empty()) {
      uint32_t s = heap_.top();
      const bool group = group_[s];
      heap_.pop();
      for (; s != kNone; s = group ? next_[s] : kNone) slot(s).op(slot(s).bytes, false);
    }
  }

  // The callable fits its slot without allocation.
  template <class F>
  static constexpr bool fits_inline() {
    return sizeof(F) <= kInlineBytes && alignof(F) <= alignof(std::max_align_t) && alignof(F) <= 8;
  }

  // Runs `callback` at `date`.
  template <class F>
  void at(double date, F&& callback) {
    using Fn = std::decay_t<F>;
    const uint32_t s = take_slot();
    Slot& e = slot(s);
    if constexpr (fits_inline<Fn>()) {
      ::new (static_cast<void*>(e.bytes)) Fn(std::forward<F>(callback));
      e.op = [](unsigned char* bytes, bool run) {
        Fn* f = std::launder(reinterpret_cast<Fn*>(bytes));
        struct Destroy {
          Fn* f;
          ~Destroy() { f->~Fn(); }
        } destroy{f};
        if (run) (*f)();
      };
    } else {
      using Box = std::unique_ptr<Fn>;
      ::new (static_cast<void*>(e.bytes)) Box(new Fn(std::forward<F>(callback)));
      e.op = [](unsigned char* bytes, bool run) {
        Box box = std::move(*std::launder(reinterpret_cast<Box*>(bytes)));
        std::launder(reinterpret_cast<Box*>(bytes))->~Box();
        if (run) (*box)();
      };
    }
    schedule(date, s);
  }

  // Runs the events in date order until none is left, as SimGrid's engine runs its timers: the clock
  // jumps to the next date (now += next - now), then every event due at the clock runs, those they
  // schedule at or before it included.
  void run() {
    while (!heap_.empty()) {
      clock_ += heap_.top_date() - clock_;
      while (!heap_.empty() && clock_ >= heap_.top_date()) {
        const uint32_t s = heap_.top();
        const double date = heap_.date(s);
        __builtin_prefetch(&slot(s));  // (scheduled a while ago) loads while the heap consolidates
        heap_.pop();
        if (group_[s]) run_group(date, s);
        else fire(s);
      }
    }
  }

  double now() const { return clock_; }
  // Events of one date in scheduling order from now on (those scheduled before keep their own heap entries).
  void set_fifo_ties(bool fifo) { fifo_ = fifo; }
  std::size_t pending() const { return heap_.size(); }  // dates (fifo ties) or events

 private:
  static constexpr uint32_t kNone = FibonacciHeap::kNil;
  struct Slot {
    alignas(8) unsigned char bytes[kInlineBytes];
    void (*op)(unsigned char*, bool run);  // runs (run) and destroys the callable
  };
  static_assert(sizeof(Slot) == 64);
  static constexpr uint32_t kChunkBits = 10;
  Slot& slot(uint32_t s) { return chunks_[s >> kChunkBits][s & ((1u << kChunkBits) - 1)]; }

  uint32_t take_slot() {
    if (!free_.empty()) {
      const uint32_t s = free_.back();
      free_.pop_back();
      return s;
    }
    if ((slots_ & ((1u << kChunkBits) - 1)) == 0) chunks_.emplace_back(new Slot[1u << kChunkBits]);
    if (slots_ >= kNone - 2) throw std::length_error("more than 2^32 - 1 pending events");
    next_.push_back(kNone);
    group_.push_back(false);
    return slots_++;
  }

  void schedule(double date, uint32_t s) {
    group_[s] = false;
    if (!fifo_) {
      heap_.push(s, date);
      return;
    }
    next_[s] = kNone;
    auto [group, fresh] = groups_.try_emplace(date, Group{s, s});
    if (fresh) {
      group_[s] = true;  // heads the date's list
      heap_.push(s, date);
      return;
    }
    next_[group->second.last] = s;
    group->second.last = s;
  }

  // Slots stay in place while their callable runs (they are chunked): the callable may schedule more.
  void fire(uint32_t s) {
    slot(s).op(slot(s).bytes, true);
    free_.push_back(s);
  }

  // The events of one date, in scheduling order; those scheduled at that date meanwhile follow.
  void run_group(double date, uint32_t s) {
    while (s != kNone) {
      fire(s);
      s = next_[s];
    }
    groups_.erase(date);
  }

  struct Group {
    uint32_t first, last;
  };
  double clock_ = 0;
  bool fifo_ = false;
  FibonacciHeap heap_;  // of slots
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  uint32_t slots_ = 0;
  std::vector<uint32_t> free_;
  std::vector<uint32_t> next_;  // fifo ties: the next slot of the date
  std::vector<uint8_t> group_;  // fifo ties: the slot heads its date's list (one heap entry)
  std::unordered_map<double, Group> groups_;
};

}  // namespace mapsim::sim
