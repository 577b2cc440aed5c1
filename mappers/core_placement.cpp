#include "mappers/core_placement.h"

#include <map>

#include "mappers/internal/task_partition.h"
#include "support/error.h"

namespace mapsim {
namespace {

constexpr size_t kMaxSwapRanks = 1024;  // beyond, the O(n^2) swap passes take longer than the partition
constexpr int kCuts = 4;                // METIS partitions tried per level, as multisection's default

// The ranks `tasks` (on one node) onto the slots `slots`, one each: split by the objects of level `level`.
void descend(const NodeHierarchy& h, size_t level, const std::vector<int>& tasks, const std::vector<int>& slots,
             TaskPartitioner& partitioner, std::vector<int>& cores) {
  if (tasks.size() == 1 || level + 1 >= h.levels.size()) {
    for (size_t i = 0; i < tasks.size(); ++i) cores[tasks[i]] = slots[i];
    return;
  }
  std::map<int, std::vector<int>> children;  // object on the next level -> its slots
  for (int s : slots) children[h.object[level + 1][s]].push_back(s);
  if (children.size() == 1) return descend(h, level + 1, tasks, slots, partitioner, cores);
  std::vector<int> sizes;
  for (const auto& [object, list] : children) sizes.push_back(static_cast<int>(list.size()));
  const std::vector<int> part = partitioner.split(tasks, sizes, kCuts);
  std::vector<std::vector<int>> subsets(children.size());
  for (size_t i = 0; i < tasks.size(); ++i) subsets[part[i]].push_back(tasks[i]);
  size_t c = 0;
  for (const auto& [object, list] : children) descend(h, level + 1, subsets[c++], list, partitioner, cores);
}

// Swaps of two ranks' slots on one node while one lowers the sum of volume x level latency.
void swap_slots(const MappingProblem& problem, const Placement& placement, const std::vector<int>& tasks,
                std::vector<int>& cores) {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  auto cost_at = [&](int t, int slot, int skip) {  // t's edges inside the node with t on `slot`
    double sum = 0;
    for (const ProcessGraph::Neighbour& nb : graph.neighbours(t))
      if (nb.task != skip && placement[nb.task] == placement[t])
        sum += nb.volume * core_pair_latency(net, slot, cores[nb.task]);
    return sum;
  };
  for (bool improved = true; improved;) {
    improved = false;
    for (size_t i = 0; i < tasks.size(); ++i)
      for (size_t j = i + 1; j < tasks.size(); ++j) {
        const int t = tasks[i], u = tasks[j];
        const double before = cost_at(t, cores[t], u) + cost_at(u, cores[u], t);
        const double after = cost_at(t, cores[u], u) + cost_at(u, cores[t], t);
        if (after < before * (1 - 1e-12)) std::swap(cores[t], cores[u]), improved = true;
      }
  }
}

// The edges of one node's ranks (each counted once) x the latency of their cores' shared level.
double node_share(const MappingProblem& problem, const Placement& placement, const std::vector<int>& tasks,
                  const std::vector<int>& cores) {
  const Network& net = problem.network->network();
  double sum = 0;
  for (int t : tasks)
    for (const ProcessGraph::Neighbour& nb : problem.graph->neighbours(t))
      if (nb.task > t && placement[nb.task] == placement[t])
        sum += nb.volume * core_pair_latency(net, cores[t], cores[nb.task]);
  return sum;
}

}  // namespace

std::vector<int> cores_in_rank_order(const Placement& placement) {
  std::map<int, int> next;
  std::vector<int> cores(placement.size());
  for (size_t t = 0; t < placement.size(); ++t) cores[t] = next[placement[t]]++;
  return cores;
}

std::vector<int> place_on_cores(const MappingProblem& problem, const Placement& placement) {
  const NodeHierarchy& h = problem.network->network().node_insides;
  if (h.empty()) return cores_in_rank_order(placement);
  std::map<int, std::vector<int>> on_node;
  for (size_t t = 0; t < placement.size(); ++t) on_node[placement[t]].push_back(static_cast<int>(t));
  std::vector<int> cores(placement.size(), -1);
  TaskPartitioner partitioner(*problem.graph, problem.seed);
  for (const auto& [node, tasks] : on_node) {
    if (static_cast<int>(tasks.size()) > h.slots())
      throw Error("node " + problem.network->network().node(node).name + " holds " + std::to_string(tasks.size()) +
                  " ranks, more than its " + std::to_string(h.slots()) + " slots (" + h.describe() + ")");
    std::vector<int> slots(tasks.size());
    for (size_t i = 0; i < slots.size(); ++i) slots[i] = static_cast<int>(i);  // make_problem allows at most h.slots()
    for (size_t i = 0; i < tasks.size(); ++i) cores[tasks[i]] = slots[i];      // rank order, kept unless beaten
    const double in_order = node_share(problem, placement, tasks, cores);
    const std::vector<int> kept = cores;
    descend(h, 0, tasks, slots, partitioner, cores);
    if (tasks.size() <= kMaxSwapRanks) swap_slots(problem, placement, tasks, cores);
    if (!(node_share(problem, placement, tasks, cores) < in_order * (1 - 1e-12))) cores = kept;
  }
  return cores;
}

double core_pair_latency(const Network& network, int slot_a, int slot_b) {
  return network.startup + network.node_insides.between(slot_a, slot_b).latency;
}

double node_cost(const MappingProblem& problem, const Placement& placement, const std::vector<int>& cores) {
  const Network& net = problem.network->network();
  double sum = 0;
  for (const ProcessEdge& e : problem.graph->edges())
    if (placement[e.a] == placement[e.b]) sum += e.volume * core_pair_latency(net, cores[e.a], cores[e.b]);
  return sum;
}

}  // namespace mapsim
