#include "mappers/internal/objective_search.h"

#include <algorithm>
#include <chrono>

#include <spdlog/spdlog.h>

#include "mappers/internal/load_objective.h"
#include "mappers/mapper.h"
#include "support/random.h"

namespace mapsim {

SlotOccupancy::SlotOccupancy(const MappingProblem& problem, const Placement& placement)
    : slot_node_(slot_list(problem)), node_of_(placement) {
  const int nodes = problem.network->network().num_nodes();
  first_slot_.assign(nodes, -1);
  occupants_.resize(nodes);
  for (int s = slots() - 1; s >= 0; --s) first_slot_[slot_node_[s]] = s;
  for (size_t t = 0; t < placement.size(); ++t) occupants_[placement[t]].push_back(static_cast<int>(t));
}

int SlotOccupancy::occupant(int slot) const {
  const std::vector<int>& here = occupants_[slot_node_[slot]];
  const size_t k = static_cast<size_t>(slot - first_slot_[slot_node_[slot]]);
  return k < here.size() ? here[k] : -1;
}

void SlotOccupancy::move(int u, int to, int x) {
  const int from = node_of_[u];
  if (from == to) return;
  auto replace = [&](int node, int out, int in) {
    std::vector<int>& here = occupants_[node];
    auto it = std::find(here.begin(), here.end(), out);
    if (in >= 0) *it = in;
    else here.erase(it);
  };
  replace(from, u, x);
  if (x >= 0) {
    replace(to, x, u);
    node_of_[x] = from;
  } else {
    occupants_[to].push_back(u);
  }
  node_of_[u] = to;
}

double search_objective(const MappingProblem& problem, Objective objective, Placement& placement, const SearchLimits& limits,
                        uint64_t seed) {
  const int tasks = static_cast<int>(placement.size());
  LoadObjective load(problem, objective, placement);
  SlotOccupancy slots(problem, placement);
  Rng rng(seed);
  std::vector<int> order(tasks);
  for (int t = 0; t < tasks; ++t) order[t] = t;
  const auto start = std::chrono::steady_clock::now();
  long budget = static_cast<long>(limits.moves_per_task) * tasks;
  if (limits.max_work > 0 && load.move_work() > 0)
    budget = std::min(budget, std::max(1L, static_cast<long>(limits.max_work / load.move_work())));
  bool out_of_time = false;
  while (budget > 0 && !out_of_time && slots.slots() > 1) {
    const double before = load.value();
    rng.shuffle(order);
    for (int u : order) {
      if (budget <= 0) break;
      if (limits.time_limit > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limits.time_limit) {
        spdlog::warn("objective search stopped at its time limit of {} s: the placement depends on this machine's speed",
                     limits.time_limit);
        out_of_time = true;
        break;
      }
      double best = -1e-9 * load.value();  // a real gain, not rounding
      int best_to = -1, best_x = -1;
      for (int k = 0; k < limits.tries; ++k, --budget) {
        const int s = static_cast<int>(rng.below(static_cast<uint64_t>(slots.slots())));
        const int to = slots.node(s), x = slots.occupant(s);
        const double d = load.delta(u, to, x);
        if (d < best) best = d, best_to = to, best_x = x;
      }
      if (best_to < 0) continue;
      load.apply(u, best_to, best_x);
      slots.move(u, best_to, best_x);
    }
    if (before - load.value() < 1e-4 * before) break;
  }
  placement = load.placement();
  return load.value();
}

}  // namespace mapsim
