#include "mappers/best_mapper.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "support/spec.h"

#include "mappers/congestion.h"
#include "mappers/internal/local_search.h"
#include "mappers/internal/objective_search.h"
#include "mappers/objective.h"
#include "mappers/internal/switch_slots.h"
#include "support/error.h"

namespace mapsim {
namespace {

// How many times 2 divides v: the cube dimensions a grid extent can take as equal blocks.
int twos(int v) {
  int bits = 0;
  while (v % 2 == 0) v /= 2, ++bits;
  return bits;
}

std::vector<int> coordinates(int task, const std::vector<int>& dims) {
  std::vector<int> c;
  for (int extent : dims) c.push_back(task % extent), task /= extent;
  return c;
}

}  // namespace

std::optional<std::vector<int>> regular_embedding(const MappingProblem& problem) {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  const std::vector<int>& dims = graph.dims;
  if (dims.empty() || static_cast<int>(problem.nodes.size()) != net.num_nodes()) return std::nullopt;
  const int tasks = graph.num_tasks();
  std::vector<int> switch_of(tasks);
  if (net.shape.family == Family::Hypercube) {
    // Each grid dimension gets address bits (the widest block first), splitting it into 2^bits equal
    // blocks (48 = 16 blocks of 3); Gray code along each.
    const int n = static_cast<int>(net.shape.dims.size());
    std::vector<int> log_extent, bits(dims.size(), 0);
    int available = 0;
    for (int extent : dims) {
      log_extent.push_back(twos(extent));
      available += log_extent.back();
    }
    if (available == 0) return std::nullopt;
    for (int used = 0; used < std::min(n, available); ++used) {
      size_t widest = dims.size();
      for (size_t k = 0; k < dims.size(); ++k)
        if (bits[k] < log_extent[k] && (widest == dims.size() || log_extent[k] - bits[k] > log_extent[widest] - bits[widest])) widest = k;
      ++bits[widest];
    }
    for (int t = 0; t < tasks; ++t) {
      const std::vector<int> c = coordinates(t, dims);
      int address = 0, shift = 0;
      for (size_t k = 0; k < dims.size(); ++k) {
        const int block = c[k] / (dims[k] >> bits[k]);
        address |= (block ^ (block >> 1)) << shift;
        shift += bits[k];
      }
      switch_of[t] = address;
    }
    return switch_of;
  }
  if (net.shape.family == Family::Mesh || net.shape.family == Family::Torus) {
    const std::vector<int>& m = net.shape.dims;
    if (m.size() != dims.size()) return std::nullopt;
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k] > m[k] && dims[k] % m[k] != 0) return std::nullopt;
    for (int t = 0; t < tasks; ++t) {
      const std::vector<int> c = coordinates(t, dims);
      int address = 0, stride = 1;
      for (size_t k = 0; k < dims.size(); ++k) {
        address += (dims[k] > m[k] ? c[k] / (dims[k] / m[k]) : c[k]) * stride;
        stride *= m[k];
      }
      switch_of[t] = address;
    }
    return switch_of;
  }
  return std::nullopt;
}

namespace {

struct Candidate {
  std::string name;
  Placement placement;
  bool baseline = false;  // a placement users pick: always simulated
  double cost = 0;   // Gamma_C, the static tie-break
  double score = 0;  // by the objective
  double channels = 0;  // channel_congestion, for near ties
  double makespan = -1;
};

constexpr int kMaxAnnealingTasks = 1024;  // annealing's moves grow with T x temperature levels
constexpr int kRefineMoves = 64;     // evaluations per task of each objective refinement,
constexpr double kRefineWork = 1e8;  // and at most this many port writes (~5 s)
constexpr double kTie = 0.01;        // scores within 1 % of the leader's are near ties

// Slots dealt round-robin over the switches that hold them, so that consecutive ranks sit on
// different switches: the spread placement users try against all-to-all hot spots.
Placement round_robin_over_switches(const MappingProblem& problem) {
  const std::vector<SwitchSlots> groups = group_by_switch(problem.network->network(), slot_list(problem));
  std::vector<int> order;
  for (size_t depth = 0; order.size() < static_cast<size_t>(problem.graph->num_tasks()); ++depth)
    for (const SwitchSlots& g : groups)
      if (depth < g.slots.size() && order.size() < static_cast<size_t>(problem.graph->num_tasks())) order.push_back(g.slots[depth]);
  return order;
}

}  // namespace

Placement BestMapper::map(const MappingProblem& problem) const {
  // The ranking: Gamma_C ("latency"), or an objective (auto: congestion where the workload is known);
  // makespan ranks by congestion and simulates every candidate.
  std::optional<Objective> ranking;
  if (options_.objective == "auto") {
    if (problem.schedule) ranking = Objective::Congestion;
  } else if (options_.objective != "latency") {
    ranking = parse_objective(options_.objective, "best");
    if (*ranking == Objective::Makespan) ranking = Objective::Congestion;
  }
  const bool by_load = ranking == Objective::Congestion || ranking == Objective::MaxLinkLoad;
  std::vector<Candidate> candidates;
  if (auto embedding = regular_embedding(problem)) {
    const Network& net = problem.network->network();
    const std::vector<SwitchSlots> groups = group_by_switch(net, slot_list(problem));
    std::vector<int> group_of_switch(net.num_switches(), -1);
    for (size_t g = 0; g < groups.size(); ++g) group_of_switch[groups[g].switch_id] = static_cast<int>(g);
    std::vector<int> group_of_task;
    for (int s : *embedding) group_of_task.push_back(group_of_switch[s]);
    candidates.push_back({"embedding", place_groups(problem, groups, group_of_task)});
  }
  std::vector<std::string> constructions{"binary", "adjacency", "scotch", "metis", "switch", "greedy", "multisection"};
  // Annealing where constructions are weakest: an allocation scattered over part of the machine.
  const bool partial = problem.nodes.size() < static_cast<size_t>(problem.network->network().num_nodes());
  if (options_.annealing_moves > 0 && partial && problem.graph->num_tasks() <= kMaxAnnealingTasks)
    constructions.push_back("annealing:moves=" + std::to_string(options_.annealing_moves));
  for (const std::string& name : constructions) {
    try {
      candidates.push_back({name, make_mapper(name)->map(problem)});
    } catch (const NotApplicable& e) {  // bad input and internal failures are not skipped
      spdlog::debug("best: skipping {}: {}", name, e.what());
    }
  }
  // Ranked by load, the constructions also stand as they are: refining on latency can crowd a
  // switch's links.
  std::vector<Candidate> unrefined;
  if (by_load) unrefined = candidates;
  const CostTable table(*problem.network);
  for (Candidate& c : candidates) {
    // The switch-neighbourhood search where its passes are affordable, else swaps within N_C^2.
    c.cost = refine_scan(problem, c.placement) <= kMaxRefineScan ? refine_placement(problem, table, c.placement)
                                                                 : swap_search(problem, table, c.placement, 1);
    c.name += "+refined";
  }
  candidates.insert(candidates.end(), unrefined.begin(), unrefined.end());
  // The placements users pick, as they are: refined on latency they would become the others.
  for (const char* name : {"default", "random", "random:unit=switch"}) candidates.push_back({name, make_mapper(name)->map(problem), true});
  candidates.push_back({"round-robin:unit=switch", round_robin_over_switches(problem), true});
  for (Candidate& c : candidates)
    if (c.name.find("+refined") == std::string::npos) c.cost = placement_cost(problem, table, c.placement);

  auto score = [&](const Candidate& c) { return ranking ? objective_value(problem, c.placement, *ranking) : c.cost; };
  for (Candidate& c : candidates) c.score = score(c);
  auto rank = [&] {  // best score first; ties by Gamma_C, then by the order found. A placement found twice counts once.
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
      return x.score != y.score ? x.score < y.score : x.cost < y.cost;
    });
    for (size_t i = 0; i < candidates.size(); ++i)
      for (size_t j = candidates.size() - 1; j > i; --j)
        if (candidates[j].placement == candidates[i].placement) {
          candidates[i].baseline |= candidates[j].baseline;
          candidates.erase(candidates.begin() + static_cast<long>(j));
        }
  };
  rank();
  // The top few, refined on the load objective itself (moves the routed cost cannot see).
  if (by_load) {
    const size_t top = std::min(candidates.size(), static_cast<size_t>(options_.refine));
    for (size_t i = 0; i < top; ++i) {
      Candidate c{candidates[i].name + "+" + objective_name(*ranking), candidates[i].placement};
      search_objective(problem, *ranking, c.placement, {kRefineMoves, options_.time_limit, 8, kRefineWork}, problem.seed);
      c.cost = placement_cost(problem, table, c.placement);
      c.score = score(c);
      candidates.push_back(std::move(c));
    }
    rank();
  }
  // Near ties with the leader (every node link equally loaded sets each phase's time, as in a halo
  // exchange) are ordered by their switch channels' congestion, then Gamma_C, and all simulated,
  // up to 3 x verify: the score cannot tell them apart, the run can.
  size_t tied = 1;
  if (by_load) {
    while (tied < candidates.size() && candidates[tied].score <= candidates[0].score * (1 + kTie)) ++tied;
    for (size_t i = 0; i < tied; ++i) candidates[i].channels = channel_congestion(problem, candidates[i].placement);
    std::stable_sort(candidates.begin(), candidates.begin() + static_cast<long>(tied), [](const Candidate& x, const Candidate& y) {
      return x.channels != y.channels ? x.channels < y.channels : x.cost < y.cost;
    });
  }
  // The top `verify`, the near ties up to 3 x verify and the placements users pick are simulated on
  // the workload; the fastest wins: best never runs slower than what a user would try by hand.
  size_t chosen = 0;
  const size_t verify = options_.objective == "makespan"
                            ? candidates.size()
                            : std::max(static_cast<size_t>(options_.verify), std::min(tied, 3 * static_cast<size_t>(options_.verify)));
  if (problem.simulate && verify > 0)
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (i >= verify && !candidates[i].baseline) continue;
      candidates[i].makespan = problem.simulate(candidates[i].placement, options_.model);
      spdlog::debug("best: {} scores {}, runs {} s", candidates[i].name, candidates[i].score, candidates[i].makespan);
      if (candidates[i].makespan < candidates[chosen].makespan) chosen = i;
    }
  if (problem.portfolio) {
    problem.portfolio->objective = ranking ? objective_name(*ranking) : "latency";
    problem.portfolio->candidates.clear();
    for (size_t i = 0; i < candidates.size(); ++i)
      problem.portfolio->candidates.push_back({candidates[i].name, candidates[i].score, candidates[i].makespan, i == chosen});
  }
  return candidates[chosen].placement;
}

MAPSIM_REGISTER(mapper_registry(),
                {"best",
                 "mapsim's own: a portfolio of every construction (refined on the routed cost) and the simple placements, "
                 "ranked by congestion where the workload is known, the top ones refined on it and the leaders simulated",
                 {text_param("objective", "auto", std::string("rank by: auto (congestion where a workload is known, else latency), "
                                                  "latency (Gamma_C), ") + kObjectiveNames + " (mappers/objective.h; makespan simulates every candidate)"),
                  integer_param("verify", 6, "how many of the top-ranked candidates are simulated on the workload, with up to 3 x as many near ties and the placements users pick (0: none)", 0, 1000),
                  text_param("model", "", "model of those simulations (default: the run's, store-and-forward when it has none)"),
                  integer_param("annealing", 200, "moves per task of the annealing candidate, run on partial allocations of up to 1024 tasks (0: none)", 0, 1000000),
                  integer_param("refine", 2, "how many of the top-ranked candidates are refined on the load objective (0: none)", 0, 1000),
                  time_param("time_limit", 0, "stop each refinement after this long (0: no limit; a cut search depends on the machine)")},
                 [](Spec& spec) {
                   const std::string objective = spec.get_string("objective");
                   if (objective != "auto" && objective != "latency") parse_objective(objective, "best");  // an unknown one is an error
                   return std::make_unique<BestMapper>(BestOptions{objective, static_cast<int>(spec.get_int("verify")),
                                                                           spec.get_string("model"),
                                                                           static_cast<int>(spec.get_int("annealing")),
                                                                           static_cast<int>(spec.get_int("refine")), spec.get_time("time_limit")});
                 }});

}  // namespace mapsim
