// The flit model: lossless input-queued switches with virtual channels and credit flow control, as
// InfiniBand, Slingshot and Omni-Path fabrics build them. Packets of `mtu` bytes are cut into flits
// of `flit` bytes; each switch input port keeps `vcs` virtual-channel buffers of `buffer` flits, and
// the sender of every link counts the free slots of the buffers downstream (credits), so a full buffer
// stops its upstream (backpressure, tree saturation). One cycle is one flit time at the fastest link:
//   - a flit sent at cycle c is in the next switch's buffer after its link's serialisation and
//     propagation (delay cycles), and may leave it `t_r` cycles later (router pipeline);
//   - a packet's head takes a downstream VC of its routing's class that no other packet holds
//     (wormhole), and with virtual cut-through (default) only if the VC has room for the whole packet,
//     which then crosses each hop as one train (one move per packet and hop, not per flit);
//   - switch allocation is separable, input first: each input port picks one of its VCs (round-robin),
//     each output one of the inputs that picked it (round-robin, or the oldest packet), one flit per
//     cycle per output at the link's bandwidth, `speedup` flits per cycle per input;
//   - with `output_queue` Q > 0 (BookSim's internal speedup: a combined input/output-queued switch) an
//     output instead takes up to `speedup` flits a cycle into a queue of Q flits that drains onto its
//     link at the link's bandwidth; a flit uses its downstream credit as it enters the queue. The
//     queue is the link's backlog: a flit's departure is known as it enters, so it needs no visits;
//   - a credit returns upstream with the link's delay once its flit has left the buffer;
//   - the NIC injects only with credits (source queueing, unbounded, one FIFO per node).
// Only switches with a flit ready, NICs with flits to send and credits in flight are visited in a
// cycle; a network without flits costs nothing. A configuration that deadlocks (a routing's VC classes
// squeezed into too few VCs) stops with the cycle of blocked buffers named.
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <utility>

#include "sim/internal/path_choice.h"
#include "sim/transport.h"
#include "support/error.h"
#include "support/spec.h"
#include "support/units.h"

namespace mapsim::sim {
namespace {

constexpr uint32_t kNone = ~uint32_t{0};

struct FlitParams {
  double flit = 64;
  int vcs = 2, buffer = 128, speedup = 1;
  int output_queue = 0;  // flits per output queue; 0: none, an output takes its link's one flit a cycle
  double credit_delay = 0;  // seconds
  bool wormhole = false, age = false;
  bool vc_needs_room = true;  // a head takes an output VC only with room downstream (else any VC no packet holds)
  enum class InjectionVc { First, RoundRobin, Random } injection_vc = InjectionVc::First;
};

FlitParams read_flit_params(const SimOptions& options) {
  FlitParams p;
  p.flit = model_option(options, "flit").number;
  p.vcs = static_cast<int>(model_option(options, "vcs").number);
  p.buffer = static_cast<int>(model_option(options, "buffer").number);
  p.speedup = static_cast<int>(model_option(options, "speedup").number);
  p.output_queue = static_cast<int>(model_option(options, "output_queue").number);
  p.credit_delay = model_option(options, "credit_delay").number;
  auto choice = [&](const std::string& name, const std::vector<std::string>& words) {
    return one_of("model." + name, model_option(options, name).text, words);
  };
  p.wormhole = choice("switching", {"vct", "wormhole"}) == 1;
  p.age = choice("arbitration", {"round-robin", "age"}) == 1;
  p.vc_needs_room = choice("vc_allocation", {"room", "any"}) == 0;
  p.injection_vc = static_cast<FlitParams::InjectionVc>(choice("injection_vc", {"first", "round-robin", "random"}));  // enum order
  return p;
}

class FlitTransport : public Transport, public TakenPaths {
 public:
  FlitTransport(const RoutedNetwork& routed, const SimOptions& options, std::vector<Message>& messages, Delivered delivered)
      : routed_(routed),
        net_(routed.network()),
        routing_(routed.routing()),
        messages_(messages),
        delivered_(std::move(delivered)),
        p_(read_flit_params(options)),
        mtu_(options.mtu),
        chooser_(routed, options.path_selection, options.seed ^ 0x5851F42D4C957F2Dull),
        injection_rng_(options.seed ^ 0x2545F4914F6CDD1Dull) {
    use_event_queue_only();
    const long packet_flits = static_cast<long>(std::ceil(mtu_ / p_.flit));
    if (!p_.wormhole && packet_flits > p_.buffer)
      throw Error("flit model: virtual cut-through needs a buffer of at least one packet (" + std::to_string(packet_flits) +
                  " flits of " + format_size(p_.flit) + " for mtu " + format_size(mtu_) +
                  "), got buffer=" + std::to_string(p_.buffer) + ": raise model.buffer, or use switching=wormhole");
    if (!p_.wormhole && queued() && packet_flits > p_.output_queue)
      throw Error("flit model: virtual cut-through needs an output queue of at least one packet (" +
                  std::to_string(packet_flits) + " flits), got output_queue=" + std::to_string(p_.output_queue) +
                  ": raise model.output_queue, or use switching=wormhole");
    classes_ = routing_.num_virtual_channels();
    double fastest = 0;
    for (const Node& n : net_.nodes()) fastest = std::max(fastest, n.bandwidth);
    for (int l = 0; l < net_.num_links(); ++l) fastest = std::max(fastest, net_.link(l).bandwidth);
    cycle_ = p_.flit / fastest;
    credit_cycles_ = cycles(p_.credit_delay);
    const int N = net_.num_nodes(), ports = layout_.size(), V = p_.vcs;
    out_.resize(ports);
    target_.assign(ports, -1);
    inputs_of_.resize(net_.num_switches());
    router_cycles_.resize(net_.num_switches());
    for (int s = 0; s < net_.num_switches(); ++s) router_cycles_[s] = cycles(net_.switch_at(s).router_delay);
    for (int n = 0; n < N; ++n) {
      const Node& node = net_.node(n);
      set_port(layout_.injection(n), node.bandwidth, node.latency, node.switch_id);
      set_port(layout_.ejection(n), node.bandwidth, node.latency, -1);
      inputs_of_[node.switch_id].push_back(layout_.injection(n));
    }
    for (int c = 0; c < net_.num_channels(); ++c) {
      const Link& link = net_.link(c / 2);
      set_port(layout_.channel(c), link.bandwidth, link.latency, net_.channel_target(c));
      inputs_of_[net_.channel_target(c)].push_back(layout_.channel(c));
    }
    credits_.assign(static_cast<size_t>(ports) * V, p_.buffer);
    holder_.assign(static_cast<size_t>(ports) * V, kNone);
    vcs_.resize(static_cast<size_t>(ports) * V);
    rings_.resize(static_cast<size_t>(ports) * V);
    in_rr_.assign(ports, 0);
    in_free_.assign(ports, 0);
    out_rr_.assign(ports, 0);
    asked_ = queued() ? p_.speedup : 1;
    request_.assign(static_cast<size_t>(ports) * asked_, Request{});
    if (queued()) out_xbar_free_.assign(ports, 0);
    nics_.resize(N);
    visited_.assign(net_.num_switches(), -1);
    va_rr_.assign(net_.num_switches(), 0);
    blocked_cycles_.assign(ports, 0);
    blocked_stamp_.assign(ports, -1);
    held_.assign(ports, 0);
    held_max_.assign(ports, 0);
    held_since_.assign(ports, 0);
    held_area_.assign(ports, 0);
    nic_visited_.assign(N, -1);
    int longest = 1;
    double slowest = 1;  // cycles per flit
    long queue_span = 0;  // cycles the longest output queue takes to drain
    for (int port = 0; port < ports; ++port) {
      longest = std::max(longest, out_[port].delay + credit_cycles_ + (target_[port] >= 0 ? router_cycles_[target_[port]] : 0));
      slowest = std::max(slowest, out_[port].period);
      if (queued()) {  // a queue before a switch holds no more flits than the credits of its buffers downstream
        const long bound = target_[port] >= 0 ? std::min<long>(p_.output_queue, static_cast<long>(V) * p_.buffer) : p_.output_queue;
        queue_span = std::max(queue_span, static_cast<long>(std::ceil(bound * out_[port].period)) + 1);
      }
    }
    // The wheel reaches as far as anything is scheduled: a hop, and a train's tail (a cut-through packet).
    const long train = p_.wormhole ? 1 : static_cast<long>(std::ceil(packet_flits * slowest)) + 1;
    long wheel = 2;
    while (wheel < longest + train + queue_span + 2) wheel *= 2;
    wheel_.resize(wheel);
    // No flit moved for this long while flits wait: nothing will move again.
    stall_limit_ = 16L * (2L * longest + 2 + train) + 4L * p_.buffer + 1000 + queue_span;
  }

  void start(int id, Message& m, const std::vector<Leg>& path, double) override {
    if (path.size() != 1 || path.front().circuit >= 0) throw Error("flit model: optical circuits need a port model (packet)");
    const Leg& leg = path.front();
    m.route.clear();
    m.walked = leg.walked;
    layout_.append(leg.from, leg.channels, leg.to, m.route);
    if (routes_.size() <= static_cast<size_t>(id)) routes_.resize(id + 1);
    std::vector<uint8_t>& classes = routes_[id];
    classes.clear();
    if (!m.walked) {
      routing_.virtual_channels(leg.channels, vc_scratch_);
      for (int vc : vc_scratch_) classes.push_back(static_cast<uint8_t>(vc));
    }
    const double count = m.wire > 0 ? std::ceil(m.wire / mtu_) : 1;
    if (count > (1L << 24))
      throw Error("a message of " + format_number(m.wire) + " bytes would be " + format_number(count, 3) + " packets of " +
                  format_number(mtu_) + " bytes, above the limit of 16777216 per message: raise model.mtu (--mtu)");
    m.pending_packets = static_cast<int>(count);
    if (m.walked) {
      walked_.start(id, static_cast<long>(count));
    }
    at(now() + net_.startup, [this, id] {
      ++events_;
      const Message& msg = messages_[id];
      nics_[msg.src_node].queue.push_back(id);
      wake_nic(msg.src_node, cycle_at(now()));
    });
  }

  // Every flit's move over a link is an event, as in a cycle-level simulator, besides the busy cycles.
  long events() const override { return events_ + flit_moves_; }
  TakenPath taken_path(int id) const override { return walked_.taken(id, messages_[id].src_node, messages_[id].dst_node); }
  const std::vector<PortLoad>* walked_channel_loads() const override { return walked_.loads(); }
  Congestion congestion() const override {
    Congestion c;
    c.packets = packets_done_;
    if (packets_done_ > 0) c.queueing = queueing_sum_ / packets_done_, c.network = network_sum_ / packets_done_;
    c.channel_blocked.resize(net_.num_channels());
    for (int ch = 0; ch < net_.num_channels(); ++ch)
      c.channel_blocked[ch] = static_cast<double>(blocked_cycles_[layout_.channel(ch)]) * cycle_;
    // Levels: switches with nodes are 0, the others by hops from the nearest of them.
    std::vector<int> level(net_.num_switches(), -1), queue;
    for (int sw = 0; sw < net_.num_switches(); ++sw)
      if (!net_.nodes_of(sw).empty()) level[sw] = 0, queue.push_back(sw);
    for (size_t i = 0; i < queue.size(); ++i)
      for (int ch = 0; ch < net_.num_channels(); ++ch)  // (once per run: a scan of the channels is fine)
        if (net_.channel_source(ch) == queue[i] && level[net_.channel_target(ch)] < 0)
          level[net_.channel_target(ch)] = level[queue[i]] + 1, queue.push_back(net_.channel_target(ch));
    const double span = static_cast<double>(std::max(current_, 1L));
    for (int sw = 0; sw < net_.num_switches(); ++sw) {
      if (level[sw] < 0) continue;
      if (static_cast<int>(c.levels.size()) <= level[sw]) c.levels.resize(level[sw] + 1);
      BufferLevel& l = c.levels[level[sw]];
      l.level = level[sw];
      for (int in : inputs_of_[sw]) {
        const double area = held_area_[in] + static_cast<double>(held_[in]) * static_cast<double>(current_ - held_since_[in]);
        l.mean_flits += area / span;
        l.max_flits = std::max(l.max_flits, static_cast<double>(held_max_[in]));
      }
    }
    std::vector<int> ports_at(c.levels.size(), 0);
    for (int sw = 0; sw < net_.num_switches(); ++sw)
      if (level[sw] >= 0) ports_at[level[sw]] += static_cast<int>(inputs_of_[sw].size());
    for (size_t l = 0; l < c.levels.size(); ++l)
      if (ports_at[l] > 0) c.levels[l].mean_flits /= ports_at[l];
    return c;
  }

 private:
  // The sending end of a directed link (PortLayout numbering): its bandwidth in cycles per flit, the
  // cycles a flit takes to reach the buffer downstream (also a credit's way back), when the link can
  // take the next flit.
  struct Out {
    double period = 1, next_free = 0;
    int delay = 1;
  };
  // What a VC buffer holds: flits of one packet that move together -- one flit in wormhole mode, the
  // whole packet with cut-through (a packet holds its output and its input's crossbar port until its
  // tail has passed, so its flits never interleave with others: one entry and one move per hop).
  struct Flit {
    uint32_t packet;
    uint32_t index;   // of the first flit (0: the head)
    uint32_t count;   // flits
    long ready;       // the first cycle the first flit may leave this buffer
    long tail_ready;  // the cycle the last may (it leaves no earlier, so a train never waits on its tail)
  };
  // A VC buffer (a ring in rings_) and where its head packet goes, once it holds a VC there.
  struct InputVc {
    uint32_t first = 0, count = 0;
    int out_port = -1, out_vc = -1;
  };
  struct Packet {
    uint32_t message;
    uint32_t flits;
    int hop = 0;            // index in the message's route of the port its head waits at or crosses
    int sw = -1, state = 0;  // walked: the switch its head has reached, route state there
    int vc_class = 0, previous = -1;  // walked: class and channel of the last switch hop
    double bytes = 0;
    double created = 0;   // for age arbitration
    double queued = 0;    // reached its NIC's queue
    double injected = 0;  // its head left the NIC
  };
  struct Nic {
    std::deque<int> queue;  // messages, in start order
    int next_packet = 0;    // of the queue's first message
    uint32_t packet = kNone;
    uint32_t next_flit = 0;
    int vc = -1;
  };
  struct Request {
    long stamp = -1;
    int input = -1, vc = -1;
    int rank = 0;  // round-robin distance or age rank of the current best
    double created = 0;
    int askers = 0;
  };
  struct WheelItem {
    int kind;  // 0 credits (id = port * V + vc), 1 switch, 2 NIC
    int id;
    int count = 1;  // credits
  };

  int cycles(double seconds) const { return static_cast<int>(std::lround(seconds / cycle_)); }
  long cycle_at(double t) const { return static_cast<long>(std::ceil(t / cycle_ - 1e-9)); }

  void set_port(int port, double bandwidth, double latency, int target) {
    Out& o = out_[port];
    o.period = p_.flit / bandwidth / cycle_;
    o.delay = static_cast<int>(std::ceil(o.period - 1e-9)) + cycles(latency);
    target_[port] = target;
  }

  // Input port `port` holds `delta` more flits from cycle c on.
  void hold(int port, int delta, long c) {
    held_area_[port] += static_cast<double>(held_[port]) * static_cast<double>(c - held_since_[port]);
    held_since_[port] = c;
    held_[port] += delta;
    held_max_[port] = std::max(held_max_[port], held_[port]);
  }
  void refused(int op, long c) {
    if (blocked_stamp_[op] == c) return;
    blocked_stamp_[op] = c;
    ++blocked_cycles_[op];
  }

  size_t slot(int port, int vc) const { return static_cast<size_t>(port) * p_.vcs + vc; }
  // A VC's ring of `buffer` flits, allocated when the VC first holds one (most VCs of a large network never do).
  Flit* ring(size_t vc_slot) {
    auto& r = rings_[vc_slot];
    if (!r) r = std::make_unique<Flit[]>(static_cast<size_t>(p_.buffer));
    return r.get();
  }
  Flit& flit_at(size_t vc_slot, uint32_t i) {
    return ring(vc_slot)[(vcs_[vc_slot].first + i) % static_cast<uint32_t>(p_.buffer)];
  }

  // ---- the cycle clock: a wheel of what each coming cycle must visit, one engine event per busy cycle.
  void schedule(long cycle, WheelItem item) {
    if (pending_ == 0 && !ticking_) current_ = std::max(current_, cycle - 1);  // idle: the wheel starts here
    if (cycle <= current_) cycle = current_ + 1;
    if (cycle - current_ > static_cast<long>(wheel_.size()))
      throw InternalError("flit model: an event " + std::to_string(cycle - current_) + " cycles ahead, past its wheel");
    wheel_[static_cast<size_t>(cycle) & (wheel_.size() - 1)].push_back(item);
    ++pending_;
    if (!ticking_ || cycle < next_tick_) {
      ticking_ = true;
      next_tick_ = cycle;
      at(static_cast<double>(cycle) * cycle_, [this, cycle] { tick(cycle); });
    }
  }
  void wake_switch(int sw, long cycle) { schedule(cycle, {1, sw}); }
  void wake_nic(int node, long cycle) { schedule(cycle, {2, node}); }

  void tick(long cycle) {
    if (!ticking_ || cycle != next_tick_) return;  // superseded by an earlier tick
    ++events_;
    current_ = cycle;
    auto& items = wheel_[static_cast<size_t>(cycle) & (wheel_.size() - 1)];
    std::vector<WheelItem>& todo = todo_;
    todo.clear();
    todo.swap(items);
    pending_ -= static_cast<long>(todo.size());
    for (const WheelItem& item : todo)
      if (item.kind == 0) {
        credits_[item.id] += item.count;
        const int port = static_cast<int>(item.id / p_.vcs);
        if (layout_.is_channel(port)) wake_switch_now(net_.channel_source(layout_.channel_of(port)), cycle);
        else nic_now(port, cycle);
      }
    for (const WheelItem& item : todo) {
      if (item.kind == 1) wake_switch_now(item.id, cycle);
      else if (item.kind == 2) nic_now(item.id, cycle);
    }
    for (size_t i = 0; i < active_.size(); ++i) route_and_send(active_[i], cycle);  // may grow: no iterator
    active_.clear();
    for (int node : active_nics_) inject(node, cycle);
    active_nics_.clear();
    if (flits_in_network_ > 0 && cycle - last_progress_ > stall_limit_) report_deadlock(cycle);
    items.swap(todo);  // keep the slot's storage
    items.clear();
    ticking_ = false;
    if (pending_ > 0) {
      long next = cycle + 1;
      while (wheel_[static_cast<size_t>(next) & (wheel_.size() - 1)].empty()) ++next;
      ticking_ = true;
      next_tick_ = next;
      at(static_cast<double>(next) * cycle_, [this, next] { tick(next); });
    } else if (flits_in_network_ > 0) {
      report_deadlock(cycle);  // flits wait and nothing (no credit, no arrival) will ever wake them
    }
  }
  void wake_switch_now(int sw, long cycle) {
    if (visited_[sw] == cycle) return;
    visited_[sw] = cycle;
    active_.push_back(sw);
  }
  void nic_now(int port, long cycle) {
    const int node = port;  // an injection port is its node's number
    if (nic_visited_[node] == cycle) return;
    nic_visited_[node] = cycle;
    active_nics_.push_back(node);
  }

  // ---- a switch in one cycle: heads take output VCs, then separable input-first switch allocation.
  void route_and_send(int sw, long c) {
    long wake = kNever;  // the next cycle something here may move
    std::vector<int>& inputs = inputs_of_[sw];
    const int V = p_.vcs, ninputs = static_cast<int>(inputs.size());
    granted_.clear();
    // Heads compete for output VCs in the order of the scan: its start turns round, for fairness.
    const int first = va_rr_[sw] = (va_rr_[sw] + 1) % ninputs;
    for (int i = 0; i < ninputs; ++i) {
      const int k = (first + i) % ninputs;
      const int in = inputs[k];
      int picks = 0;
      for (int j = 0; j < V && picks < p_.speedup; ++j) {
        const int v = (in_rr_[in] + j) % V;
        const size_t s = slot(in, v);
        InputVc& ivc = vcs_[s];
        if (ivc.count == 0) continue;
        const Flit& f = flit_at(s, 0);
        if (f.ready > c) continue;  // its arrival (or the send before it) wakes the switch then
        if (in_free_[in] > c) {     // the input's crossbar port still passes a packet
          wake = std::min(wake, in_free_[in]);
          continue;
        }
        if (ivc.out_port < 0 && !allocate_vc(sw, ivc, f)) {
          refused(refused_port_, c);  // a credit's return or a tail leaving this switch wakes it
          continue;
        }
        const int op = ivc.out_port;
        const long start = entry_at(op, f);
        if (start > c) {
          wake = std::min(wake, start);
          continue;
        }
        if (target_[op] >= 0 && credits_[slot(op, ivc.out_vc)] < static_cast<int>(f.count)) {
          refused(op, c);  // a credit's return wakes the switch
          continue;
        }
        // This input asks output op for VC v's flit: the output keeps its best askers (one, or
        // `speedup` with an output queue), best first; the first holds the count of askers.
        const Packet& pk = packets_[f.packet];
        const Request asker{c, k, v, (k - out_rr_[op] + ninputs) % ninputs, pk.created, 0};
        Request* best = &request_[static_cast<size_t>(op) * asked_];
        if (best[0].stamp != c) {
          granted_.push_back(op);
          best[0] = asker;
        } else {
          const int askers = best[0].askers, kept = std::min(askers, asked_);
          int at = kept;
          while (at > 0 && before(asker, best[at - 1])) --at;
          if (at < asked_) {
            for (int i = std::min(kept, asked_ - 1); i > at; --i) best[i] = best[i - 1];
            best[at] = asker;
          }
          best[0].askers = askers;
        }
        ++best[0].askers;
        ++picks;
      }
    }
    for (int op : granted_) {
      const Request* best = &request_[static_cast<size_t>(op) * asked_];
      const int askers = best[0].askers, kept = std::min(askers, asked_);
      int sent = 0;
      uint32_t flits = 0;  // into op's queue this cycle
      long busy_until = c + 1;  // op's crossbar port, passing the trains sent
      for (; sent < kept; ++sent) {
        const Request r = best[sent];
        const int in = inputs[r.input];
        if (sent > 0) {  // queued only: the output's crossbar port and queue may be full by now
          const uint32_t count = flit_at(slot(in, r.vc), 0).count;
          if (flits >= static_cast<uint32_t>(p_.speedup) || room_at(op, count) > c) break;
        }
        flits += flit_at(slot(in, r.vc), 0).count;
        out_rr_[op] = (r.input + 1) % ninputs;
        in_rr_[in] = (r.vc + 1) % V;
        busy_until = std::max(busy_until, send(sw, in, r.vc, c) + 1);
      }
      if (askers > sent) wake = std::min(wake, c + 1);  // the losers ask again (another output, perhaps)
      if (queued()) out_xbar_free_[op] = std::max(busy_until, c + (flits + p_.speedup - 1) / p_.speedup);
    }
    if (wake != kNever) wake_switch(sw, wake);
  }
  // Whether asker a goes before b at one output: round-robin distance, or age (ties by distance).
  bool before(const Request& a, const Request& b) const {
    return p_.age ? a.created < b.created || (a.created == b.created && a.rank < b.rank) : a.rank < b.rank;
  }
  bool queued() const { return p_.output_queue > 0; }
  // The first cycle flit f may enter output op: its link is free (or, queued, the output's crossbar port
  // and the queue have room), and it goes on the link no earlier than its train's tail can follow
  // without a gap (queued: behind a queue that long, at once).
  long entry_at(int op, const Flit& f) const {
    const long link_start = f.tail_ready - tail_offset(op, f.count);
    if (!queued()) return std::max(free_at(op), link_start);
    return std::max({out_xbar_free_[op], room_at(op, f.count), free_at(op) >= link_start ? 0L : link_start});
  }
  // The first cycle op's output queue has room for `count` more flits: those not yet on the link
  // (ceil((next_free - c) / period)) and count at most output_queue.
  long room_at(int op, uint32_t count) const {
    const Out& o = out_[op];
    return static_cast<long>(std::ceil(o.next_free - (p_.output_queue - static_cast<double>(count)) * o.period - 1e-9));
  }
  // Cycles from a train's first flit to its last through the crossbar into an output queue (speedup a cycle).
  long crossbar_offset(uint32_t count) const { return (static_cast<long>(count) + p_.speedup - 1) / p_.speedup - 1; }
  static constexpr long kNever = std::numeric_limits<long>::max();
  long free_at(int op) const { return static_cast<long>(std::ceil(out_[op].next_free - 1e-9)); }
  // Cycles from a train's first flit to its last on port op.
  long tail_offset(int op, uint32_t count) const {
    return static_cast<long>(std::ceil((count - 1) * out_[op].period - 1e-9));
  }

  // The head of `ivc` takes a VC at its next port; false when none is free (it then waits there).
  bool allocate_vc(int sw, InputVc& ivc, const Flit& head) {
    Packet& pk = packets_[head.packet];
    const Message& m = messages_[pk.message];
    int op, klass = 0, channel = -1, state = 0;
    if (!m.walked) {
      op = m.route[pk.hop + 1];
      if (layout_.is_channel(op)) klass = routes_[pk.message][pk.hop];
    } else {
      if (sw == net_.node(m.dst_node).switch_id) {
        op = layout_.ejection(m.dst_node);
      } else {
        if (pk.sw < 0) {  // the first switch: the routing may decide here (UGAL)
          pk.sw = sw;
          pk.state = chooser_.start_state(sw, m.dst_node, pk.bytes, backlog_);
        }
        const Routing::Hop hop = chooser_.next_hop(sw, pk.state, m.dst_node, backlog_);
        channel = hop.channel;
        state = hop.state;
        op = layout_.channel(channel);
        klass = pk.previous < 0 ? 0 : routing_.next_vc(pk.vc_class, pk.previous, channel);
      }
    }
    int vc = 0;
    if (target_[op] >= 0) {
      vc = free_vc(op, klass, pk.flits, !p_.vc_needs_room);
      if (vc < 0) {
        refused_port_ = op;
        return false;
      }
      holder_[slot(op, vc)] = head.packet;
    }
    ivc.out_port = op;
    ivc.out_vc = vc;
    if (channel >= 0) {  // a walked switch hop: taken now
      pk.sw = net_.channel_target(channel);
      pk.state = state;
      pk.vc_class = klass;
      pk.previous = channel;
      walked_.hop(static_cast<int>(pk.message), channel, pk.bytes, m.wire);
    }
    return true;
  }

  // The VCs [first, end) of class `klass` at port op (node ports: all of them).
  std::pair<int, int> vc_range(int op, int klass) const {
    const int V = p_.vcs;
    if (!layout_.is_channel(op) || classes_ <= 1) return {0, V};
    if (V >= classes_) return {klass * V / classes_, (klass + 1) * V / classes_};
    return {klass % V, klass % V + 1};
  }
  // A VC of class `klass` at port op that no packet holds and has room for `flits` (cut-through) or a
  // flit (wormhole), or with `any_room` none; tried from `first` on; -1 if none. The classes share the VCs
  // out evenly; with fewer VCs than classes, classes share VCs (and may deadlock).
  int free_vc(int op, int klass, uint32_t flits, bool any_room = false, int first = 0) {
    const auto [lo, hi] = vc_range(op, klass);
    const int need = any_room ? 0 : p_.wormhole ? 1 : static_cast<int>(flits);
    for (int i = 0; i < hi - lo; ++i) {
      const int w = lo + (first + i) % (hi - lo);
      if (holder_[slot(op, w)] == kNone && credits_[slot(op, w)] >= need) return w;
    }
    return -1;
  }
  // The VC a NIC's next packet tries first (then the others in turn): the first, the one after its last
  // packet's (BookSim's traffic manager), or one at random (BookSim's dragonfly routings).
  int injection_start(const Nic& nic) {
    switch (p_.injection_vc) {
      case FlitParams::InjectionVc::First: return 0;
      case FlitParams::InjectionVc::RoundRobin: return nic.vc + 1;
      case FlitParams::InjectionVc::Random: return static_cast<int>(injection_rng_.below(static_cast<uint64_t>(p_.vcs)));
    }
    return 0;
  }

  // Input VC (in, v)'s first flit leaves now over its output; returns the cycle its last flit leaves the buffer.
  long send(int sw, int in, int v, long c) {
    const size_t s = slot(in, v);
    InputVc& ivc = vcs_[s];
    const Flit f = flit_at(s, 0);
    ivc.first = (ivc.first + 1) % static_cast<uint32_t>(p_.buffer);
    --ivc.count;
    const int op = ivc.out_port, w = ivc.out_vc;
    // The train's last flit leaves the buffer: at the link's pace, or the crossbar's into an output queue
    // (as its flits arrive).
    const long last = queued() ? std::max(c + crossbar_offset(f.count), f.tail_ready) : c + tail_offset(op, f.count);
    in_free_[in] = queued() ? last + 1 : c + (last + 1 - c + p_.speedup - 1) / p_.speedup;
    hold(in, -static_cast<int>(f.count), c);
    schedule(last + out_[in].delay + credit_cycles_, {0, static_cast<int>(s), static_cast<int>(f.count)});  // the slots' credits
    // What waits at this input goes on when its crossbar port is free, or when it has arrived.
    for (int u = 0; u < p_.vcs; ++u)
      if (vcs_[slot(in, u)].count > 0) wake_switch(sw, std::max(in_free_[in], flit_at(slot(in, u), 0).ready));
    Packet& pk = packets_[f.packet];
    const bool tail = f.index + f.count == pk.flits;
    if (tail) {
      if (target_[op] >= 0) {
        holder_[slot(op, w)] = kNone;
        wake_switch(sw, c + 1);  // a head here may take the VC
      }
      ivc.out_port = ivc.out_vc = -1;
    }
    if (f.index == 0 && !messages_[pk.message].walked) ++pk.hop;
    forward(op, w, f, c, tail);
    return last;
  }

  // Flit f enters port op now (a switch output or a NIC's injection link) on downstream VC w; it goes
  // on the link now, or behind the output queue's flits.
  void forward(int op, int w, const Flit& f, long c, bool tail) {
    Out& o = out_[op];
    const long departure = queued() ? std::max(c, free_at(op)) : c;
    const long arrival = departure + o.delay, tail_arrival = arrival + tail_offset(op, f.count);
    o.next_free = std::max(o.next_free, static_cast<double>(c)) + f.count * o.period;
    last_progress_ = c;
    flit_moves_ += f.count;
    const int down = target_[op];
    if (down < 0) {  // into the destination's NIC
      flits_in_network_ -= f.count;
      if (tail) finish_packet(f.packet, static_cast<double>(tail_arrival) * cycle_);
      return;
    }
    const size_t s = slot(op, w);
    credits_[s] -= static_cast<int>(f.count);
    InputVc& ivc = vcs_[s];
    Flit& into = flit_at(s, ivc.count);
    ++ivc.count;
    into = Flit{f.packet, f.index, f.count, arrival + router_cycles_[down], tail_arrival + router_cycles_[down]};
    hold(op, static_cast<int>(f.count), c);  // from the credits' use: the slots are the flits' from now
    if (ivc.count == 1) wake_switch(down, into.ready);
  }

  void finish_packet(uint32_t id, double when) {
    const uint32_t message = packets_[id].message;
    ++packets_done_;
    queueing_sum_ += packets_[id].injected - packets_[id].queued;
    network_sum_ += when - packets_[id].injected;
    packets_[id].flits = 0;
    free_packets_.push_back(id);
    if (--messages_[message].pending_packets > 0) return;
    at(when, [this, message] {
      ++events_;
      delivered_(static_cast<int>(message));
    });
  }

  // ---- a NIC in one cycle: its current packet's next flit, if the link and a credit allow.
  void inject(int node, long c) {
    Nic& nic = nics_[node];
    const int port = layout_.injection(node);
    if (nic.packet == kNone) {
      if (nic.queue.empty()) return;
      const int id = nic.queue.front();
      const Message& m = messages_[id];
      const double bytes = std::min(mtu_, m.wire - nic.next_packet * mtu_);
      const uint32_t flits = static_cast<uint32_t>(std::max(1.0, std::ceil(bytes / p_.flit)));
      const int vc = free_vc(port, 0, flits, false, injection_start(nic));
      if (vc < 0) return;  // a credit's return wakes it
      uint32_t pid;
      if (!free_packets_.empty()) pid = free_packets_.back(), free_packets_.pop_back();
      else pid = static_cast<uint32_t>(packets_.size()), packets_.emplace_back();
      packets_[pid] = Packet{static_cast<uint32_t>(id), flits, 0, -1, 0, 0, -1, bytes, m.started, m.started + net_.startup, 0};
      holder_[slot(port, vc)] = pid;
      nic.packet = pid;
      nic.next_flit = 0;
      nic.vc = vc;
      if (++nic.next_packet * mtu_ >= m.wire) {
        nic.queue.pop_front();
        nic.next_packet = 0;
      }
    }
    if (free_at(port) > c) return wake_nic(node, free_at(port));
    const Packet& pk = packets_[nic.packet];
    const uint32_t count = p_.wormhole ? 1 : pk.flits;  // cut-through: the packet as one train
    if (credits_[slot(port, nic.vc)] < static_cast<int>(count)) return;  // a credit's return wakes it
    const bool tail = nic.next_flit + count == pk.flits;
    if (nic.next_flit == 0) packets_[nic.packet].injected = static_cast<double>(c) * cycle_;
    flits_in_network_ += count;
    forward(port, nic.vc, Flit{nic.packet, nic.next_flit, count, c, c}, c, tail);
    if (tail) {
      holder_[slot(port, nic.vc)] = kNone;
      nic.packet = kNone;
    } else {
      nic.next_flit += count;
    }
    if (nic.packet != kNone || !nic.queue.empty()) wake_nic(node, std::max(c + 1, free_at(port)));
  }

  // ---- deadlock: follow the waits from a blocked buffer until one repeats, and name that cycle.
  [[noreturn]] void report_deadlock(long c) {
    std::vector<int> seen(static_cast<size_t>(layout_.size()) * p_.vcs, -1);
    std::vector<size_t> chain;
    for (size_t s = 0; s < vcs_.size(); ++s) {
      if (vcs_[s].count == 0) continue;
      chain.clear();
      size_t at_slot = s;
      while (at_slot != kNoSlot && seen[at_slot] < 0) {
        seen[at_slot] = static_cast<int>(s);
        chain.push_back(at_slot);
        at_slot = waits_for(at_slot);
      }
      if (at_slot == kNoSlot || seen[at_slot] != static_cast<int>(s)) continue;
      std::string names;
      const auto from = std::find(chain.begin(), chain.end(), at_slot);
      for (auto it = from; it != chain.end(); ++it) names += (names.empty() ? "" : ", ") + vc_name(*it);
      throw Error("flit model: deadlock at " + format_time(static_cast<double>(c) * cycle_) + ": " +
                  std::to_string(flits_in_network_) + " flits stopped; these full buffers wait on each other in a cycle: " +
                  names + " (routing " + routing_.name() + " needs " + std::to_string(classes_) +
                  " VC classes; model.vcs = " + std::to_string(p_.vcs) + ")");
    }
    throw Error("flit model: no flit moved for " + std::to_string(stall_limit_) + " cycles at " +
                format_time(static_cast<double>(c) * cycle_) + " with " + std::to_string(flits_in_network_) +
                " flits in the network (a deadlock; routing " + routing_.name() + ", model.vcs = " + std::to_string(p_.vcs) + ")");
  }
  static constexpr size_t kNoSlot = ~size_t{0};
  // The buffer that input VC slot s's head waits for: its held VC's, or (no VC yet) the first full one it may take.
  size_t waits_for(size_t s) const {
    const InputVc& ivc = vcs_[s];
    if (ivc.count == 0) return kNoSlot;
    if (ivc.out_port >= 0) return target_[ivc.out_port] >= 0 ? slot(ivc.out_port, ivc.out_vc) : kNoSlot;
    const Flit& f = rings_[s][ivc.first];
    const Packet& pk = packets_[f.packet];
    const Message& m = messages_[pk.message];
    if (m.walked) return kNoSlot;
    const int op = m.route[pk.hop + 1];
    if (target_[op] < 0) return kNoSlot;
    const int klass = layout_.is_channel(op) ? routes_[pk.message][pk.hop] : 0;
    return slot(op, vc_range(op, klass).first);
  }
  std::string vc_name(size_t s) const {
    const int port = static_cast<int>(s / p_.vcs), vc = static_cast<int>(s % p_.vcs);
    std::string link;
    if (layout_.is_channel(port)) {
      const int ch = layout_.channel_of(port);
      link = net_.switch_at(net_.channel_source(ch)).name + "->" + net_.switch_at(net_.channel_target(ch)).name;
    } else {
      link = net_.node(port).name + "->" + net_.switch_at(net_.node(port).switch_id).name;
    }
    return link + " vc " + std::to_string(vc);
  }

  const RoutedNetwork& routed_;
  const Network& net_;
  const Routing& routing_;
  const PortLayout layout_{routed_.network()};
  std::vector<Message>& messages_;
  Delivered delivered_;
  FlitParams p_;
  double mtu_;
  PathChooser chooser_;
  Rng injection_rng_;  // injection_vc=random
  PathChooser::Backlog backlog_ = [this](int channel) {  // the flits a channel's downstream buffers hold
    const int port = layout_.channel(channel);
    double used = 0;
    for (int v = 0; v < p_.vcs; ++v) used += p_.buffer - credits_[slot(port, v)];
    return used * p_.flit;
  };
  int classes_ = 1;
  int credit_cycles_ = 0;  // a credit's wait at its sender before it counts
  double cycle_ = 1;
  std::vector<Out> out_;
  std::vector<int> target_;                // per port: the switch downstream, -1 for a node
  std::vector<std::vector<int>> inputs_of_;  // per switch: the ports into it
  std::vector<int> router_cycles_;
  std::vector<int> credits_;
  std::vector<uint32_t> holder_;  // per (port, vc): the packet holding it, or kNone
  std::vector<InputVc> vcs_;
  std::vector<std::unique_ptr<Flit[]>> rings_;  // per (port, vc)
  std::vector<int> in_rr_, out_rr_, va_rr_;
  std::vector<long> in_free_;  // per input port: the cycle its crossbar port is free again
  std::vector<long> out_xbar_free_;  // output queues only, per output port: the same for its crossbar port
  int refused_port_ = 0;  // the port allocate_vc found no VC at
  std::vector<Request> request_;  // per output port, its `asked_` best askers of the cycle
  int asked_ = 1;
  std::vector<int> granted_;
  std::vector<Packet> packets_;
  std::vector<uint32_t> free_packets_;
  std::vector<Nic> nics_;
  std::vector<std::vector<uint8_t>> routes_;  // per message: the VC class of each switch hop
  std::vector<int> vc_scratch_;
  std::vector<std::vector<WheelItem>> wheel_;
  std::vector<WheelItem> todo_;
  std::vector<int> active_, active_nics_;
  std::vector<long> visited_, nic_visited_;
  long pending_ = 0, current_ = -1, next_tick_ = 0;
  bool ticking_ = false;
  long flits_in_network_ = 0, last_progress_ = 0, stall_limit_ = 0, flit_moves_ = 0;
  WalkedPathLog walked_{routed_};  // walked packets only
  long events_ = 0;
  // What congestion() reports: cycles each port's sender was refused downstream (stamped once a cycle),
  // flits held per input port (now, integrated over cycles, the most), packets' source and network times.
  std::vector<long> blocked_cycles_, blocked_stamp_;
  std::vector<int> held_, held_max_;
  std::vector<long> held_since_;
  std::vector<double> held_area_;
  long packets_done_ = 0;
  double queueing_sum_ = 0, network_sum_ = 0;
};

ModelComponent flit_model() {
  ModelComponent model;
  model.walks_packets = true;
  model.make = [](const RoutedNetwork& routed, const SimOptions& options, const std::vector<Circuit>&,
                  std::vector<Message>& messages, Transport::Delivered delivered) -> std::unique_ptr<Transport> {
    return std::make_unique<FlitTransport>(routed, options, messages, std::move(delivered));
  };
  return model;
}

}  // namespace

MAPSIM_REGISTER(model_registry(),
                {"flit",
                 "lossless input-queued switches: flits, credit flow control, finite VC buffers (VCT or wormhole)",
                 {builtin_model_option("mtu").param,
                  size_param("flit", 64, "flit size: the unit of buffers, credits and switch allocation", 1),
                  integer_param("vcs", 2, "virtual channels per port (the routing's VC classes share them out)", 1, 64),
                  integer_param("buffer", 128, "buffer per virtual channel, in flits", 1, 1 << 20),
                  text_param("switching", "vct", "vct (a head needs room for its whole packet) or wormhole"),
                  text_param("arbitration", "round-robin", "switch allocation among inputs: round-robin or age"),
                  integer_param("speedup", 1, "flits an input port may send per cycle (to different outputs)", 1, 16),
                  integer_param("output_queue", 0,
                                "flits an output's queue holds; with it an output takes `speedup` flits a cycle "
                                "(0: no queue, one a cycle straight onto its link)",
                                0, 1 << 16),
                  text_param("vc_allocation", "room",
                             "room (a head takes an output VC only with room downstream for its packet, or a flit "
                             "under wormhole) or any (any VC no packet holds, then it waits for credits: BookSim's)"),
                  text_param("injection_vc", "first",
                             "the VC a NIC's packet tries first: first, round-robin (after its last packet's: "
                             "BookSim's traffic manager) or random (BookSim's dragonfly routings)"),
                  time_param("credit_delay", 0, "a returned credit's wait at its sender before it counts, besides the link's delay")},
                 flit_model()});

}  // namespace mapsim::sim
