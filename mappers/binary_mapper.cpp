#include "mappers/binary_mapper.h"

#include "support/spec.h"

#include <algorithm>
#include <numeric>

#include "mappers/internal/graph_partition.h"
#include "mappers/internal/slot_bisection.h"

namespace mapsim {

Placement BinaryMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  const std::vector<SwitchSlots> groups =
      group_by_switch(problem.network->network(), compact_slots(problem, tasks));
  std::vector<SlotShare> all;
  for (size_t g = 0; g < groups.size(); ++g) all.push_back({static_cast<int>(g), static_cast<int>(groups[g].slots.size())});
  std::vector<int> everyone(tasks);
  std::iota(everyone.begin(), everyone.end(), 0);

  GraphPartitioner partitioner(graph);
  SlotBisection bisection(*problem.network, groups);
  std::vector<size_t> next_slot(groups.size(), 0);
  Placement placement(tasks, -1);
  // Explicit stack instead of recursion: (tasks, their slots).
  std::vector<std::pair<std::vector<int>, std::vector<SlotShare>>> stack{{everyone, all}};
  while (!stack.empty()) {
    auto [set, shares] = std::move(stack.back());
    stack.pop_back();
    if (shares.size() == 1 || set.size() <= 1) {
      size_t i = 0;
      for (const SlotShare& share : shares)
        for (int c = 0; c < share.count; ++c) placement[set[i++]] = groups[share.group].slots[next_slot[share.group]++];
      continue;
    }
    const int first_size = static_cast<int>(set.size() + 1) / 2;
    std::vector<int> order = partitioner.bisect(set, first_size);
    auto [r0, r1] = bisection.split(shares, first_size);
    stack.push_back({{order.begin() + first_size, order.end()}, r1});
    stack.push_back({{order.begin(), order.begin() + first_size}, r0});
  }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(), {"binary", "BM (moh2001): recursive bisection of tasks (min cut) and slots (max routed distance); O(T S log T)", {},
                                    [](Spec&) { return std::make_unique<BinaryMapper>(); }});

}  // namespace mapsim
