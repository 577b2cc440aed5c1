// The network's cost between compute nodes (RoutedNetwork::cost: the zero-load latency, or Kramer &
// Muhlenbein's eq. 3 on SUPRENUM; 0 on one node) for the inner loops of the search mappers. Between
// two different nodes it depends only on their switches when every node of a switch has the same
// link latency (all generated networks), so it is kept per switch pair, computed on first use
// (local search touches few pairs): a dense table up to 4096 switches, a hash map above. Otherwise
// the routing is asked each time.
#pragma once
#include <unordered_map>
#include <vector>

#include "routing/routed_network.h"

namespace mapsim {

class CostTable {
 public:
  explicit CostTable(const RoutedNetwork& network);
  double operator()(int a, int b) const {
    if (a == b) return 0;
    if (!per_switch_) return network_.cost(a, b);
    const Network& net = network_.network();
    const size_t pair = static_cast<size_t>(net.node(a).switch_id) * switches_ + net.node(b).switch_id;
    float& entry = table_.empty() ? sparse_.try_emplace(pair, -1.0f).first->second : table_[pair];
    if (entry < 0) entry = static_cast<float>(network_.cost(a, b));
    return entry;
  }

 private:
  const RoutedNetwork& network_;
  size_t switches_;
  bool per_switch_ = true;
  mutable std::vector<float> table_;  // -1: not computed yet
  mutable std::unordered_map<size_t, float> sparse_;
};

}  // namespace mapsim
