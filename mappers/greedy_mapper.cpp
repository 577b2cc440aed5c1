#include "mappers/greedy_mapper.h"

#include "support/spec.h"

#include <deque>
#include <queue>

namespace mapsim {

std::vector<int> locality_slot_order(const MappingProblem& problem) {
  const Network& net = problem.network->network();
  std::vector<int> slots_of_node(net.num_nodes(), 0);
  for (size_t i = 0; i < problem.nodes.size(); ++i) slots_of_node[problem.nodes[i]] = problem.slots[i];
  std::vector<int> order;
  auto take = [&](int node) { order.insert(order.end(), slots_of_node[node], node); };
  if (net.shape.family == Family::Hypercube && net.num_nodes() == net.num_switches()) {
    for (int i = 0; i < net.num_nodes(); ++i) take(i ^ (i >> 1));  // binary reflected Gray code
    return order;
  }
  std::vector<bool> seen(net.num_switches(), false);
  const int start = net.node(problem.nodes.front()).switch_id;
  std::deque<int> queue{start};
  seen[start] = true;
  while (!queue.empty()) {
    const int s = queue.front();
    queue.pop_front();
    for (int node : net.nodes_of(s)) take(node);
    for (const Network::Port& port : net.ports_of(s))
      if (!seen[port.neighbor]) {
        seen[port.neighbor] = true;
        queue.push_back(port.neighbor);
      }
  }
  return order;
}

Placement GreedyMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  const std::vector<int> slots = locality_slot_order(problem);
  std::vector<int> mapped_neighbours(tasks, 0);
  Placement placement(tasks, -1);
  // Max-heap of (mapped neighbours, -task); stale entries are skipped when popped.
  std::priority_queue<std::pair<int, int>> heap;
  for (int t = 0; t < tasks; ++t) heap.push({0, -t});
  for (int next_slot = 0; next_slot < tasks;) {
    auto [count, negative] = heap.top();
    heap.pop();
    const int task = -negative;
    if (placement[task] >= 0 || count != mapped_neighbours[task]) continue;
    placement[task] = slots[next_slot++];
    for (const ProcessGraph::Neighbour& n : graph.neighbours(task))
      if (placement[n.task] < 0) heap.push({++mapped_neighbours[n.task], -n.task});
  }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(), {"greedy", "OMARS greedy: most mapped neighbours next, Gray-code or BFS slot order; O(E log E)", {},
                                    [](Spec&) { return std::make_unique<GreedyMapper>(); }});

}  // namespace mapsim
