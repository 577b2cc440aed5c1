#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "mappers/greedy_mapper.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "mappers/switch_mapper.h"
#include "support/error.h"
#include "topologies/network_factory.h"
#include "routing/internal/table_routing.h"

using namespace mapsim;

// Every mapper that needs no input of its own (placement:PATH reads a file), and the variants
// chosen by an option.
std::vector<std::string> mappers_and_variants() {
  std::vector<std::string> all;
  for (const auto* entry : mapper_registry().entries())
    if (entry->positional.empty()) all.push_back(entry->name);
  all.push_back("adjacency:split=cut");
  return all;
}

// Mappers that only accept some shapes (adjacency: 1-D/2-D grids; hypersphere: hypercubes) say so.
bool accepts(const std::string& mapper, const ProcessGraph& graph, const Network& net) {
  if (mapper.rfind("adjacency", 0) == 0) return !graph.dims.empty() && graph.dims.size() <= 2;
  if (mapper == "hypersphere") return net.shape.family == Family::Hypercube;
  return true;
}

std::string fast(const std::string& mapper) {
  return mapper == "annealing" ? "annealing:moves=5" : mapper == "best" ? "best:annealing=5" : mapper;
}

TEST_CASE("every mapper returns a valid placement over many random instances") {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    RoutedNetwork routed(make_network("irregular:nodes=96,switches=30,seed=" + std::to_string(seed)));
    for (const char* process : {"mesh:8x8", "ring:40", "random:tasks=90,edges=200", "torus:4x4x4"}) {
      ProcessGraph graph = make_process_graph(process);
      for (const std::string& allocation : {std::string("all"), std::string("random:seed=") + std::to_string(seed)}) {
        MappingProblem problem = make_problem(routed, graph, allocation, 1, seed);
        for (const std::string& name : mappers_and_variants()) {
          CAPTURE(name);
          CAPTURE(process);
          if (!accepts(name, graph, routed.network())) {
            CHECK_THROWS_AS(make_mapper(name)->map(problem), Error);
            continue;
          }
          Placement p = make_mapper(fast(name))->map(problem);
          CHECK_NOTHROW(check_placement(problem, p));
          CHECK(p == make_mapper(fast(name))->map(problem));  // deterministic
        }
      }
    }
  }
}

TEST_CASE("several slots per node: placements respect capacity") {
  RoutedNetwork routed(make_network("fattree:k=4,levels=2"));
  ProcessGraph graph = make_process_graph("mesh:8x6");
  MappingProblem problem = make_problem(routed, graph, "all", 3, 9);
  for (const std::string& name : mappers_and_variants()) {
    if (!accepts(name, graph, routed.network())) continue;
    CAPTURE(name);
    Placement p = make_mapper(fast(name))->map(problem);
    CHECK_NOTHROW(check_placement(problem, p));
  }
  CHECK_THROWS_WITH_AS(make_problem(routed, make_process_graph("mesh:8x8"), "all", 3, 1),
                       doctest::Contains("64 tasks do not fit in 48 slots"), Error);
}

TEST_CASE("check_placement rejects bad placements") {
  RoutedNetwork routed(make_network("mesh:2x2"));
  ProcessGraph graph = make_process_graph("ring:4");
  MappingProblem problem = make_problem(routed, graph, "all", 1, 1);
  CHECK_THROWS_WITH_AS(check_placement(problem, {0, 1, 2}), doctest::Contains("3 entries for 4 tasks"), Error);
  CHECK_THROWS_WITH_AS(check_placement(problem, {0, 1, 2, 2}), doctest::Contains("task 3 overfills node 2"), Error);
  CHECK_THROWS_WITH_AS(check_placement(problem, {0, 1, 2, 7}), doctest::Contains("not in the allocation"), Error);
}

TEST_CASE("metrics match brute force on small cases") {
  RoutedNetwork routed(make_network("irregular:nodes=24,switches=8,seed=5"));
  ProcessGraph graph = make_process_graph("random:tasks=20,edges=40,seed=2,volume=3");
  MappingProblem problem = make_problem(routed, graph, "all", 2, 4);
  Placement p = make_mapper("random")->map(problem);
  MappingMetrics m = evaluate(problem, p);
  double wc = 0, card = 0, traffic = 0, lat = 0;
  int dil = 0;
  std::vector<double> load(routed.network().num_channels(), 0), nic(2 * routed.network().num_nodes(), 0);
  std::vector<int> channels;
  for (const ProcessEdge& e : graph.edges()) {
    const int d = routed.hops(p[e.a], p[e.b]);
    if (p[e.a] != p[e.b])  // each way: out of one node's link, into the other's
      for (int node : {p[e.a], p[e.b]}) nic[2 * node] += e.volume, nic[2 * node + 1] += e.volume;
    wc += e.volume * d;
    card += d;
    dil = std::max(dil, d);
    lat += routed.latency(p[e.a], p[e.b]);
    if (p[e.a] != p[e.b]) traffic += e.volume;
    routed.route(p[e.a], p[e.b], channels);
    for (int c : channels) load[c] += e.volume;
    routed.route(p[e.b], p[e.a], channels);
    for (int c : channels) load[c] += e.volume;
  }
  CHECK(m.weighted_cardinality == doctest::Approx(wc));
  CHECK(m.cardinality == doctest::Approx(card / graph.edges().size()));
  CHECK(m.dilation == dil);
  CHECK(m.network_traffic == doctest::Approx(traffic));
  CHECK(m.zero_load_latency == doctest::Approx(lat / graph.edges().size()));
  CHECK(m.max_link_load == *std::max_element(load.begin(), load.end()));
  CHECK(m.max_nic_load == *std::max_element(nic.begin(), nic.end()));
  // Load variance over the 24 nodes holding 20 tasks in up to 2 slots each.
  std::vector<int> count(24, 0);
  for (int node : p) ++count[node];
  double var = 0;
  for (int c : count) var += (c - 20.0 / 24) * (c - 20.0 / 24);
  CHECK(m.load_variance == doctest::Approx(var / 24));
}

TEST_CASE("one-to-one identity on a hypercube: every edge is one hop") {
  RoutedNetwork routed(make_network("hypercube:dim=5"));
  ProcessGraph graph = make_process_graph("hypercube:dim=5");
  MappingProblem problem = make_problem(routed, graph, "all", 1, 1);
  MappingMetrics m = evaluate(problem, make_mapper("default")->map(problem));
  CHECK(m.cardinality == 1);
  CHECK(m.weighted_cardinality == 80);
  CHECK(m.load_variance == 0);
  CHECK(m.hop_bytes == 2 * 80 * 3);  // both ways, one switch link + two node links
}

TEST_CASE("buddy order lists aligned power-of-two blocks as compact sub-meshes") {
  std::vector<int> order = buddy_order({4, 4});
  CHECK(order.size() == 16);
  CHECK(std::set<int>(order.begin(), order.end()).size() == 16);
  // The first four tasks form the 2x2 block at the origin.
  CHECK(std::set<int>(order.begin(), order.begin() + 4) == std::set<int>{0, 1, 4, 5});
  CHECK(std::set<int>(order.begin(), order.begin() + 8) == std::set<int>{0, 1, 4, 5, 8, 9, 12, 13});
}

TEST_CASE("switch-based mapping beats random on the papers' networks (moh2001)") {
  double random_sum = 0, switch_sum = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RoutedNetwork routed(make_network("irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=" + std::to_string(seed)));
    ProcessGraph graph = make_process_graph("mesh:16x16");
    MappingProblem problem = make_problem(routed, graph, "all", 1, seed);
    random_sum += evaluate(problem, make_mapper("random")->map(problem)).cardinality;
    switch_sum += evaluate(problem, make_mapper("switch")->map(problem)).cardinality;
  }
  CHECK(switch_sum < 0.8 * random_sum);
}

TEST_CASE("adjacency mapping: the mesh centre as close to the up*/down* root as the slots allow, both splits") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RoutedNetwork routed(make_network("irregular:nodes=96,switches=30,seed=" + std::to_string(seed)), "updown");
    const int root = dynamic_cast<const UpDownRouting&>(routed.routing()).root();
    for (const char* process : {"mesh:8x8", "mesh:9x7", "ring:40"}) {
      ProcessGraph graph = make_process_graph(process);
      MappingProblem problem = make_problem(routed, graph, "all", 1, seed);
      const int w = graph.dims[0], h = graph.num_tasks() / w;
      for (const char* mapper : {"adjacency", "adjacency:split=cut"}) {
        CAPTURE(mapper);
        Placement p = make_mapper(mapper)->map(problem);
        auto from_root = [&](int node) { return routed.routing().hops(root, node); };
        int closest = from_root(p[0]);
        for (int node : p) closest = std::min(closest, from_root(node));
        CHECK(from_root(p[w / 2 + w * (h / 2)]) == closest);
      }
    }
  }
  CHECK_THROWS_WITH_AS(make_mapper("adjacency:split=quadrants"),
                       doctest::Contains("split must be distance (moh2010's steps 4-7) or cut"), Error);
}

TEST_CASE("unknown mapper names the known ones") {
  CHECK_THROWS_WITH_AS(make_mapper("oracle"), doctest::Contains("unknown mapper 'oracle': expected one of adjacency, annealing, best, binary, default, greedy"), Error);
  CHECK_THROWS_WITH_AS(make_mapper("bset"), doctest::Contains("unknown mapper 'bset' (did you mean 'best'?): expected one of"), Error);
}

TEST_CASE("antonio1994 Table II: default and greedy on random patterns, 128 tasks on a 7-cube, 100 runs") {
  RoutedNetwork routed(make_network("hypercube:dim=7"));
  double default_sum = 0, greedy_sum = 0;
  for (int seed = 1; seed <= 100; ++seed) {
    ProcessGraph graph = make_process_graph("random:tasks=128,edges=448,seed=" + std::to_string(seed));
    MappingProblem problem = make_problem(routed, graph, "all", 1, seed);
    default_sum += evaluate(problem, make_mapper("default")->map(problem)).cardinality;
    MappingMetrics greedy = evaluate(problem, make_mapper("greedy")->map(problem));
    CHECK(greedy.load_variance == 0);  // one-to-one
    greedy_sum += greedy.cardinality;
  }
  CHECK(default_sum / 100 == doctest::Approx(3.50).epsilon(0.05));  // paper: 3.50
  CHECK(greedy_sum / 100 == doctest::Approx(2.867).epsilon(0.05));  // paper: 2.867
}

TEST_CASE("greedy processor order: Gray code on a hypercube, BFS over switches elsewhere") {
  RoutedNetwork cube(make_network("hypercube:dim=3"));
  ProcessGraph ring = make_process_graph("ring:8");
  MappingProblem problem = make_problem(cube, ring, "all", 1, 1);
  CHECK(locality_slot_order(problem) == std::vector<int>{0, 1, 3, 2, 6, 7, 5, 4});
  // A ring follows the Gray code around the cube: every edge is one hop.
  CHECK(evaluate(problem, make_mapper("greedy")->map(problem)).cardinality == 1);
  RoutedNetwork tree(make_network("tree2:switches=2,nodes_per_switch=2"));
  MappingProblem p2 = make_problem(tree, make_process_graph("ring:4"), "all", 1, 1);
  CHECK(locality_slot_order(p2) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("error kinds: best skips a candidate that does not apply, never a failure") {
  static_assert(std::is_base_of_v<Error, NotApplicable>, "not applicable is bad input to the user");
  static_assert(!std::is_base_of_v<Error, InternalError>, "internal failures are not skippable input errors");
  RoutedNetwork routed(make_network("mesh:4x4x4"));
  ProcessGraph cube = make_process_graph("mesh:4x4x4");
  MappingProblem problem = make_problem(routed, cube, "all", 1, 1);
  CHECK_THROWS_AS(make_mapper("adjacency")->map(problem), NotApplicable);  // AM maps 1-D and 2-D grids only
  const Placement best = make_mapper("best")->map(problem);
  check_placement(problem, best);
  CHECK(evaluate(problem, best).weighted_cardinality == cube.edges().size());  // the identity embedding: 1 hop per edge
}

TEST_CASE("random:unit=switch keeps each router's slots together and shuffles the routers over seeds") {
  RoutedNetwork routed(make_network("dragonfly:a=4,p=3,h=2"));  // 36 routers of 3 nodes
  const Network& net = routed.network();
  ProcessGraph graph = make_process_graph("ring:108");
  std::set<int> first_routers;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    MappingProblem problem = make_problem(routed, graph, "all", 1, seed);
    Placement p = make_mapper("random:unit=switch")->map(problem);
    check_placement(problem, p);
    for (int t = 0; t < 108; t += 3) {
      CHECK(net.node(p[t]).switch_id == net.node(p[t + 1]).switch_id);
      CHECK(net.node(p[t]).switch_id == net.node(p[t + 2]).switch_id);
    }
    first_routers.insert(net.node(p[0]).switch_id);
  }
  CHECK(first_routers.size() > 5);
  CHECK_THROWS_WITH_AS(make_mapper("random:unit=group"), doctest::Contains("unit must be node or switch"), Error);
}
