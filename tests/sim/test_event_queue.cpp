// The event loop (sim/internal/event_queue.h) against SimGrid's: the heap pops what SimGrid 3.32's timer
// heap (boost::heap::fibonacci_heap, compared by date only) pops, ties included, and a scripted
// simulation runs its events in the order and at the clock values of SimGrid's engine, with and
// without fifo ties.
#include <doctest/doctest.h>

#include <boost/heap/fibonacci_heap.hpp>
#include <cstring>
#include <functional>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <vector>

#include "sim/internal/event_queue.h"
#include "sim/transport.h"

using namespace mapsim;
using namespace mapsim::sim;

namespace {

struct Lcg {
  uint64_t state;
  uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  }
};

// A simulation whose events schedule more: few distinct delays, so that many events tie.
struct Script {
  std::function<void(double, std::function<void()>)> at;
  std::function<double()> now;
  std::vector<std::pair<int, double>> log;  // event, clock when it ran
  Lcg rng{7};
  int created = 0;
  static constexpr int kEvents = 30000;

  void start() {
    for (int i = 0; i < 200; ++i) schedule(0.25 * (i % 5));
  }
  void schedule(double date) {
    const int id = created++;
    at(date, [this, id] { run(id); });
  }
  void run(int id) {
    log.push_back({id, now()});
    static const double kDelays[] = {0, 0.25, 1e-7, 0.1, 3e-6, 0.25, 0.5};
    const int children = static_cast<int>(rng.next() % 3);
    for (int c = 0; c < children && created < kEvents; ++c) schedule(now() + kDelays[rng.next() % 7]);
  }
};

std::vector<std::pair<int, double>> on_event_queue(bool fifo) {
  EventQueue queue;
  queue.set_fifo_ties(fifo);
  Script script;
  script.at = [&queue](double date, std::function<void()> f) { queue.at(date, std::move(f)); };
  script.now = [&queue] { return queue.now(); };
  script.start();
  queue.run();
  return script.log;
}

// The same script on SimGrid's timers and engine (sim::at without use_event_queue_only), in a child.
std::vector<std::pair<int, double>> on_simgrid(bool fifo) {
  std::vector<uint8_t> bytes = run_isolated([fifo] {
    simgrid::s4u::create_full_zone("test")->seal();
    set_fifo_ties(fifo);
    Script script;
    script.at = [](double date, std::function<void()> f) { sim::at(date, std::move(f)); };
    script.now = [] { return sim::now(); };
    script.start();
    run_events();
    std::vector<uint8_t> out(script.log.size() * sizeof(script.log[0]));
    std::memcpy(out.data(), script.log.data(), out.size());
    return out;
  });
  std::vector<std::pair<int, double>> log(bytes.size() / sizeof(std::pair<int, double>));
  std::memcpy(static_cast<void*>(log.data()), bytes.data(), bytes.size());  // the child's bytes of the same pairs
  return log;
}

void check_same(const std::vector<std::pair<int, double>>& ours, const std::vector<std::pair<int, double>>& simgrid) {
  REQUIRE(ours.size() == simgrid.size());
  CHECK(ours.size() == static_cast<size_t>(Script::kEvents));
  size_t first_difference = ours.size();
  for (size_t i = 0; i < ours.size() && first_difference == ours.size(); ++i)
    if (ours[i].first != simgrid[i].first || std::memcmp(&ours[i].second, &simgrid[i].second, sizeof(double)) != 0)
      first_difference = i;
  CHECK(first_difference == ours.size());
}

}  // namespace

TEST_CASE("the event heap pops as boost's fibonacci_heap compared by date only, ties included") {
  using Entry = std::pair<double, uint32_t>;
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.first > b.first; }
  };
  for (uint64_t seed : {1, 2, 3}) {
    boost::heap::fibonacci_heap<Entry, boost::heap::compare<Later>> reference;
    FibonacciHeap heap;
    std::vector<uint32_t> unused;
    uint32_t items = 0;
    Lcg rng{seed};
    long pops = 0;
    for (int step = 0; step < 200000; ++step) {
      const bool push = reference.empty() || rng.next() % 100 < (step < 100000 ? 55u : 45u);
      if (push) {
        uint32_t item = items;
        if (!unused.empty()) item = unused.back(), unused.pop_back();
        else ++items;
        const double date = static_cast<double>(rng.next() % 50);  // few dates: many ties
        reference.push({date, item});
        heap.push(item, date);
      } else {
        REQUIRE(!heap.empty());
        const uint32_t expected = reference.top().second;
        CHECK(heap.top() == expected);
        CHECK(heap.top_date() == reference.top().first);
        reference.pop();
        heap.pop();
        unused.push_back(expected);
        ++pops;
      }
      REQUIRE(heap.size() == reference.size());
    }
    CHECK(pops > 50000);
  }
}

TEST_CASE("the event queue runs a scripted simulation in SimGrid's engine order, at its clock values") {
  check_same(on_event_queue(false), on_simgrid(false));
}

TEST_CASE("with fifo ties the event queue runs an instant's events in scheduling order, as on SimGrid's timers") {
  const auto ours = on_event_queue(true);
  check_same(ours, on_simgrid(true));
  for (size_t i = 1; i < ours.size(); ++i)
    if (ours[i].second == ours[i - 1].second && ours[i].first < ours[i - 1].first) FAIL("out of order at " << i);
  // without fifo ties, some instant runs out of scheduling order (else the test above proves little)
  const auto heap_order = on_event_queue(false);
  bool reordered = false;
  for (size_t i = 1; i < heap_order.size(); ++i)
    reordered |= heap_order[i].second == heap_order[i - 1].second && heap_order[i].first < heap_order[i - 1].first;
  CHECK(reordered);
}

TEST_CASE("event slots hold the models' callables inline, and box larger ones") {
  struct Packet {
    int message, hop;
    double bytes;
    int port, sw, state;
  };
  void* self = nullptr;
  int port = 0;
  Packet packet{};
  auto transmit = [self, port, packet] { (void)self, (void)port, (void)packet; };
  CHECK(EventQueue::fits_inline<decltype(transmit)>());
  struct Big {
    char bytes[200];
    void operator()() {}
  };
  CHECK(!EventQueue::fits_inline<Big>());
  EventQueue queue;
  std::vector<int> order;
  std::vector<int> captured(3, 1);
  queue.at(1, [&order, big = Big{}] { order.push_back(2); });
  queue.at(0.5, [&order, captured] { order.push_back(static_cast<int>(captured.size())); });
  queue.run();
  CHECK(order == std::vector<int>{3, 2});
  CHECK(queue.now() == 1);
}
