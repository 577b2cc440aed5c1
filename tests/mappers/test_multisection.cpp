#include <doctest/doctest.h>

#include <set>
#include <string>

#include "mappers/internal/cost_table.h"
#include "mappers/internal/local_search.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "support/random.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

const std::string kMachine = "file:" MAPSIM_SOURCE_DIR "/configs/networks/hierarchy/machine-4-8-8.yaml";

// Gamma_C in the machine's units: 1, 10 or 100 us between PEs of a node, a rack, the machine.
double machine_cost(const MappingProblem& problem, const Placement& placement) {
  return placement_cost(problem, CostTable(*problem.network), placement) / 1e-6;
}

}  // namespace

TEST_CASE("multisection follows the 4:8:8 hierarchy: a 16x16 mesh in 2x2 nodes and 8x4 racks") {
  RoutedNetwork machine(make_network(kMachine));
  ProcessGraph mesh = make_process_graph("mesh:16x16");
  MappingProblem problem = make_problem(machine, mesh, "all", 1, 1);
  const Placement placement = make_mapper("multisection")->map(problem);
  check_placement(problem, placement);
  // The hierarchical tiling: 64 nodes x 4 edges at 1, 8 racks x 20 edges at 10, 64 edges at 100.
  const double tiling = 64 * 4 * 1 + 8 * 20 * 10 + 64 * 100;
  CHECK(machine_cost(problem, placement) <= doctest::Approx(tiling));
  for (const char* other : {"binary", "metis", "scotch"}) {
    CAPTURE(std::string(other));
    CHECK(machine_cost(problem, placement) <= machine_cost(problem, make_mapper(other)->map(problem)));
  }
}

TEST_CASE("multisection on random geometric graphs, 16 tasks per PE: below binary, metis and scotch") {
  RoutedNetwork machine(make_network(kMachine));
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    ProcessGraph graph = make_process_graph("rgg:tasks=4096,seed=" + std::to_string(seed));
    MappingProblem problem = make_problem(machine, graph, "all", 16, seed);
    const Placement placement = make_mapper("multisection")->map(problem);
    check_placement(problem, placement);
    const double cost = machine_cost(problem, placement);
    CAPTURE(seed);
    for (const char* other : {"binary", "metis", "scotch"})
      CHECK(cost < 0.9 * machine_cost(problem, make_mapper(other)->map(problem)));
    // best keeps the cheapest candidate after its local search: never above multisection's
    if (seed == 1) CHECK(machine_cost(problem, make_mapper("best")->map(problem)) <= doctest::Approx(cost));
  }
}

TEST_CASE("multisection on a dragonfly: one arc of a ring per group") {
  // 9 groups of 4 routers with 2 nodes: a 72-task ring cut into 9 arcs of 8 crosses groups 9 times.
  RoutedNetwork dragonfly(make_network("dragonfly:a=4,p=2,h=2,g=9"));
  ProcessGraph ring = make_process_graph("ring:72");
  MappingProblem problem = make_problem(dragonfly, ring, "all", 1, 1);
  const Placement placement = make_mapper("multisection:depth=0")->map(problem);
  check_placement(problem, placement);
  auto group = [&](int task) { return dragonfly.network().node(placement[task]).switch_id / 4; };
  int crossing = 0;
  for (const ProcessEdge& e : ring.edges()) crossing += group(e.a) != group(e.b);
  CHECK(crossing == 9);
}

TEST_CASE("swap_search: the exact optimum of a two-pair instance, and never a higher cost") {
  RoutedNetwork net(make_network("tree2:switches=2,nodes_per_switch=2"));
  ProcessGraph pairs(4);
  pairs.add_edge(0, 1, 10);
  pairs.add_edge(2, 3, 10);
  pairs.add_edge(0, 2, 1);
  pairs.add_edge(1, 3, 1);
  MappingProblem problem = make_problem(net, pairs, "all", 1, 1);
  const CostTable cost(net);
  Placement split{0, 2, 1, 3};  // each heavy pair across the switches
  Placement together{0, 1, 2, 3};
  Placement one_edge = split;  // the helpful swap (task 0 with task 3) is two edges away
  swap_search(problem, cost, one_edge, 1);
  CHECK(one_edge == split);
  swap_search(problem, cost, split, 2);
  CHECK(placement_cost(problem, cost, split) == doctest::Approx(placement_cost(problem, cost, together)));
  CHECK(net.network().node(split[0]).switch_id == net.network().node(split[1]).switch_id);

  for (uint64_t seed = 1; seed <= 10; ++seed) {
    RoutedNetwork irregular(make_network("irregular:nodes=64,switches=16,seed=" + std::to_string(seed)));
    ProcessGraph graph = make_process_graph("random:tasks=64,edges=200,seed=" + std::to_string(seed));
    MappingProblem p = make_problem(irregular, graph, "all", 1, seed);
    const CostTable c(irregular);
    Placement placement = make_mapper("random")->map(p);
    const double before = placement_cost(p, c, placement);
    const double after = swap_search(p, c, placement, 2);
    check_placement(p, placement);
    CHECK(after == doctest::Approx(placement_cost(p, c, placement)));
    CHECK(after < before);
  }
}

TEST_CASE("rgg: exactly the point pairs closer than the radius") {
  const int tasks = 700;
  const double radius = 0.07;
  ProcessGraph graph = make_process_graph("rgg:tasks=700,radius=0.07,seed=5");
  Rng rng(5);  // the generator's points: two uniforms each
  std::vector<std::pair<double, double>> point(tasks);
  for (auto& [x, y] : point) x = rng.uniform(), y = rng.uniform();
  std::set<std::pair<int, int>> expected, got;
  for (int a = 0; a < tasks; ++a)
    for (int b = a + 1; b < tasks; ++b) {
      const double dx = point[a].first - point[b].first, dy = point[a].second - point[b].second;
      if (dx * dx + dy * dy < radius * radius) expected.insert({a, b});
    }
  for (const ProcessEdge& e : graph.edges()) got.insert({e.a, e.b});
  CHECK(got.size() == graph.edges().size());  // no pair twice
  CHECK(got == expected);
  CHECK_THROWS_WITH_AS(make_process_graph("rgg:tasks=10,radius=2"), doctest::Contains("radius must be in (0, 1]"), Error);
}
