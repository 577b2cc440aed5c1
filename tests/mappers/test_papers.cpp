// The reference papers' experiments that the mappers must reproduce (see docs/mappers.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "mappers/internal/graph_partition.h"
#include "mappers/hypersphere_mapper.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "support/error.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

double hamming_average(const ProcessGraph& g, const std::vector<int>& pe) {
  double sum = 0;
  for (const ProcessEdge& e : g.edges()) sum += __builtin_popcount(static_cast<unsigned>(pe[e.a] ^ pe[e.b]));
  return sum / static_cast<double>(g.edges().size());
}

double variance_per_pe(const std::vector<int>& pe, int n) {
  std::vector<int> count(n, 0);
  for (int p : pe) ++count[p];
  const double mean = static_cast<double>(pe.size()) / n;
  double v = 0;
  for (int c : count) v += (c - mean) * (c - mean);
  return v / n;
}

}  // namespace

TEST_CASE("antonio1994 section 2.5.3: the 8-task example reaches 0.75; the best one-to-one mapping is 1.00") {
  ProcessGraph g(8);
  const int pattern[8][2] = {{0, 4}, {0, 7}, {1, 7}, {1, 6}, {2, 4}, {2, 5}, {3, 5}, {3, 6}};
  for (const auto& e : pattern) g.add_edge(e[0], e[1], 1);
  // Table I, k = 0: task i starts in sector i.
  SpherePoints x = {{-0.66, -0.56, -0.50}, {0.61, -0.75, -0.26}, {-0.34, 0.07, -0.94}, {0.66, 0.55, -0.50},
                    {-0.03, -0.80, 0.59},  {0.09, -0.91, 0.41},  {-0.45, 0.61, 0.65}, {0.61, 0.55, 0.57}};
  CHECK(hypersphere_discretise(x) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(hypersphere_objective(g, x) == doctest::Approx(4.12).epsilon(0.01));
  HypersphereOptions o;
  o.iterations = 10;
  SpherePoints solution = hypersphere_solve(g, x, o);
  CHECK(hypersphere_objective(g, solution) == doctest::Approx(1.37).epsilon(0.01));  // Table I, k = 10
  const std::vector<int> pe = hypersphere_discretise(solution);
  CHECK(pe == std::vector<int>{4, 7, 0, 3, 4, 1, 7, 5});  // the paper's mapping
  CHECK(hamming_average(g, pe) == 0.75);
  // Spreading (Figure 7): phase 1 moves task 4 to PE 6, phase 2 task 6 to PE 2.
  SpherePoints spread = solution;
  hypersphere_spread(spread, 1);
  CHECK(hypersphere_discretise(spread) == std::vector<int>{4, 7, 0, 3, 6, 1, 7, 5});
  hypersphere_spread(spread, 2);
  CHECK(hypersphere_discretise(spread) == std::vector<int>{4, 7, 0, 3, 6, 1, 2, 5});
  // Exhaustive search over the 8! one-to-one mappings.
  std::vector<int> perm(8);
  std::iota(perm.begin(), perm.end(), 0);
  double best = 1e9;
  do best = std::min(best, hamming_average(g, perm));
  while (std::next_permutation(perm.begin(), perm.end()));
  CHECK(best == 1.0);
}

TEST_CASE("antonio1994 Tables II and III: hypersphere, spreading phases and annealing, 128 tasks on a 7-cube") {
  RoutedNetwork cube(make_network("hypercube:dim=7"));
  const int runs = 30;
  std::vector<double> hamming(8, 0), variance(8, 0);
  double annealing = 0;
  for (int seed = 1; seed <= runs; ++seed) {
    ProcessGraph g = make_process_graph("random:tasks=128,edges=448,seed=" + std::to_string(seed));
    // The mapper's own steps, solving once and spreading phase after phase.
    SpherePoints x = hypersphere_solve(g, hypersphere_start(128, 7, seed), HypersphereOptions{});
    for (int phases = 0; phases <= 7; ++phases) {
      if (phases > 0) hypersphere_spread(x, phases);
      const std::vector<int> pe = hypersphere_discretise(x);
      hamming[phases] += hamming_average(g, pe) / runs;
      variance[phases] += variance_per_pe(pe, 128) / runs;
    }
    MappingProblem one_to_one = make_problem(cube, g, "all", 1, seed);
    annealing += evaluate(one_to_one, make_mapper("annealing")->map(one_to_one)).cardinality / runs;
  }
  CHECK(hamming[0] == doctest::Approx(1.889).epsilon(0.05));  // paper: 1.889, variance 1.68
  CHECK(variance[0] == doctest::Approx(1.68).epsilon(0.15));
  for (int p = 1; p <= 7; ++p) {
    CHECK(hamming[p] >= hamming[p - 1]);  // monotone growth through the phases
    CHECK(variance[p] <= variance[p - 1]);
  }
  CHECK(variance[7] == 0);                                    // one-to-one after phase n
  CHECK(hamming[7] == doctest::Approx(2.587).epsilon(0.05));  // paper: 2.587
  CHECK(annealing <= 2.05);                                   // paper: 2.042
}

TEST_CASE("hypersphere rejects non-hypercube networks and partial allocations clearly") {
  RoutedNetwork mesh(make_network("mesh:4x4"));
  ProcessGraph g = make_process_graph("ring:16");
  MappingProblem p = make_problem(mesh, g, "all", 1, 1);
  CHECK_THROWS_WITH_AS(make_mapper("hypersphere")->map(p), doctest::Contains("needs a hypercube network"), Error);
  RoutedNetwork cube(make_network("hypercube:dim=5"));
  MappingProblem partial = make_problem(cube, g, "random:seed=2", 1, 1);
  CHECK_THROWS_WITH_AS(make_mapper("hypersphere")->map(partial), doctest::Contains("--allocation all"), Error);
  // T > N: 64 tasks on 16 PEs, balanced 4 per PE after all phases.
  RoutedNetwork small(make_network("hypercube:dim=4"));
  ProcessGraph many = make_process_graph("random:tasks=64,edges=128,seed=3");
  MappingProblem over = make_problem(small, many, "all", 4, 1);
  Placement placement = make_mapper("hypersphere")->map(over);
  CHECK_NOTHROW(check_placement(over, placement));
  CHECK(evaluate(over, placement).load_variance == 0);
}

TEST_CASE("kramer-muhlenbein Lemma 2: random mapping costs delta on SUPRENUM (Monte Carlo)") {
  for (auto [c, d, alpha] : {std::tuple{4, 16, 5.0}, std::tuple{2, 4, 10.0}, std::tuple{8, 16, 5.0}}) {
    RoutedNetwork net(make_network("suprenum:c=" + std::to_string(c) + ",d=" + std::to_string(d) + ",alpha=" + std::to_string(alpha)));
    const int n = c * c * d;
    ProcessGraph g = make_process_graph("random:tasks=" + std::to_string(n) + ",edges=" + std::to_string(4 * n) + ",seed=7");
    double sum = 0, edges = 0;
    for (int seed = 1; seed <= 40; ++seed) {
      MappingProblem problem = make_problem(net, g, "all", 1, seed);
      sum += evaluate(problem, make_mapper("random")->map(problem)).gamma_c;
      edges += static_cast<double>(g.edges().size());
    }
    // Eq. 4 with epsilon = 0; one task per processor, so pairs are distinct processors: x N/(N-1).
    const double delta = ((d - 1) + 2.0 * (c - 1) * (2 * d + alpha * c) + (c - 1.0) * (c - 1) * (2 * d + 2 * alpha * c)) / (c * c);
    CHECK(sum / edges == doctest::Approx(delta * n / (n - 1)).epsilon(0.02));
  }
}

TEST_CASE("kramer-muhlenbein Table 1: OPT, PART, PARTS, RANDOM for a 2-D torus on SUPRENUM (4x4, 16), alpha = 5") {
  const int c = 4, d = 16, l = 64;
  const double alpha = 5;
  RoutedNetwork net(make_network("suprenum:c=4,d=16,alpha=5"));
  ProcessGraph torus = make_process_graph("torus:64x64");
  const double delta = ((d - 1) + 2.0 * (c - 1) * (2 * d + alpha * c) + (c - 1.0) * (c - 1) * (2 * d + 2 * alpha * c)) / (c * c);
  const double opt = 2 * c * d * (std::sqrt(d) - 1) * l + 2 * c * (2 * d + alpha * c) * l;
  const double part = 2 * c * std::sqrt(d) * delta * l, parts = 2 * c * d * (std::sqrt(d) - 1) * l + 2 * c * delta * l;
  const double random = 2 * delta * l * l;
  double measured_part = 0, measured_parts = 0, measured_random = 0;
  const int runs = 10;
  for (int seed = 1; seed <= runs; ++seed) {
    MappingProblem problem = make_problem(net, torus, "all", 16, seed);
    measured_part += evaluate(problem, make_mapper("part")->map(problem)).gamma_c / runs;
    measured_parts += evaluate(problem, make_mapper("parts")->map(problem)).gamma_c / runs;
    measured_random += evaluate(problem, make_mapper("random")->map(problem)).gamma_c / runs;
  }
  CHECK(measured_part == doctest::Approx(part).epsilon(0.03));
  CHECK(measured_parts == doctest::Approx(parts).epsilon(0.04));  // PARTS' random clusters are distinct: slightly above
  CHECK(measured_random == doctest::Approx(random).epsilon(0.02));
  // best refines on eq. 3 itself: 56320, below our PARTS, 10 % above the paper's OPT (51200).
  MappingProblem problem = make_problem(net, torus, "all", 16, 1);
  const double best = evaluate(problem, make_mapper("best")->map(problem)).gamma_c;
  CHECK(best < measured_parts);
  CHECK(best < 1.1 * opt);
  CHECK(opt < parts);
  CHECK(parts < part);
  CHECK(part < random);
  CHECK(parts / opt == doctest::Approx(1.0 + (delta - (2 * d + alpha * c)) * 2 * c * l / opt).epsilon(1e-9));  // the 17 % gap
}

TEST_CASE("kramer-muhlenbein Table 2: a 2-D torus on an 8-cube") {
  const int dim = 8, l = 32;
  RoutedNetwork cube(make_network("hypercube:dim=8"));
  ProcessGraph torus = make_process_graph("torus:32x32");
  const double delta = dim / 2.0, n = 256;
  const double opt = std::pow(2.0, dim / 2 + 1) * l;
  MappingProblem problem = make_problem(cube, torus, "all", 4, 1);
  CHECK(evaluate(problem, make_mapper("best")->map(problem)).weighted_cardinality == opt);  // Gray-code blocks
  // Figure 6 at l = 48: 16 blocks of 3 per dimension still embed exactly (OPT = 2^(d/2+1) x 48).
  ProcessGraph torus48 = make_process_graph("torus:48x48");
  MappingProblem problem48 = make_problem(cube, torus48, "all", 9, 1);
  CHECK(evaluate(problem48, make_mapper("best")->map(problem48)).weighted_cardinality == std::pow(2.0, dim / 2 + 1) * 48);
  double part = 0, random = 0;
  const int runs = 20;
  for (int seed = 1; seed <= runs; ++seed) {
    MappingProblem p = make_problem(cube, torus, "all", 4, seed);
    part += evaluate(p, make_mapper("part")->map(p)).weighted_cardinality / runs;
    random += evaluate(p, make_mapper("random")->map(p)).weighted_cardinality / runs;
  }
  CHECK(part == doctest::Approx(delta * n / (n - 1) * opt).epsilon(0.03));  // PART = delta x OPT
  // RANDOM = d l^2 for independent placement; with 4 tasks per node a pair shares a node w.p. 3/1023.
  CHECK(random == doctest::Approx(dim * l * l * (1 - 3.0 / 1023) * n / (n - 1)).epsilon(0.03));
}

TEST_CASE("moh2001/moh2010 figures 5-6: RM > SM > AM > BM on 256-node, 75-switch networks, 20 seeds") {
  for (const char* mesh : {"mesh:4x4", "mesh:8x8", "mesh:12x12", "mesh:16x16"}) {
    ProcessGraph g = make_process_graph(mesh);
    double rm = 0, sm = 0, bm = 0, am = 0, am_cut = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      RoutedNetwork net(make_network("irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=" + std::to_string(seed)));
      // The papers' member processors: a random set of as many nodes as tasks.
      MappingProblem p = make_problem(net, g, "random:seed=" + std::to_string(seed), 1, seed);
      rm += evaluate(p, make_mapper("random")->map(p)).cardinality;
      sm += evaluate(p, make_mapper("switch")->map(p)).cardinality;
      bm += evaluate(p, make_mapper("binary")->map(p)).cardinality;
      am += evaluate(p, make_mapper("adjacency")->map(p)).cardinality;
      am_cut += evaluate(p, make_mapper("adjacency:split=cut")->map(p)).cardinality;
    }
    CAPTURE(mesh);
    CHECK(rm > sm);
    CHECK(sm > am);
    // moh2010 has AM best; as the paper specifies it, it is not (docs/results.md says why).
    CHECK(am > bm);
    // Bisected slot sets make AM's quadrants much tighter, yet its row-by-row recursion keeps it behind BM
    // from 8x8 up.
    CHECK(am_cut < 0.85 * am);
  }
}

TEST_CASE("best is never worse than scotch, binary and adjacency, and beats scotch on irregular networks") {
  double best_sum = 0, scotch_sum = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RoutedNetwork net(make_network("irregular:nodes=256,switches=75,seed=" + std::to_string(seed)));
    for (const char* process : {"mesh:16x16", "pattern:mesh:16x16,distant=0.1,seed=3", "random:tasks=200,edges=500,seed=2"}) {
      ProcessGraph g = make_process_graph(process);
      MappingProblem p = make_problem(net, g, "all", 1, seed);
      const double best = evaluate(p, make_mapper("best")->map(p)).weighted_cardinality;
      for (const char* other : {"scotch", "binary", "adjacency"}) {
        if (std::string(other) == "adjacency" && g.dims.empty()) continue;
        CAPTURE(std::string(other));
        CAPTURE(seed);
        CAPTURE(std::string(process));
        CHECK(best <= evaluate(p, make_mapper(other)->map(p)).weighted_cardinality);
      }
      if (std::string(process) == "mesh:16x16") {
        best_sum += best;
        scotch_sum += evaluate(p, make_mapper("scotch")->map(p)).weighted_cardinality;
      }
    }
  }
  CHECK(best_sum < 0.96 * scotch_sum);
}

TEST_CASE("best embeds grids optimally in regular networks") {
  struct Case { const char* network; const char* process; int slots; };
  for (Case k : {Case{"hypercube:dim=7", "hypercube:dim=7", 1}, Case{"mesh:16x16", "mesh:16x16", 1},
                 Case{"torus:8x8", "torus:8x8", 1}, Case{"hypercube:dim=6", "torus:8x8", 1},
                 Case{"hypercube:dim=8", "ring:256", 1}, Case{"torus:4x4x4", "torus:8x8x8", 8}}) {
    CAPTURE(k.process);
    RoutedNetwork net(make_network(k.network));
    ProcessGraph g = make_process_graph(k.process);
    MappingProblem p = make_problem(net, g, "all", k.slots, 1);
    MappingMetrics m = evaluate(p, make_mapper("best")->map(p));
    CHECK(m.dilation == 1);
  }
}

TEST_CASE("graph partitioner: exact sizes, optimal grid cuts, FM repairs a poor start") {
  ProcessGraph mesh = make_process_graph("mesh:8x8");
  GraphPartitioner partitioner(mesh);
  std::vector<int> all(64);
  std::iota(all.begin(), all.end(), 0);
  std::vector<int> part = partitioner.partition(all, {16, 16, 16, 16});
  std::vector<int> size(4, 0);
  double cut = 0;
  for (int p : part) ++size[p];
  for (const ProcessEdge& e : mesh.edges()) cut += part[e.a] != part[e.b];
  CHECK(size == std::vector<int>{16, 16, 16, 16});
  CHECK(cut == 16);  // four 4x4 blocks
  // A ring given as a general graph: BFS growth + FM cut it in two places.
  ProcessGraph ring(40);
  for (int t = 0; t < 40; ++t) ring.add_edge(t, (t * 7 + 3) % 40 == t ? (t + 1) % 40 : (t + 1) % 40, 1);
  GraphPartitioner rp(ring);
  std::vector<int> tasks(40);
  std::iota(tasks.begin(), tasks.end(), 0);
  std::vector<int> order = rp.bisect(tasks, 13);
  std::vector<int> side(40, 1);
  for (int i = 0; i < 13; ++i) side[order[i]] = 0;
  int ring_cut = 0;
  for (const ProcessEdge& e : ring.edges()) ring_cut += side[e.a] != side[e.b];
  CHECK(ring_cut == 2);
}
