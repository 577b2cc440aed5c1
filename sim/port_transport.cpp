// Store-and-forward and packet models. Every directed link end is an output port with a FIFO
// queue served one packet at a time: a packet occupies the port for bytes/bandwidth, reaches the
// next switch after the link's propagation delay, and is queued at its next port after that
// switch's router delay. A whole message is one packet in the store-and-forward model.
// Port ids: the electrical ports of PortLayout, then optical circuit k at 2N + C + 2k (from its node
// a to b) and 2N + C + 2k + 1 (b to a). Circuit ports stay busy until
// the circuits' set-up delay has passed: packets that need them wait in their queues.
// Walked legs (spraying, adaptive routing, UGAL) choose each packet's next port when it reaches a
// switch, from the ports' backlogs at that moment (sim/internal/path_choice.h); the hops and
// zero-load latency of the paths they took are summed per message (TakenPaths).
#include <algorithm>
#include <cmath>

#include "sim/internal/path_choice.h"
#include "sim/transport.h"
#include "support/error.h"
#include "support/units.h"

namespace mapsim::sim {
namespace {

constexpr long kMaxPacketsPerMessage = 1L << 24;

class PortTransport : public Transport, public CircuitPorts, public TakenPaths {
 public:
  // `mtu` INFINITY: whole messages (store-and-forward); else packets of that size.
  PortTransport(const RoutedNetwork& routed, const SimOptions& options, double mtu, const std::vector<Circuit>& circuits,
                std::vector<Message>& messages, Delivered delivered)
      : routed_(routed), circuits_(circuits), messages_(messages), delivered_(std::move(delivered)), mtu_(mtu),
        chooser_(routed, options.path_selection, options.seed ^ 0x5851F42D4C957F2Dull) {
    use_event_queue_only();
    const Network& net = routed.network();
    circuit_base_ = layout_.size();
    ports_.resize(circuit_base_);
    for (int i = 0; i < net.num_nodes(); ++i) {
      const Node& node = net.node(i);
      const double switch_delay = net.switch_at(node.switch_id).router_delay;
      set_port(layout_.injection(i), node.bandwidth, node.latency + switch_delay);  // the packet then sits in the switch
      set_port(layout_.ejection(i), node.bandwidth, node.latency);
    }
    for (int c = 0; c < net.num_channels(); ++c) {
      const Link& link = net.link(c / 2);
      set_port(layout_.channel(c), link.bandwidth, link.latency + net.switch_at(net.channel_target(c)).router_delay);
    }
    if (options.ocs) circuit_bandwidth_ = options.ocs->bandwidth, circuit_latency_ = options.ocs->latency;
    for (size_t k = 0; k < circuits.size(); ++k) add_circuit(static_cast<int>(k), options.ocs->setup_delay);
  }

  void add_circuit(int k, double ready) override {
    const size_t first = circuit_base_ + 2 * static_cast<size_t>(k);
    if (ports_.size() < first + 2) ports_.resize(first + 2);
    for (size_t p = first; p < first + 2; ++p) {
      set_port(static_cast<int>(p), circuit_bandwidth_, circuit_latency_);
      ports_[p].busy = true;  // until set up
    }
    at(ready, [this, first] {
      ++events_;
      release(ports_[first]);
      release(ports_[first + 1]);
    });
  }

  CircuitPorts* circuit_ports() override { return this; }

  bool circuit_idle(int k) const override {
    const size_t first = circuit_base_ + 2 * static_cast<size_t>(k);
    for (size_t p = first; p < first + 2; ++p)
      if (ports_[p].busy || ports_[p].head != kNoPacket) return false;
    return true;
  }

  void start(int id, Message& m, const std::vector<Leg>& path, double) override {
    const Network& net = routed_.network();
    m.route.clear();
    m.walked = path.size() == 1 && path.front().walked;
    for (const Leg& leg : path) {
      if (leg.circuit >= 0) m.route.push_back(circuit_base_ + 2 * leg.circuit + (circuits_[leg.circuit].a == leg.from ? 0 : 1));
      else layout_.append(leg.from, leg.channels, leg.to, m.route);
    }
    const double count = m.wire > 0 && std::isfinite(mtu_) ? std::ceil(m.wire / mtu_) : 1;
    if (count > kMaxPacketsPerMessage)
      throw Error("a message of " + format_number(m.wire) + " bytes would be " + format_number(count, 3) + " packets of " +
                  format_number(mtu_) + " bytes, above the limit of " + std::to_string(kMaxPacketsPerMessage) +
                  " per message: raise model.mtu (--mtu)");
    const long packets = static_cast<long>(count);
    m.pending_packets = static_cast<int>(packets);
    if (m.walked) {
      walked_.start(id, packets);
    }
    at(now() + net.startup, [this, id, packets] {
      ++events_;
      const Message& m = messages_[id];
      // The route's buffer stays put until the message is delivered (walked: its first port only).
      const int* route = m.walked ? nullptr : m.route.data();
      Packet packet{id, 0, packet_size(m.wire, 0), m.route.front(), -1, 0, static_cast<int>(m.route.size()), route};
      Port& port = ports_[packet.port];
      // The packets enter the port one after the other: the backlog grows by each in turn, and those
      // that wait are queued as one train, cut into packets as they leave.
      int first_queued = 0;
      if (!port.busy) {
        port.backlog += packet.bytes;
        transmit(port, packet);
        first_queued = 1;
      }
      if (first_queued == packets) return;
      for (long p = first_queued; p < packets; ++p) port.backlog += packet_size(m.wire, p);
      packet.bytes = m.wire;
      push_queue(port, Queued{packet, kNoPacket, first_queued, static_cast<int>(packets)});
    });
  }

  long events() const override { return events_; }
  TakenPath taken_path(int id) const override { return walked_.taken(id, messages_[id].src_node, messages_[id].dst_node); }
  const std::vector<PortLoad>* walked_channel_loads() const override { return walked_.loads(); }

 private:
  struct Packet {
    int message;
    int hop;  // index into the message's route (walked: hops taken)
    double bytes;
    int port;           // the port it waits for or crosses
    int sw = -1;        // walked: the switch the packet reaches over `port`
    int state = 0;      // walked: its route state there
    int route_size = 0;
    const int* route = nullptr;  // the message's route (null: walked), read here without touching the Message
  };
  // A port holds what its events read, compactly; its queue is a list through pool_ (no allocation
  // per packet, freed entries reused first).
  static constexpr uint32_t kNoPacket = ~uint32_t{0};
  struct Port {
    double bandwidth = 1, delay = 0;  // delay: propagation plus the next switch's router delay
    double backlog = 0;  // bytes queued or being sent
    uint32_t head = kNoPacket, tail = kNoPacket;  // its queue, in pool_
    bool busy = false;
  };
  // A queued packet, or a train: a message's packets `first` to `end` - 1 (end > 0; packet.bytes is
  // then the message's wire bytes).
  struct Queued {
    Packet packet;
    uint32_t next = kNoPacket;  // the next in its port's queue, or on the free list
    int first = 0, end = 0;
  };

  void set_port(int id, double bandwidth, double delay) {
    ports_[id].bandwidth = bandwidth;
    ports_[id].delay = delay;
  }

  void enqueue(const Packet& packet) {
    Port& port = ports_[packet.port];
    port.backlog += packet.bytes;
    if (port.busy) {
      push_queue(port, Queued{packet});
      return;
    }
    transmit(port, packet);
  }

  void push_queue(Port& port, const Queued& entry) {
    uint32_t q = free_;
    if (q != kNoPacket) {
      free_ = pool_[q].next;
      pool_[q] = entry;
    } else {
      if (pool_.size() >= kNoPacket) throw Error("more than 2^32 - 1 queued packets");
      q = static_cast<uint32_t>(pool_.size());
      pool_.push_back(entry);
    }
    (port.head == kNoPacket ? port.head : pool_[port.tail].next) = q;
    port.tail = q;
  }

  // Packet p of a message of `wire` bytes.
  double packet_size(double wire, long p) const { return std::isfinite(mtu_) ? std::min(mtu_, wire - p * mtu_) : wire; }

  // (packet.port is the port's id)
  void transmit(Port& port, const Packet& packet) {
    port.busy = true;
    at(now() + packet.bytes / port.bandwidth, [this, packet] {
      ++events_;
      Port& p = ports_[packet.port];
      p.backlog -= packet.bytes;
      release(p);
      arrive(packet, now() + p.delay);
    });
  }

  // The port is free: it serves the next queued packet, if any.
  void release(Port& port) {
    port.busy = false;
    const uint32_t q = port.head;
    if (q == kNoPacket) return;
    Queued& queued = pool_[q];
    Packet next = queued.packet;
    if (queued.end > 0) {  // a train: its next packet
      next.bytes = packet_size(queued.packet.bytes, queued.first);
      if (++queued.first < queued.end) return transmit(port, next);
    }
    port.head = queued.next;
    // The next entry, queued a while ago and read when this packet has left: its line loads meanwhile.
    if (port.head != kNoPacket) __builtin_prefetch(&pool_[port.head]);
    queued.next = free_;
    free_ = q;
    transmit(port, next);
  }

  // Walked packets: the next port at the switch the packet has reached, -1 at its destination node.
  int walk(Packet& packet) {
    const Message& m = messages_[packet.message];
    const Network& net = routed_.network();
    if (layout_.is_ejection(packet.port)) return -1;
    auto backlog = [this](int channel) { return ports_[layout_.channel(channel)].backlog; };
    int sw = packet.sw;
    if (packet.hop == 0) {  // left the source node: the routing may decide here (UGAL)
      sw = net.node(m.src_node).switch_id;
      packet.state = chooser_.start_state(sw, m.dst_node, packet.bytes, backlog);
    }
    if (sw == net.node(m.dst_node).switch_id) return layout_.ejection(m.dst_node);
    const Routing::Hop hop = chooser_.next_hop(sw, packet.state, m.dst_node, backlog);
    packet.sw = net.channel_target(hop.channel);
    packet.state = hop.state;
    walked_.hop(packet.message, hop.channel, packet.bytes, m.wire);
    return layout_.channel(hop.channel);
  }

  void arrive(Packet packet, double date) {
    auto next = [this, packet]() mutable {
      const int port = !packet.route                      ? walk(packet)
                       : packet.hop + 1 < packet.route_size ? packet.route[packet.hop + 1]
                                                            : -1;
      if (port >= 0) {
        packet.port = port;
        ++packet.hop;
        enqueue(packet);
        return;
      }
      if (--messages_[packet.message].pending_packets == 0) delivered_(packet.message);
    };
    if (date > now()) {
      at(date, [this, next]() mutable {
        ++events_;
        next();
      });
    } else {
      next();
    }
  }

  const RoutedNetwork& routed_;
  const PortLayout layout_{routed_.network()};
  const std::vector<Circuit>& circuits_;
  int circuit_base_ = 0;
  double circuit_bandwidth_ = 1, circuit_latency_ = 0;
  std::vector<Message>& messages_;
  Delivered delivered_;
  double mtu_;
  PathChooser chooser_;
  WalkedPathLog walked_{routed_};  // walked packets only
  std::vector<Port> ports_;
  std::vector<Queued> pool_;    // queued packets
  uint32_t free_ = kNoPacket;  // pool_'s free entries
  long events_ = 0;
};

// Both models' component: per-port FIFO queues of whole messages, or of packets of the given mtu.
ModelComponent port_model(bool packets) {
  ModelComponent model;
  model.carries_circuits = true;
  model.walks_packets = true;
  model.make = [packets](const RoutedNetwork& routed, const SimOptions& options, const std::vector<Circuit>& circuits,
                         std::vector<Message>& messages, Transport::Delivered delivered) -> std::unique_ptr<Transport> {
    return std::make_unique<PortTransport>(routed, options, packets ? options.mtu : INFINITY, circuits, messages,
                                           std::move(delivered));
  };
  return model;
}

}  // namespace

MAPSIM_REGISTER(model_registry(), {"store-and-forward", "whole messages, FIFO output ports, queueing under contention", {},
                                   port_model(false), "", "", {"saf"}});
MAPSIM_REGISTER(model_registry(), {"packet", "store-and-forward of MTU-sized packets, pipelined across hops",
                                   {builtin_model_option("mtu").param},  // packets: the mtu every model is given
                                   port_model(true)});

}  // namespace mapsim::sim
