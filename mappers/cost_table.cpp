#include "mappers/internal/cost_table.h"

namespace mapsim {

CostTable::CostTable(const RoutedNetwork& network) : network_(network), switches_(network.network().num_switches()) {
  const Network& net = network.network();
  std::vector<int> first(switches_, -1);
  for (int n = 0; n < net.num_nodes(); ++n) {
    int& on_switch = first[net.node(n).switch_id];
    if (on_switch >= 0 && net.node(n).latency != net.node(on_switch).latency) {
      per_switch_ = false;
      return;
    }
    if (on_switch < 0) on_switch = n;
  }
  if (switches_ <= 4096) table_.assign(switches_ * switches_, -1);
}

}  // namespace mapsim
