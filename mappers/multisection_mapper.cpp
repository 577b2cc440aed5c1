#include "mappers/multisection_mapper.h"

#include <algorithm>
#include <functional>
#include <map>
#include <metis.h>
#include <numeric>

#include "mappers/core_placement.h"
#include "mappers/internal/cost_table.h"
#include "mappers/internal/local_search.h"
#include "mappers/internal/switch_slots.h"
#include "mappers/internal/task_partition.h"
#include "support/error.h"
#include "support/param.h"
#include "support/spec.h"

namespace mapsim {
namespace {

// A part of the machine: its slots (node ids, one per slot) and the parts it splits into.
struct MachinePart {
  std::vector<int> slots;
  std::vector<MachinePart> children;  // none: one node
};

// Parts of more switches than this are halved around a far pair found by a double sweep (O(n) costs)
// instead of looking at every pair (O(n^2)).
constexpr size_t kExactSplit = 256;

// The member farthest from member `from`.
size_t farthest(size_t from, size_t n, const std::function<double(size_t, size_t)>& distance) {
  size_t far = from;
  for (size_t i = 0; i < n; ++i)
    if (distance(from, i) > distance(from, far)) far = i;
  return far;
}

// Two halves of equal slots: the members ordered by how much closer they are to far_a than to far_b.
std::vector<std::vector<int>> halves(const std::vector<SwitchSlots>& groups, const std::vector<int>& members,
                                     const std::function<double(size_t, size_t)>& distance, size_t far_a, size_t far_b) {
  const size_t n = members.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> lean(n);
  for (size_t i = 0; i < n; ++i) lean[i] = distance(i, far_a) - distance(i, far_b);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lean[a] < lean[b]; });
  size_t total = 0, taken = 0;
  for (int g : members) total += groups[g].slots.size();
  std::vector<std::vector<int>> parts(2);
  for (size_t i : order) {
    const bool first = taken < total / 2 || parts[0].empty();
    parts[first ? 0 : 1].push_back(members[i]);
    if (first) taken += groups[members[i]].slots.size();
  }
  if (parts[1].empty()) parts[1].push_back(parts[0].back()), parts[0].pop_back();
  return parts;
}

// Splits the switch groups `members` of one machine part (see the header).
std::vector<std::vector<int>> split_groups(const std::vector<SwitchSlots>& groups, const std::vector<int>& members,
                                           const CostTable& cost) {
  const size_t n = members.size();
  const std::function<double(size_t, size_t)> distance = [&](size_t i, size_t j) {
    return cost(groups[members[i]].slots[0], groups[members[j]].slots[0]);
  };
  if (n > kExactSplit) {
    const size_t a = farthest(0, n, distance);
    return halves(groups, members, distance, a, farthest(a, n, distance));
  }
  double widest = 0;
  size_t far_a = 0, far_b = 1;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      if (const double d = distance(i, j); d > widest) widest = d, far_a = i, far_b = j;
  // Components of "closer than the widest distance" (union-find).
  std::vector<size_t> root(n);
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](size_t i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      if (distance(i, j) < widest) root[find(i)] = find(j);
  std::vector<std::vector<int>> parts;
  std::vector<int> part_of_root(n, -1);
  for (size_t i = 0; i < n; ++i) {
    int& p = part_of_root[find(i)];
    if (p < 0) p = static_cast<int>(parts.size()), parts.emplace_back();
    parts[p].push_back(members[i]);
  }
  if (parts.size() > 1) return parts;
  return halves(groups, members, distance, far_a, far_b);
}

// The machine's top level when the network declares one that routed costs do not show: a
// dragonfly's groups (a router's global links make some routers of other groups as close as its own
// group's). Empty otherwise.
std::vector<std::vector<int>> declared_groups(const Network& net, const std::vector<SwitchSlots>& groups) {
  if (net.shape.family != Family::Dragonfly || net.shape.dims.size() != 4) return {};
  const int routers_per_group = net.shape.dims[0];  // router G * a + j is router j of group G
  std::map<int, std::vector<int>> members;
  for (size_t g = 0; g < groups.size(); ++g) members[groups[g].switch_id / routers_per_group].push_back(static_cast<int>(g));
  std::vector<std::vector<int>> parts;
  for (auto& [group, list] : members) parts.push_back(std::move(list));
  return parts.size() > 1 ? parts : std::vector<std::vector<int>>{};
}

MachinePart build_part(const std::vector<SwitchSlots>& groups, const std::vector<int>& members, const CostTable& cost) {
  MachinePart part;
  for (int g : members) part.slots.insert(part.slots.end(), groups[g].slots.begin(), groups[g].slots.end());
  if (members.size() > 1) {
    for (const std::vector<int>& child : split_groups(groups, members, cost))
      part.children.push_back(build_part(groups, child, cost));
    return part;
  }
  std::vector<int> nodes;  // one switch: its nodes, in slot order
  for (int node : part.slots)
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
  if (nodes.size() > 1)
    for (int node : nodes) {
      MachinePart leaf;
      for (int s : part.slots)
        if (s == node) leaf.slots.push_back(s);
      part.children.push_back(std::move(leaf));
    }
  return part;
}

// `cuts` METIS partitions are tried at this split; `below` at every split under it.
void assign(const MachinePart& part, const std::vector<int>& tasks, int cuts, int below, TaskPartitioner& partitioner,
            Placement& placement) {
  if (part.children.empty()) {
    for (size_t i = 0; i < tasks.size(); ++i) placement[tasks[i]] = part.slots[i];
    return;
  }
  std::vector<int> sizes;
  for (const MachinePart& child : part.children) sizes.push_back(static_cast<int>(child.slots.size()));
  const std::vector<int> part_of = partitioner.split(tasks, sizes, cuts);
  std::vector<std::vector<int>> subsets(part.children.size());
  for (size_t i = 0; i < tasks.size(); ++i) subsets[part_of[i]].push_back(tasks[i]);
  for (size_t c = 0; c < part.children.size(); ++c) assign(part.children[c], subsets[c], below, below, partitioner, placement);
}

}  // namespace

Placement MultisectionMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const Network& net = problem.network->network();
  const int tasks = graph.num_tasks();
  const CostTable cost(*problem.network);
  const std::vector<SwitchSlots> groups = group_by_switch(net, compact_slots(problem, tasks));
  std::vector<int> members(groups.size());
  std::iota(members.begin(), members.end(), 0);
  MachinePart machine;
  if (const std::vector<std::vector<int>> top = declared_groups(net, groups); !top.empty()) {
    for (const std::vector<int>& part : top) machine.children.push_back(build_part(groups, part, cost));
    for (const MachinePart& child : machine.children) machine.slots.insert(machine.slots.end(), child.slots.begin(), child.slots.end());
  } else {
    machine = build_part(groups, members, cost);
  }
  std::vector<int> all(tasks);
  std::iota(all.begin(), all.end(), 0);
  Placement best;
  double best_cost = 0;
  for (int trial = 0; trial < trials_; ++trial) {  // METIS's result varies much with its seed at the top levels
    TaskPartitioner partitioner(graph, problem.seed + static_cast<uint64_t>(trial));
    Placement placement(tasks, -1);
    assign(machine, all, top_cuts_, cuts_, partitioner, placement);
    double c = depth_ > 0 ? swap_search(problem, cost, placement, depth_, pull_) : placement_cost(problem, cost, placement);
    if (!net.node_insides.empty()) c += node_cost(problem, placement, place_on_cores(problem, placement));
    if (trial == 0 || c < best_cost) best_cost = c, best = std::move(placement);
  }
  return best;
}

MAPSIM_REGISTER(mapper_registry(),
                {"multisection",
                 "hierarchical multisection: METIS along the machine's hierarchy (from routed costs), then QAP swaps",
                 {integer_param("depth", 2, "depth of the swap neighbourhood N_C^depth (0: no local search)", 0, 10),
                  integer_param("pull", 0, "1: also swap with every task of the node a task sends most to", 0, 1),
                  integer_param("cuts", 4, "METIS partitions tried per split, the smallest cut kept (METIS_OPTION_NCUTS)", 1, 100),
                  integer_param("top_cuts", 32, "the same at the machine's top split, whose cut costs the most", 1, 1000),
                  integer_param("trials", 1, "whole multisections with seeds seed, seed+1, ...; the cheapest kept", 1, 100)},
                 [](Spec& spec) {
                   return std::make_unique<MultisectionMapper>(
                       static_cast<int>(spec.get_int("depth")), spec.get_int("pull") == 1, static_cast<int>(spec.get_int("cuts")),
                       static_cast<int>(spec.get_int("top_cuts")), static_cast<int>(spec.get_int("trials")));
                 }});

}  // namespace mapsim
