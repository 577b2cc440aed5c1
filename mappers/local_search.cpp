#include "mappers/internal/local_search.h"

#include <algorithm>

#include "mappers/internal/cost_table.h"

namespace mapsim {

double placement_cost(const MappingProblem& problem, const CostTable& cost, const Placement& placement) {
  double total = 0;
  for (const ProcessEdge& e : problem.graph->edges()) total += e.volume * cost(placement[e.a], placement[e.b]);
  return total;
}

double refine_placement(const MappingProblem& problem, const CostTable& cost, Placement& placement, int max_passes) {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  std::vector<int> room(net.num_nodes(), 0);  // free slots
  std::vector<std::vector<int>> occupants(net.num_nodes());
  for (size_t i = 0; i < problem.nodes.size(); ++i) room[problem.nodes[i]] = problem.slots[i];
  for (int t = 0; t < tasks; ++t) {
    occupants[placement[t]].push_back(t);
    --room[placement[t]];
  }
  // Change of the objective when task u goes to node `to` and, if x >= 0, x goes to u's node.
  auto delta = [&](int u, int to, int x) {
    const int from = placement[u];
    double change = 0;
    for (const ProcessGraph::Neighbour& n : graph.neighbours(u)) {
      if (n.task == x) continue;  // the u-x edge keeps its length
      change += n.volume * (cost(to, placement[n.task]) - cost(from, placement[n.task]));
    }
    if (x >= 0)
      for (const ProcessGraph::Neighbour& n : graph.neighbours(x)) {
        if (n.task == u) continue;
        change += n.volume * (cost(from, placement[n.task]) - cost(to, placement[n.task]));
      }
    return change;
  };
  auto relocate = [&](int t, int to) {
    auto& list = occupants[placement[t]];
    list.erase(std::find(list.begin(), list.end(), t));
    ++room[placement[t]];
    placement[t] = to;
    occupants[to].push_back(t);
    --room[to];
  };
  double objective = placement_cost(problem, cost, placement);
  std::vector<int> tried(net.num_switches(), -1);
  for (int pass = 0; pass < max_passes; ++pass) {
    const double before = objective;
    for (int u = 0; u < tasks; ++u) {
      double best = -1e-9;
      int best_node = -1, best_partner = -1;
      const int own_switch = net.node(placement[u]).switch_id;
      for (int k = -1; k < static_cast<int>(graph.neighbours(u).size()); ++k) {
        const int s = k < 0 ? own_switch : net.node(placement[graph.neighbours(u)[k].task]).switch_id;
        if (tried[s] == u) continue;
        tried[s] = u;
        for (int node : net.nodes_of(s)) {
          if (node == placement[u]) continue;
          if (room[node] > 0) {
            const double d = delta(u, node, -1);
            if (d < best) best = d, best_node = node, best_partner = -1;
          }
          for (int x : occupants[node]) {
            const double d = delta(u, node, x);
            if (d < best) best = d, best_node = node, best_partner = x;
          }
        }
      }
      if (best_node < 0) continue;
      const int from = placement[u];
      relocate(u, best_node);
      if (best_partner >= 0) relocate(best_partner, from);
      objective += best;
    }
    std::fill(tried.begin(), tried.end(), -1);
    if (before - objective <= 1e-4 * before) break;
  }
  return placement_cost(problem, cost, placement);
}

double refine_scan(const MappingProblem& problem, const Placement& placement) {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  std::vector<double> slots(net.num_switches(), 0);
  for (size_t i = 0; i < problem.nodes.size(); ++i) slots[net.node(problem.nodes[i]).switch_id] += problem.slots[i];
  std::vector<int> seen(net.num_switches(), -1);
  double scan = 0;
  for (int u = 0; u < graph.num_tasks(); ++u) {
    auto visit = [&](int task) {
      const int s = net.node(placement[task]).switch_id;
      if (seen[s] != u) seen[s] = u, scan += slots[s];
    };
    visit(u);
    for (const ProcessGraph::Neighbour& n : graph.neighbours(u)) visit(n.task);
  }
  return scan;
}

double swap_search(const MappingProblem& problem, const CostTable& cost, Placement& placement, int depth, int max_passes) {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  // Change of the cost when u and x trade nodes (their own edge keeps its length).
  auto delta = [&](int u, int x) {
    const int a = placement[u], b = placement[x];
    double change = 0;
    for (const ProcessGraph::Neighbour& n : graph.neighbours(u))
      if (n.task != x) change += n.volume * (cost(b, placement[n.task]) - cost(a, placement[n.task]));
    for (const ProcessGraph::Neighbour& n : graph.neighbours(x))
      if (n.task != u) change += n.volume * (cost(a, placement[n.task]) - cost(b, placement[n.task]));
    return change;
  };
  double objective = placement_cost(problem, cost, placement);
  std::vector<long> mark(tasks, -1);  // stamp: reached from the current task
  std::vector<int> frontier, next;
  long stamp = 0;
  for (int pass = 0; pass < max_passes; ++pass) {
    const double before = objective;
    for (int u = 0; u < tasks; ++u) {
      double best = -1e-12 * std::max(1.0, objective);
      int partner = -1;
      mark[u] = ++stamp;
      frontier.assign(1, u);
      for (int level = 0; level < depth && !frontier.empty(); ++level) {  // breadth-first to `depth` edges
        next.clear();
        for (int v : frontier)
          for (const ProcessGraph::Neighbour& n : graph.neighbours(v)) {
            if (mark[n.task] == stamp) continue;
            mark[n.task] = stamp;
            next.push_back(n.task);
            if (placement[n.task] == placement[u]) continue;
            const double d = delta(u, n.task);
            if (d < best) best = d, partner = n.task;
          }
        frontier.swap(next);
      }
      if (partner < 0) continue;
      std::swap(placement[u], placement[partner]);
      objective += best;
    }
    if (before - objective <= 1e-4 * before) break;
  }
  return placement_cost(problem, cost, placement);
}

}  // namespace mapsim
