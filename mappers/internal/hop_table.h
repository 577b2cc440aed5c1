// Routed hop counts between compute nodes for the inner loops of the search mappers: a dense
// node x node table on networks of up to 4096 nodes (32 MiB at most), the routing itself above.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/routed_network.h"

namespace mapsim {

class HopTable {
 public:
  explicit HopTable(const RoutedNetwork& network);
  int operator()(int a, int b) const {
    return table_.empty() ? network_.hops(a, b) : table_[static_cast<size_t>(a) * nodes_ + b];
  }

 private:
  const RoutedNetwork& network_;
  size_t nodes_;
  std::vector<uint16_t> table_;
};

}  // namespace mapsim
