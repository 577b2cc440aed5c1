#include "mappers/hypersphere_mapper.h"

#include "support/spec.h"

#include <algorithm>
#include <cmath>

#include "support/error.h"
#include "support/random.h"

namespace mapsim {
namespace {

void normalise(std::vector<double>& x) {
  double norm = 0;
  for (double v : x) norm += v * v;
  norm = std::sqrt(norm);
  for (double& v : x) v /= norm;
}

double squared_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t l = 0; l < a.size(); ++l) s += (a[l] - b[l]) * (a[l] - b[l]);
  return s;
}

std::vector<double> sector_centre(int sector, int n) {
  std::vector<double> c(n);
  for (int l = 0; l < n; ++l) c[l] = ((sector >> l) & 1 ? 1.0 : -1.0) / std::sqrt(static_cast<double>(n));
  return c;
}

}  // namespace

double hypersphere_objective(const ProcessGraph& graph, const SpherePoints& x, double gamma) {
  const size_t tasks = x.size();
  const double volume = graph.total_volume();
  double f = 0;
  for (const ProcessEdge& e : graph.edges()) f += gamma * e.volume * squared_distance(x[e.a], x[e.b]) / volume;
  double repulsion = 0;
  for (size_t i = 0; i + 1 < tasks; ++i)
    for (size_t j = i + 1; j < tasks; ++j) repulsion += 1 / squared_distance(x[i], x[j]);
  return f + 2 * repulsion / (static_cast<double>(tasks) * static_cast<double>(tasks - 1));
}

SpherePoints hypersphere_solve(const ProcessGraph& graph, SpherePoints x, const HypersphereOptions& o) {
  const size_t tasks = x.size();
  if (tasks < 2) return x;
  const size_t n = x.front().size();
  const double volume = graph.total_volume();
  const double pair_weight = 4.0 / (static_cast<double>(tasks) * static_cast<double>(tasks - 1));
  SpherePoints gradient(tasks, std::vector<double>(n));
  for (int k = 0; k < o.iterations; ++k) {
    for (auto& g : gradient) std::fill(g.begin(), g.end(), 0.0);
    // Eq. 16: attraction along edges, repulsion between all pairs.
    for (const ProcessEdge& e : graph.edges()) {
      const double w = 2 * o.gamma * e.volume / volume;
      for (size_t l = 0; l < n; ++l) {
        const double d = w * (x[e.a][l] - x[e.b][l]);
        gradient[e.a][l] += d;
        gradient[e.b][l] -= d;
      }
    }
    for (size_t i = 0; i + 1 < tasks; ++i)
      for (size_t j = i + 1; j < tasks; ++j) {
        const double s = std::max(squared_distance(x[i], x[j]), 1e-12);
        const double w = pair_weight / (s * s);
        for (size_t l = 0; l < n; ++l) {
          const double d = w * (x[j][l] - x[i][l]);
          gradient[i][l] += d;
          gradient[j][l] -= d;
        }
      }
    double moved = 0;
    for (size_t i = 0; i < tasks; ++i) {
      std::vector<double> next = x[i];
      for (size_t l = 0; l < n; ++l) next[l] -= o.step * gradient[i][l];
      normalise(next);  // projection onto the sphere (eq. 18)
      moved = std::max(moved, squared_distance(next, x[i]));
      x[i] = std::move(next);
    }
    if (moved < 1e-14) break;
  }
  return x;
}

std::vector<int> hypersphere_discretise(const SpherePoints& x) {
  std::vector<int> pe(x.size(), 0);
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t l = 0; l < x[i].size(); ++l)
      if (x[i][l] >= 0) pe[i] |= 1 << l;
  return pe;
}

void hypersphere_spread(SpherePoints& x, int phases) {
  if (x.empty()) return;
  const int n = static_cast<int>(x.front().size());
  const int sectors = 1 << n;
  const int tasks = static_cast<int>(x.size());
  const int limit = (tasks + sectors - 1) / sectors;  // ceil(T/N)
  std::vector<int> pe = hypersphere_discretise(x), population(sectors, 0);
  for (int p : pe) ++population[p];
  std::vector<std::vector<double>> centres;
  for (int s = 0; s < sectors; ++s) centres.push_back(sector_centre(s, n));
  for (int phase = 1; phase <= std::min(phases, n); ++phase) {
    const double radius2 = 4.0 * phase / n;  // (2 sqrt(i/n))^2
    // Candidate moves, nearest first; populations are re-checked as moves are made.
    std::vector<std::tuple<double, int, int>> moves;
    for (int t = 0; t < tasks; ++t) {
      if (population[pe[t]] <= limit) continue;
      for (int s = 0; s < sectors; ++s)
        if (population[s] < limit) {
          const double d = squared_distance(x[t], centres[s]);
          if (d <= radius2 + 1e-12) moves.emplace_back(d, t, s);
        }
    }
    std::sort(moves.begin(), moves.end());
    for (const auto& [d, t, s] : moves) {
      if (population[pe[t]] <= limit || population[s] >= limit) continue;
      --population[pe[t]];
      ++population[s];
      pe[t] = s;
      x[t] = centres[s];
    }
  }
}

SpherePoints hypersphere_start(int tasks, int n, uint64_t seed) {
  // Jittered so that no two points coincide when T > N.
  Rng rng(seed);
  SpherePoints x(tasks);
  for (int t = 0; t < tasks; ++t) {
    x[t] = sector_centre(t % (1 << n), n);
    for (double& v : x[t]) v += 0.5 * (rng.uniform() - 0.5);
    normalise(x[t]);
  }
  return x;
}

void HypersphereMapper::check(const MappingProblem& problem) const {
  const Network& net = problem.network->network();
  if (net.shape.family != Family::Hypercube || net.shape.dims.empty())
    throw NotApplicable("the hypersphere mapper needs a hypercube network (its sectors are the cube's vertices); use greedy, "
                "annealing or best on " + family_name(net.shape.family) + " networks");
  if (static_cast<int>(problem.nodes.size()) != net.num_nodes())
    throw NotApplicable("the hypersphere mapper maps onto the whole hypercube: use --allocation all");
}

Placement HypersphereMapper::map(const MappingProblem& problem) const {
  check(problem);
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  const int n = static_cast<int>(net.shape.dims.size());
  const int tasks = graph.num_tasks();
  SpherePoints x = hypersphere_start(tasks, n, problem.seed);
  x = hypersphere_solve(graph, x, options_);
  hypersphere_spread(x, options_.spreading < 0 ? n : options_.spreading);
  const std::vector<int> pe = hypersphere_discretise(x);
  // Sector = switch; its tasks fill the slots of its allowed nodes.
  std::vector<std::vector<int>> slots(net.num_switches());
  for (size_t i = 0; i < problem.nodes.size(); ++i)
    slots[net.node(problem.nodes[i]).switch_id].insert(slots[net.node(problem.nodes[i]).switch_id].end(),
                                                        problem.slots[i], problem.nodes[i]);
  std::vector<size_t> used(net.num_switches(), 0);
  Placement placement(tasks);
  for (int t = 0; t < tasks; ++t) {
    if (used[pe[t]] == slots[pe[t]].size())
      throw Error("hypersphere: PE " + std::to_string(pe[t]) + " gets more tasks than its " + std::to_string(slots[pe[t]].size()) +
                  " slots after " + std::to_string(options_.spreading) + " spreading phases; give more --slots or spreading");
    placement[t] = slots[pe[t]][used[pe[t]]++];
  }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(),
                {"hypersphere", "antonio1994: gradient projection of tasks on the unit sphere, sectors = hypercube PEs",
                 {integer_param("spreading", -1, "spreading phases to apply (-1: all n, balanced)", -1),
                  above(real_param("gamma", 1, "weight of the communication term"), 0),
                  above(real_param("step", HypersphereOptions{}.step, "gradient step alpha"), 0),
                  integer_param("iterations", HypersphereOptions{}.iterations, "gradient iterations at most", 0)},
                 [](Spec& spec) {
                   HypersphereOptions o;
                   o.spreading = static_cast<int>(spec.get_int("spreading"));
                   o.gamma = spec.get_double("gamma");
                   o.step = spec.get_double("step");
                   o.iterations = static_cast<int>(spec.get_int("iterations"));
                   return std::make_unique<HypersphereMapper>(o);
                 }});

}  // namespace mapsim
