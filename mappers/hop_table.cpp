#include "mappers/internal/hop_table.h"

#include <algorithm>

namespace mapsim {

HopTable::HopTable(const RoutedNetwork& network) : network_(network), nodes_(network.network().num_nodes()) {
  if (nodes_ > 4096) return;
  const Network& net = network.network();
  // Nodes of one switch have the same row (hops count switch-to-switch links): compute it once.
  std::vector<int> first_node(net.num_switches(), -1);
  table_.resize(nodes_ * nodes_);
  for (size_t a = 0; a < nodes_; ++a) {
    int& first = first_node[net.node(static_cast<int>(a)).switch_id];
    if (first >= 0) {
      std::copy_n(table_.begin() + static_cast<long>(first * nodes_), nodes_, table_.begin() + static_cast<long>(a * nodes_));
      continue;
    }
    first = static_cast<int>(a);
    for (size_t b = 0; b < nodes_; ++b) table_[a * nodes_ + b] = static_cast<uint16_t>(network.hops(static_cast<int>(a), static_cast<int>(b)));
  }
}

}  // namespace mapsim
