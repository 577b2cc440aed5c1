#include "routing/routed_network.h"

namespace mapsim {

RoutedNetwork::RoutedNetwork(Network network, const std::string& routing)
    : network_(std::make_unique<Network>(std::move(network))), routing_(make_routing(*network_, routing)) {}

void RoutedNetwork::route(int src_node, int dst_node, std::vector<int>& channels) const {
  routing_->route(network_->node(src_node).switch_id, dst_node, channels);
}

int RoutedNetwork::hops(int src_node, int dst_node) const {
  if (src_node == dst_node) return 0;
  return routing_->hops(network_->node(src_node).switch_id, dst_node);
}

double RoutedNetwork::latency(int src_node, int dst_node) const {
  if (src_node == dst_node) return 0;
  std::vector<int> channels;
  route(src_node, dst_node, channels);
  return route_latency(src_node, dst_node, channels);
}

double RoutedNetwork::route_latency(int src_node, int dst_node, const std::vector<int>& channels) const {
  if (src_node == dst_node) return 0;
  const Network& net = *network_;
  // Sum in path order: injection link, first switch, then each link and the switch it enters.
  double total = net.startup + net.node(src_node).latency;
  total += net.switch_at(net.node(src_node).switch_id).router_delay;
  for (int c : channels) {
    total += net.link(c / 2).latency;
    total += net.switch_at(net.channel_target(c)).router_delay;
  }
  return total + net.node(dst_node).latency;
}

double RoutedNetwork::cost(int src_node, int dst_node) const {
  if (const std::optional<double> own = routing_->message_cost(src_node, dst_node)) return *own;
  return latency(src_node, dst_node);
}

}  // namespace mapsim
