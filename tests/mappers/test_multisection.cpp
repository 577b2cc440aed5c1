#include <doctest/doctest.h>

#include <algorithm>
#include <map>
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

namespace {

using Point = std::pair<double, double>;

// The generators' points: two uniforms each from Rng(seed).
std::vector<Point> generator_points(int tasks, uint64_t seed) {
  Rng rng(seed);
  std::vector<Point> point(tasks);
  for (auto& [x, y] : point) x = rng.uniform(), y = rng.uniform();
  return point;
}

double cross(const Point& o, const Point& a, const Point& b) {
  return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first);
}

}  // namespace

TEST_CASE("delaunay: exactly the edges of the triangles with empty circumcircles") {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const int tasks = 60;
    const std::vector<Point> p = generator_points(tasks, seed);
    // d lies inside the circle through a, b, c (counter-clockwise) when this determinant is positive.
    auto in_circle = [](const Point& a, const Point& b, const Point& c, const Point& d) {
      const double ax = a.first - d.first, ay = a.second - d.second, bx = b.first - d.first, by = b.second - d.second,
                   cx = c.first - d.first, cy = c.second - d.second;
      return (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) +
                 (cx * cx + cy * cy) * (ax * by - bx * ay) >
             0;
    };
    std::set<std::pair<int, int>> expected, got;
    for (int a = 0; a < tasks; ++a)
      for (int b = a + 1; b < tasks; ++b)
        for (int c = b + 1; c < tasks; ++c) {
          const bool ccw = cross(p[a], p[b], p[c]) > 0;
          bool empty = true;
          for (int d = 0; d < tasks && empty; ++d)
            if (d != a && d != b && d != c) empty = !(ccw ? in_circle(p[a], p[b], p[c], p[d]) : in_circle(p[a], p[c], p[b], p[d]));
          if (empty) expected.insert({a, b}), expected.insert({a, c}), expected.insert({b, c});
        }
    ProcessGraph graph = make_process_graph("delaunay:tasks=60,seed=" + std::to_string(seed));
    for (const ProcessEdge& e : graph.edges()) got.insert({e.a, e.b});
    CAPTURE(seed);
    CHECK(got.size() == graph.edges().size());
    CHECK(got == expected);
  }
  // Any triangulation of n points, h of them on the convex hull, has 3n - 3 - h edges.
  const int tasks = 20000;
  std::vector<Point> p = generator_points(tasks, 9);
  std::sort(p.begin(), p.end());
  std::vector<Point> hull(2 * tasks);  // Andrew's monotone chain
  int h = 0;
  for (int i = 0; i < tasks; ++i) {
    while (h >= 2 && cross(hull[h - 2], hull[h - 1], p[i]) <= 0) --h;
    hull[h++] = p[i];
  }
  for (int i = tasks - 2, lower = h + 1; i >= 0; --i) {
    while (h >= lower && cross(hull[h - 2], hull[h - 1], p[i]) <= 0) --h;
    hull[h++] = p[i];
  }
  --h;  // the first point closes the chain
  CHECK(make_process_graph("delaunay:tasks=20000,seed=9").edges().size() == static_cast<size_t>(3 * tasks - 3 - h));
  CHECK_THROWS_WITH_AS(make_process_graph("delaunay:tasks=2"), doctest::Contains("tasks"), Error);
}

TEST_CASE("swap_search ends where no task has an improving swap in its neighbourhood") {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    RoutedNetwork machine(make_network(kMachine));
    ProcessGraph graph = make_process_graph("delaunay:tasks=1024,seed=" + std::to_string(seed));
    MappingProblem problem = make_problem(machine, graph, "all", 4, seed);
    const CostTable cost(machine);
    const bool pull = seed % 2 == 0;
    Placement placement = make_mapper("random")->map(problem);
    std::vector<int> load(machine.network().num_nodes()), after(load);
    for (int node : placement) ++load[node];
    const double before = placement_cost(problem, cost, placement);
    const double end = swap_search(problem, cost, placement, 2, pull);
    check_placement(problem, placement);
    for (int node : placement) ++after[node];
    CAPTURE(seed);
    CHECK(after == load);
    CHECK(end < 0.8 * before);
    CHECK(end == doctest::Approx(placement_cost(problem, cost, placement)));
    // Brute force: no swap within two edges (nor, with pull, on the node a task sends most to) helps.
    int improving = 0;
    for (int u = 0; u < graph.num_tasks(); ++u) {
      std::set<int> candidates;
      std::map<int, double> toward;
      for (const auto& n : graph.neighbours(u)) {
        candidates.insert(n.task);
        for (const auto& m : graph.neighbours(n.task)) candidates.insert(m.task);
        if (placement[n.task] != placement[u]) toward[placement[n.task]] += n.volume;
      }
      if (pull && !toward.empty()) {
        auto heaviest = toward.begin();
        for (auto it = toward.begin(); it != toward.end(); ++it)
          if (it->second > heaviest->second) heaviest = it;
        for (int x = 0; x < graph.num_tasks(); ++x)
          if (placement[x] == heaviest->first) candidates.insert(x);
      }
      for (int x : candidates) {
        if (placement[x] == placement[u]) continue;
        Placement swapped = placement;
        std::swap(swapped[u], swapped[x]);
        improving += placement_cost(problem, cost, swapped) < end * (1 - 1e-9);
      }
    }
    CHECK(improving == 0);
  }
}
