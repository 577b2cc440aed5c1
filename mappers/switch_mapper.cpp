#include "mappers/switch_mapper.h"

#include "support/spec.h"

#include <algorithm>
#include <numeric>

namespace mapsim {
namespace {

void halve(std::vector<int> lo, std::vector<int> hi, const std::vector<int>& stride, std::vector<int>& out) {
  size_t widest = 0;
  for (size_t d = 1; d < lo.size(); ++d)
    if (hi[d] - lo[d] > hi[widest] - lo[widest]) widest = d;
  if (hi[widest] - lo[widest] <= 1) {  // a single task
    int task = 0;
    for (size_t d = 0; d < lo.size(); ++d) task += lo[d] * stride[d];
    out.push_back(task);
    return;
  }
  const int mid = lo[widest] + (hi[widest] - lo[widest] + 1) / 2;
  std::vector<int> left_hi = hi, right_lo = lo;
  left_hi[widest] = mid;
  right_lo[widest] = mid;
  halve(lo, left_hi, stride, out);
  halve(right_lo, hi, stride, out);
}

}  // namespace

std::vector<int> buddy_order(const std::vector<int>& dims) {
  std::vector<int> stride(dims.size(), 1), lo(dims.size(), 0);
  for (size_t d = 1; d < dims.size(); ++d) stride[d] = stride[d - 1] * dims[d - 1];
  std::vector<int> out;
  halve(lo, dims, stride, out);
  return out;
}

Placement SwitchMapper::map(const MappingProblem& problem) const {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  // Slots grouped by switch.
  std::vector<std::vector<int>> by_switch(net.num_switches());
  for (size_t i = 0; i < problem.nodes.size(); ++i)
    by_switch[net.node(problem.nodes[i]).switch_id].insert(by_switch[net.node(problem.nodes[i]).switch_id].end(),
                                                           problem.slots[i], problem.nodes[i]);
  std::vector<int> switches(net.num_switches());
  std::iota(switches.begin(), switches.end(), 0);
  std::stable_sort(switches.begin(), switches.end(),
                   [&](int a, int b) { return by_switch[a].size() > by_switch[b].size(); });
  std::vector<int> order;
  if (!graph.dims.empty()) order = buddy_order(graph.dims);
  else {
    order.resize(graph.num_tasks());
    std::iota(order.begin(), order.end(), 0);
  }
  Placement placement(graph.num_tasks());
  size_t next = 0;
  for (int s : switches)
    for (int node : by_switch[s]) {
      if (next == order.size()) return placement;
      placement[order[next++]] = node;
    }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(), {"switch", "SM (moh2001): largest switch first takes the next block of tasks in buddy order; O(T log T)", {},
                                    [](Spec&) { return std::make_unique<SwitchMapper>(); }});

}  // namespace mapsim
