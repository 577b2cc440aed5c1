// Internal to sim/: choosing paths over a multipath routing (SimOptions::path_selection and the
// routings that decide at injection). Whole paths are chosen when a message starts
// (deterministic, ECMP by a hash of source, destination and flow, Valiant's random group);
// spraying, adaptive routing and UGAL choose per packet, hop by hop, from the transport's queues.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/simulation.h"
#include "sim/transport.h"
#include "support/random.h"
#include "routing/routed_network.h"

namespace mapsim::sim {

// The paths a transport's walked packets really took (spray, adaptive, UGAL: chosen hop by hop, so
// the leg's channels are only the routing's representative). A transport that walks packets
// (ModelComponent::walks_packets) may also implement this; open-loop traffic reads it at delivery.
struct TakenPath {
  double hops = 0;     // switch-to-switch links crossed, mean over the message's packets
  double latency = 0;  // zero-load latency of those paths (RoutedNetwork::route_latency), mean over the packets
};
class TakenPaths {
 public:
  virtual ~TakenPaths() = default;
  // Message `id`, a walked one (Message::walked), from its start until its delivery callback returns.
  virtual TakenPath taken_path(int id) const = 0;
};

// What a transport's walked packets did, kept for TakenPaths and Transport::walked_channel_loads: per
// message the channels crossed and their zero-load delays, summed over its packets; per channel the
// bytes, messages and serialisation time of the walked packets that crossed it.
class WalkedPathLog {
 public:
  explicit WalkedPathLog(const RoutedNetwork& routed) : routed_(routed) {}
  void start(int message, long packets);
  // A packet of `bytes` of a message of `wire` bytes took switch channel `channel`.
  void hop(int message, int channel, double bytes, double wire);
  TakenPath taken(int message, int src_node, int dst_node) const;
  const std::vector<PortLoad>* loads() const { return loads_.empty() ? nullptr : &loads_; }

 private:
  struct Taken {
    double hops = 0, latency = 0;
    long packets = 0;
  };
  const RoutedNetwork& routed_;
  std::vector<PortLoad> loads_;  // per channel
  std::vector<Taken> taken_;     // per message id
};

class PathChooser {
 public:
  // Bytes waiting at or being sent by a switch channel's output port.
  using Backlog = std::function<double(int channel)>;

  PathChooser(const RoutedNetwork& routed, PathSelection selection, uint64_t seed);
  // Throws mapsim::Error naming the routing or the selection when per-packet choices meet a model
  // that cannot walk packets, or optical circuits.
  void check_model(const std::string& model, bool walks_packets, bool circuits) const;
  // An electrical leg from node `from` to node `to` for flow `flow` (the message tag): its whole
  // path, or, when the transport walks every packet itself (spray, adaptive, UGAL), the routing's
  // representative route (for the zero-load latency) and `walked` set.
  Leg leg(int from, int to, int flow);
  // Per packet: the start state at the source switch (UGAL weighs its candidates by `backlog`, UGAL-L
  // by Routing::queue_threshold when the routing has one).
  int start_state(int src_switch, int dst_node, double bytes, const Backlog& backlog);
  // Per packet: the next hop from `sw` (spray: at random; adaptive: the least backlog, ties at random).
  Routing::Hop next_hop(int sw, int state, int dst_node, const Backlog& backlog);

 private:
  void whole_path(int from, int to, int flow, std::vector<int>& channels);
  double path_cost(int src_switch, int state, int dst_node, double bytes, const Backlog& backlog);
  double first_backlog(int src_switch, int state, int dst_node, const Backlog& backlog);

  const RoutedNetwork& routed_;
  const Routing& routing_;
  PathSelection selection_;
  bool walks_;       // whole paths need a walk (several paths, or a decision at injection)
  bool per_packet_;
  Rng rng_;
  std::vector<Routing::Hop> hops_;
  std::vector<int> states_, ties_, scratch_;
};

}  // namespace mapsim::sim
