// The directed links ("ports") of a network, one numbering for the mapping metrics, the static link
// loads and every transport: node n's injection port n, its ejection port N + n, and switch channel
// c (Network::channel) at 2N + c.
#pragma once
#include <vector>

#include "topologies/network.h"

namespace mapsim {

struct PortLayout {
  explicit PortLayout(const Network& net) : nodes(net.num_nodes()), channels(net.num_channels()) {}
  int injection(int node) const { return node; }
  int ejection(int node) const { return nodes + node; }
  int channel(int c) const { return 2 * nodes + c; }
  int size() const { return 2 * nodes + channels; }
  bool is_channel(int port) const { return port >= 2 * nodes; }
  bool is_ejection(int port) const { return port >= nodes && port < 2 * nodes; }
  int channel_of(int port) const { return port - 2 * nodes; }  // (is_channel(port))
  // The ports a route from node `from` over switch channels `route` to node `to` crosses, in order.
  void append(int from, const std::vector<int>& route, int to, std::vector<int>& ports) const {
    ports.push_back(injection(from));
    for (int c : route) ports.push_back(channel(c));
    ports.push_back(ejection(to));
  }
  int nodes, channels;
};

}  // namespace mapsim
