// RoutedNetwork: a network together with its routing -- the "routing topology" of the mapping
// papers. It answers, for any pair of compute nodes, the routed hop count, the zero-load latency
// t_s + d*t_p + (d+1)*t_r of a small message (from the route's own link latencies and router
// delays), and the mapping cost (that latency; on SUPRENUM, Kramer & Muhlenbein's eq. 3).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "topologies/network.h"
#include "routing/routing.h"

namespace mapsim {

class RoutedNetwork {
 public:
  explicit RoutedNetwork(Network network, const std::string& routing = "default");

  const Network& network() const { return *network_; }
  const Routing& routing() const { return *routing_; }

  void route(int src_node, int dst_node, std::vector<int>& channels) const;
  // Switch-to-switch links between two nodes (0 on the same switch).
  int hops(int src_node, int dst_node) const;
  // Zero-load latency in seconds; 0 from a node to itself.
  double latency(int src_node, int dst_node) const;
  // The same for a route already computed by route(src_node, dst_node, channels).
  double route_latency(int src_node, int dst_node, const std::vector<int>& channels) const;
  double cost(int src_node, int dst_node) const;

 private:
  std::unique_ptr<Network> network_;  // heap: the routing keeps a reference to it
  std::unique_ptr<Routing> routing_;
};

}  // namespace mapsim
