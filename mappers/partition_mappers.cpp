#include "mappers/partition_mappers.h"

#include "support/spec.h"

#include <numeric>

#include "mappers/internal/graph_partition.h"
#include "mappers/internal/switch_slots.h"
#include "support/random.h"

namespace mapsim {

std::vector<int> proportional_sizes(int total, const std::vector<int>& capacities) {
  const long room = std::accumulate(capacities.begin(), capacities.end(), 0L);
  std::vector<int> sizes(capacities.size());
  int left = total;
  for (size_t i = 0; i < sizes.size(); ++i) {
    sizes[i] = static_cast<int>(static_cast<long>(total) * capacities[i] / room);
    left -= sizes[i];
  }
  for (size_t i = 0; left > 0; i = (i + 1) % sizes.size())
    if (sizes[i] < capacities[i]) ++sizes[i], --left;
  return sizes;
}

Placement PartMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  Rng rng(problem.seed);
  std::vector<int> everyone(tasks);
  std::iota(everyone.begin(), everyone.end(), 0);
  GraphPartitioner partitioner(graph);
  Placement placement(tasks);
  // The random order of the targets is the random placement of the parts.
  std::vector<SwitchSlots> targets;
  if (per_switch_) targets = group_by_switch(problem.network->network(), slot_list(problem));
  else
    for (size_t i = 0; i < problem.nodes.size(); ++i)
      targets.push_back({-1, std::vector<int>(problem.slots[i], problem.nodes[i])});
  rng.shuffle(targets);
  std::vector<int> capacities;
  for (const SwitchSlots& t : targets) capacities.push_back(static_cast<int>(t.slots.size()));
  const std::vector<int> part = partitioner.partition(everyone, proportional_sizes(tasks, capacities));
  std::vector<std::vector<int>> members(targets.size());
  for (int t = 0; t < tasks; ++t) members[part[t]].push_back(t);
  for (size_t p = 0; p < targets.size(); ++p) {
    // Inside a target, split again over its distinct nodes (one node for `part`).
    std::vector<int> nodes, node_slots;
    for (int node : targets[p].slots) {
      if (nodes.empty() || nodes.back() != node) nodes.push_back(node), node_slots.push_back(0);
      ++node_slots.back();
    }
    const std::vector<int> sub =
        partitioner.partition(members[p], proportional_sizes(static_cast<int>(members[p].size()), node_slots));
    for (size_t i = 0; i < members[p].size(); ++i) placement[members[p][i]] = nodes[sub[i]];
  }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(), {"part", "Kramer & Muhlenbein: one graph part per allowed node, parts on random nodes", {},
                                    [](Spec&) { return std::make_unique<PartMapper>(false); }});
MAPSIM_REGISTER(mapper_registry(), {"parts", "Kramer & Muhlenbein: one graph part per switch, parts on random switches", {},
                                    [](Spec&) { return std::make_unique<PartMapper>(true); }});

}  // namespace mapsim
