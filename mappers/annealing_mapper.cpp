#include "mappers/annealing_mapper.h"

#include "support/spec.h"

#include <cmath>

#include "mappers/internal/hop_table.h"
#include "support/random.h"

namespace mapsim {

Placement AnnealingMapper::map(const MappingProblem& problem) const {
  const HopTable hops(*problem.network);
  const ProcessGraph& graph = *problem.graph;
  const int tasks = graph.num_tasks();
  Rng rng(problem.seed);
  std::vector<int> slot_node = slot_list(problem);
  const size_t slots = slot_node.size();
  std::vector<int> occupant(slots, -1), slot_of(tasks);
  std::vector<size_t> order(slots);
  for (size_t i = 0; i < slots; ++i) order[i] = i;
  rng.shuffle(order);
  for (int t = 0; t < tasks; ++t) occupant[order[t]] = t, slot_of[t] = static_cast<int>(order[t]);
  auto node_of = [&](int t) { return slot_node[slot_of[t]]; };

  // Cost change when the contents of slots i and j trade places.
  auto delta = [&](size_t i, size_t j) {
    const int u = occupant[i], x = occupant[j];
    const int ni = slot_node[i], nj = slot_node[j];
    double change = 0;
    if (u >= 0)
      for (const ProcessGraph::Neighbour& n : graph.neighbours(u))
        if (n.task != x) change += n.volume * (hops(nj, node_of(n.task)) - hops(ni, node_of(n.task)));
    if (x >= 0)
      for (const ProcessGraph::Neighbour& n : graph.neighbours(x))
        if (n.task != u) change += n.volume * (hops(ni, node_of(n.task)) - hops(nj, node_of(n.task)));
    return change;
  };
  auto swap = [&](size_t i, size_t j) {
    std::swap(occupant[i], occupant[j]);
    if (occupant[i] >= 0) slot_of[occupant[i]] = static_cast<int>(i);
    if (occupant[j] >= 0) slot_of[occupant[j]] = static_cast<int>(j);
  };
  auto random_pair = [&]() {
    const size_t i = slot_of[rng.below(tasks)];  // always move a task
    size_t j = rng.below(slots);
    return std::pair{i, j};
  };
  if (tasks < 2 || slots < 2) {
    Placement p(tasks);
    for (int t = 0; t < tasks; ++t) p[t] = node_of(t);
    return p;
  }
  // Initial temperature from the mean uphill change of random moves.
  double uphill = 0;
  int count = 0;
  for (int s = 0; s < 200; ++s) {
    auto [i, j] = random_pair();
    const double d = delta(i, j);
    if (d > 0) uphill += d, ++count;
  }
  double temperature = count ? -(uphill / count) / std::log(0.8) : 1;
  const long moves = static_cast<long>(moves_per_task_) * tasks;
  double cost = 0;
  for (const ProcessEdge& e : graph.edges()) cost += e.volume * hops(node_of(e.a), node_of(e.b));
  double best_cost = cost;
  std::vector<int> best_slot = slot_of;
  for (int level = 0; level < 1000; ++level) {
    long accepted = 0;
    for (long m = 0; m < moves; ++m) {
      auto [i, j] = random_pair();
      if (i == j) continue;
      const double d = delta(i, j);
      if (d <= 0 || rng.uniform() < std::exp(-d / temperature)) {
        swap(i, j);
        cost += d;
        ++accepted;
        if (cost < best_cost - 1e-9) best_cost = cost, best_slot = slot_of;
      }
    }
    if (accepted < moves / 1000) break;
    temperature *= 0.95;
  }
  Placement placement(tasks);
  for (int t = 0; t < tasks; ++t) placement[t] = slot_node[best_slot[t]];
  return placement;
}

MAPSIM_REGISTER(mapper_registry(), {"annealing", "simulated annealing on the weighted cardinality (antonio1994)",
                                    {integer_param("moves", 200, "moves per task at each temperature", 1, 1000000)},
                                    [](Spec& spec) { return std::make_unique<AnnealingMapper>(static_cast<int>(spec.get_int("moves"))); }});

}  // namespace mapsim
