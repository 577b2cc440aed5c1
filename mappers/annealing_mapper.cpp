#include "mappers/annealing_mapper.h"

#include <chrono>
#include <cmath>
#include <optional>

#include <spdlog/spdlog.h>

#include "mappers/internal/hop_table.h"
#include "mappers/internal/load_objective.h"
#include "support/error.h"
#include "support/random.h"
#include "support/spec.h"

namespace mapsim {

void AnnealingMapper::check(const MappingProblem& problem) const {
  if (objective_ == Objective::Makespan && !problem.simulate)
    throw NotApplicable("annealing: objective makespan needs a workload to simulate");
}

Placement AnnealingMapper::map(const MappingProblem& problem) const {
  check(problem);
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
  auto current = [&] {
    Placement p(tasks);
    for (int t = 0; t < tasks; ++t) p[t] = node_of(t);
    return p;
  };
  if (tasks < 2 || slots < 2) return current();
  std::optional<LoadObjective> load;
  if (objective_ != Objective::HopBytes) load.emplace(problem, objective_, current());

  // Cost change when the contents of slots i and j trade places (slot i holds a task).
  auto delta = [&](size_t i, size_t j) {
    const int u = occupant[i], x = occupant[j];
    const int ni = slot_node[i], nj = slot_node[j];
    if (load) return load->delta(u, nj, x);
    double change = 0;
    for (const ProcessGraph::Neighbour& n : graph.neighbours(u))
      if (n.task != x) change += n.volume * (hops(nj, node_of(n.task)) - hops(ni, node_of(n.task)));
    if (x >= 0)
      for (const ProcessGraph::Neighbour& n : graph.neighbours(x))
        if (n.task != u) change += n.volume * (hops(ni, node_of(n.task)) - hops(nj, node_of(n.task)));
    return change;
  };
  auto swap = [&](size_t i, size_t j) {
    if (load) load->apply(occupant[i], slot_node[j], occupant[j]);
    std::swap(occupant[i], occupant[j]);
    if (occupant[i] >= 0) slot_of[occupant[i]] = static_cast<int>(i);
    if (occupant[j] >= 0) slot_of[occupant[j]] = static_cast<int>(j);
  };
  auto random_pair = [&]() {
    const size_t i = slot_of[rng.below(tasks)];  // always move a task
    size_t j = rng.below(slots);
    return std::pair{i, j};
  };
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
  if (load) cost = load->value();
  else
    for (const ProcessEdge& e : graph.edges()) cost += e.volume * hops(node_of(e.a), node_of(e.b));
  double best_cost = cost;
  std::vector<int> best_slot = slot_of;
  std::vector<std::vector<int>> snapshots;  // best_slot at the end of each temperature that improved it
  const auto start = std::chrono::steady_clock::now();
  for (int level = 0; level < 1000; ++level) {
    long accepted = 0;
    bool improved = false;
    for (long m = 0; m < moves; ++m) {
      auto [i, j] = random_pair();
      if (i == j) continue;
      const double d = delta(i, j);
      if (d <= 0 || rng.uniform() < std::exp(-d / temperature)) {
        swap(i, j);
        cost += d;
        ++accepted;
        if (cost < best_cost - 1e-9 * (load ? best_cost : 1)) best_cost = cost, best_slot = slot_of, improved = true;
      }
    }
    if (improved && objective_ == Objective::Makespan) snapshots.push_back(best_slot);
    if (accepted < moves / 1000) break;
    if (time_limit_ > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > time_limit_) {
      spdlog::warn("annealing stopped at its time limit of {} s after {} temperatures: the placement depends on this "
                   "machine's speed", time_limit_, level + 1);
      break;
    }
    temperature *= 0.95;
  }
  auto placement_of = [&](const std::vector<int>& slot_of_task) {
    Placement p(tasks);
    for (int t = 0; t < tasks; ++t) p[t] = slot_node[slot_of_task[t]];
    return p;
  };
  if (snapshots.empty()) return placement_of(best_slot);
  // Makespan: the last improving snapshots are simulated; the fastest is kept.
  Placement fastest;
  double fastest_time = 0;
  for (size_t k = snapshots.size() > 4 ? snapshots.size() - 4 : 0; k < snapshots.size(); ++k) {
    Placement p = placement_of(snapshots[k]);
    const double time = problem.simulate(p, "");
    if (fastest.empty() || time < fastest_time) fastest = std::move(p), fastest_time = time;
  }
  return fastest;
}

MAPSIM_REGISTER(mapper_registry(),
                {"annealing", "simulated annealing on a declared objective, by default the weighted cardinality (antonio1994)",
                 {integer_param("moves", 200, "moves per task at each temperature", 1, 1000000),
                  text_param("objective", "hop-bytes", std::string("what it minimises: ") + kObjectiveNames + " (mappers/objective.h)"),
                  time_param("time_limit", 0, "stop cooling after this long (0: no limit; a cut search depends on the machine)")},
                 [](Spec& spec) {
                   return std::make_unique<AnnealingMapper>(static_cast<int>(spec.get_int("moves")),
                                                            parse_objective(spec.get_string("objective"), "annealing"),
                                                            spec.get_time("time_limit"));
                 }});

}  // namespace mapsim
