// Ranks on cores: a node of two 4-core sockets keeps a ring's halves per socket (cheaper than
// interleaving them), the metrics cost ranks on one node by the level they share, multisection reaches
// the optimum on a ring, and --slots is bounded by the node's cores.
#include <doctest/doctest.h>

#include <set>

#include "mappers/core_placement.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

constexpr double ts = 2e-6, socket_latency = 100e-9, machine_latency = 400e-9;
const std::string kTwoSocket = MAPSIM_SOURCE_DIR "/configs/nodes/two-socket.yaml";  // the same latencies

// A ring of 8 whose neighbours have scattered ranks (rank order would interleave the sockets).
const std::vector<int> kRing = {0, 5, 2, 7, 4, 1, 6, 3};
ProcessGraph scattered_ring() {
  ProcessGraph graph(8);
  for (int i = 0; i < 8; ++i) graph.add_edge(kRing[i], kRing[(i + 1) % 8], 1000);
  return graph;
}

int crossing_edges(const ProcessGraph& graph, const std::vector<int>& cores) {
  int crossing = 0;
  for (const ProcessEdge& e : graph.edges()) crossing += cores[e.a] / 4 != cores[e.b] / 4;
  return crossing;
}

}  // namespace

TEST_CASE("a ring of 8 on one 2x4-core node: its halves per socket, cheaper than interleaved") {
  RoutedNetwork routed(make_network("mesh:1x1,node=" + kTwoSocket));
  const ProcessGraph ring = scattered_ring();
  const MappingProblem problem = make_problem(routed, ring, "all", 8, 1);
  const Placement placement(8, 0);
  const std::vector<int> cores = place_on_cores(problem, placement);
  CHECK(std::set<int>(cores.begin(), cores.end()).size() == 8);  // each rank its own core
  CHECK(crossing_edges(ring, cores) == 2);                       // the fewest a ring split in two can have
  for (int half : {0, 4}) {                                      // each socket holds 4 consecutive ranks of the ring
    std::set<int> socket;
    for (int i = 0; i < 8; ++i)
      if (cores[kRing[i]] / 4 == cores[kRing[half]] / 4) socket.insert(i);
    const int first = *socket.begin(), last = *socket.rbegin();
    CHECK(socket.size() == 4);
    CHECK((last - first == 3 || (socket.count(0) && socket.count(7))));
  }
  const double halves = 1000 * (6 * (ts + socket_latency) + 2 * (ts + machine_latency));
  CHECK(node_cost(problem, placement, cores) == doctest::Approx(halves).epsilon(1e-12));
  const std::vector<int> interleaved = {0, 4, 1, 5, 2, 6, 3, 7};  // ring neighbour i -> socket i mod 2
  std::vector<int> interleaved_cores(8);
  for (int i = 0; i < 8; ++i) interleaved_cores[kRing[i]] = interleaved[i];
  CHECK(crossing_edges(ring, interleaved_cores) == 8);
  CHECK(node_cost(problem, placement, interleaved_cores) ==
        doctest::Approx(8 * 1000 * (ts + machine_latency)).epsilon(1e-12));
  CHECK(node_cost(problem, placement, cores) < node_cost(problem, placement, interleaved_cores));
  // Rank order (how launchers bind without a rankfile) puts ranks 0-3 on socket 0: 6 of the 8 edges cross.
  CHECK(crossing_edges(ring, cores_in_rank_order(placement)) == 6);

  // The metrics cost ranks on one node by their level: Gamma_C and the zero-load latency.
  const MappingMetrics m = evaluate(problem, placement);
  CHECK(m.gamma_c == doctest::Approx(halves).epsilon(1e-12));
  CHECK(m.zero_load_latency == doctest::Approx(halves / 1000 / 8).epsilon(1e-12));
  CHECK(place_on_cores(problem, placement) == cores);  // deterministic
}

TEST_CASE("without node insides a node's ranks take its slots in rank order and cost 0") {
  RoutedNetwork routed(make_network("mesh:1x1"));
  const ProcessGraph ring = scattered_ring();
  const MappingProblem problem = make_problem(routed, ring, "all", 8, 1);
  CHECK(place_on_cores(problem, Placement(8, 0)) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(evaluate(problem, Placement(8, 0)).gamma_c == 0);
  CHECK(evaluate(problem, Placement(8, 0)).zero_load_latency == 0);
}

TEST_CASE("multisection on 2x4-core nodes: a ring of 32 in arcs of 8, each split once between sockets") {
  RoutedNetwork routed(make_network("torus:2x2,node=" + kTwoSocket));
  const ProcessGraph ring = make_process_graph("ring:32");
  const MappingProblem problem = make_problem(routed, ring, "all", 8, 1);
  const Placement placement = make_mapper("multisection")->map(problem);
  check_placement(problem, placement);
  int crossing_nodes = 0;
  for (const ProcessEdge& e : ring.edges()) crossing_nodes += placement[e.a] != placement[e.b];
  CHECK(crossing_nodes == 4);
  // Inside each node: 7 ring edges, one of them between the sockets.
  const double inside = 4 * ring.edges()[0].volume * (6 * (ts + socket_latency) + (ts + machine_latency));
  CHECK(node_cost(problem, placement, place_on_cores(problem, placement)) == doctest::Approx(inside).epsilon(1e-12));
}

TEST_CASE("slots per node are at most the node's cores") {
  RoutedNetwork routed(make_network("torus:2x2,node=" + kTwoSocket));
  const ProcessGraph ring = make_process_graph("ring:32");
  CHECK(error_of([&] { make_problem(routed, ring, "all", 9, 1); }) ==
        "slots per node (9) exceed the 8 slots of the network's nodes (machine > 2 package > 4 core (8 slots)); give "
        "--slots 8 or fewer");
  const MappingProblem problem = make_problem(routed, ring, "all", 8, 1);
  Placement crowded(32, 0);  // what check_placement refuses before any metric; place_on_cores refuses it too
  for (int t = 16; t < 32; ++t) crowded[t] = 1 + t % 3;
  CHECK(error_of([&] { place_on_cores(problem, crowded); }) ==
        "node node-0 holds 16 ranks, more than its 8 slots (machine > 2 package > 4 core (8 slots))");
}
