#include "mappers/internal/local_search.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

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

double swap_search(const MappingProblem& problem, const CostTable& cost, Placement& placement, int depth, bool pull) {
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  // Occupants of each node, and each task's index there, so that a swap is O(1).
  std::vector<std::vector<int>> occupants(problem.network->network().num_nodes());
  std::vector<int> index(tasks);
  for (int t = 0; t < tasks; ++t) index[t] = static_cast<int>(occupants[placement[t]].size()), occupants[placement[t]].push_back(t);
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
  auto share = [&](int u) {  // u's part of the cost
    double c = 0;
    for (const ProcessGraph::Neighbour& n : graph.neighbours(u)) c += n.volume * cost(placement[u], placement[n.task]);
    return c;
  };
  // Tasks wait in a queue by their share of the cost, the costliest first; a task whose neighbourhood
  // held no gain leaves it until a swap next to it changes its edges.
  std::priority_queue<std::pair<double, int>> queue;
  std::vector<char> queued(tasks, 0);
  auto enqueue = [&](int t) {
    if (queued[t]) return;
    const double c = share(t);
    if (c > 0) queue.push({c, t}), queued[t] = 1;
  };
  std::vector<long> mark(tasks, -1);  // stamp: reached from the current task
  std::vector<int> frontier, next;
  std::unordered_map<int, double> toward;  // u's volume per other node
  long stamp = 0;
  // u's best improving partner (-1: none) and the change of the cost.
  auto best_swap = [&](int u, double threshold) {
    std::pair<int, double> best{-1, threshold};
    auto consider = [&](int x) {
      if (placement[x] == placement[u]) return;
      const double d = delta(u, x);
      if (d < best.second) best = {x, d};
    };
    mark[u] = ++stamp;
    frontier.assign(1, u);
    for (int level = 0; level < depth && !frontier.empty(); ++level) {  // breadth-first to `depth` edges
      next.clear();
      for (int v : frontier)
        for (const ProcessGraph::Neighbour& n : graph.neighbours(v)) {
          if (mark[n.task] == stamp) continue;
          mark[n.task] = stamp;
          next.push_back(n.task);
          consider(n.task);
        }
      frontier.swap(next);
    }
    if (pull) {  // every task of the node u sends most to (ties: the lower node)
      toward.clear();
      for (const ProcessGraph::Neighbour& n : graph.neighbours(u))
        if (placement[n.task] != placement[u]) toward[placement[n.task]] += n.volume;
      int heaviest = -1;
      for (auto [node, volume] : toward)
        if (heaviest < 0 || volume > toward[heaviest] || (volume == toward[heaviest] && node < heaviest)) heaviest = node;
      if (heaviest >= 0)
        for (int x : occupants[heaviest])
          if (mark[x] != stamp) consider(x);
    }
    return best;
  };
  double objective = placement_cost(problem, cost, placement);
  // A round queues every task; a swap queues only the pair and their neighbours, so the search ends
  // with a round that swaps nothing: no task has an improving swap left.
  for (int round = 0, swaps = 1; round < 30 && swaps > 0; ++round) {
    swaps = 0;
    for (int t = 0; t < tasks; ++t) enqueue(t);
    while (!queue.empty()) {
      const int u = queue.top().second;
      queue.pop();
      queued[u] = 0;
      const auto [x, gain] = best_swap(u, -1e-12 * std::max(1.0, objective));
      if (x < 0) continue;
      std::swap(occupants[placement[u]][index[u]], occupants[placement[x]][index[x]]);
      std::swap(index[u], index[x]);
      std::swap(placement[u], placement[x]);
      objective += gain;
      ++swaps;
      for (int t : {u, x}) {
        enqueue(t);
        for (const ProcessGraph::Neighbour& n : graph.neighbours(t)) enqueue(n.task);
      }
    }
  }
  return placement_cost(problem, cost, placement);
}

}  // namespace mapsim
