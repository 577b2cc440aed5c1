// libmapsim-reorder.so's decisions without MPI (tracer/reorder/): the graphs of the topology calls,
// the new ranks of a placement, and the identity with its reason on each failure.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "mappers/mapper.h"
#include "test_files.h"
#include "tracer/reorder/reorder_graph.h"
#include "tracer/reorder/reorder_plan.h"

using namespace mapsim;
using namespace mapsim::reorder;

namespace {

std::vector<std::pair<int, int>> pairs(const ProcessGraph& g) {
  std::vector<std::pair<int, int>> out;
  for (const ProcessEdge& e : g.edges()) out.emplace_back(e.a, e.b);
  return out;
}

Request request(const ProcessGraph& graph, std::vector<std::string> hosts) {
  Request r;
  r.call = "MPI_Cart_create";
  r.graph = &graph;
  r.processor_names = std::move(hosts);
  r.world_ranks.resize(r.processor_names.size());
  std::iota(r.world_ranks.begin(), r.world_ranks.end(), 0);
  return r;
}

std::vector<int> identity(int n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

}  // namespace

TEST_CASE("reorder: a Cartesian grid is mapsim's mesh or torus, MPI's last dimension fastest") {
  const ProcessGraph mesh = cartesian_graph({4, 8}, {0, 0});
  const ProcessGraph spec = make_process_graph("mesh:8x4");
  CHECK(mesh.family == "mesh");
  CHECK(mesh.dims == std::vector<int>{8, 4});
  CHECK(pairs(mesh) == pairs(spec));
  const ProcessGraph torus = cartesian_graph({3, 3}, {1, 1});
  CHECK(torus.family == "torus");
  CHECK(torus.periodic);
  CHECK(pairs(torus) == pairs(make_process_graph("torus:3x3")));
  // Periodic in MPI's dimension 0 only (extent 3, mapsim's y): the mesh plus x -- x + 8 per column.
  const ProcessGraph mixed = cartesian_graph({3, 4}, {1, 0});
  CHECK(mixed.family == "mesh");
  CHECK_FALSE(mixed.periodic);
  CHECK(mixed.edges().size() == make_process_graph("mesh:4x3").edges().size() + 4);
  const std::vector<std::pair<int, int>> mixed_pairs = pairs(mixed);
  for (int x = 0; x < 4; ++x) CHECK(std::count(mixed_pairs.begin(), mixed_pairs.end(), std::make_pair(x, x + 8)) == 1);
  const ProcessGraph four = cartesian_graph({2, 2, 2, 2}, {0, 0, 0, 0});
  CHECK(four.family == "graph");
  CHECK(four.dims.empty());
  CHECK(four.edges().size() == 32);
}

TEST_CASE("reorder: a pair's volume is half the sum of its two directions; self-loops dropped") {
  const ProcessGraph g = edge_graph(4, {{0, 1, 10}, {1, 0, 10}, {2, 3, 4}, {3, 3, 7}, {1, 2, 1}, {2, 1, 1}});
  REQUIRE(g.edges().size() == 3);
  CHECK(g.edges()[0].a == 0);
  CHECK(g.edges()[0].b == 1);
  CHECK(g.edges()[0].volume == 10);
  CHECK(g.edges()[1].volume == 1);  // {1, 2}
  CHECK(g.edges()[2].volume == 2);  // {2, 3}: one direction of 4
  CHECK(error_of([] { edge_graph(2, {{0, 2, 1}}); }) == "an edge 0 -> 2 outside ranks 0..1");
  const int index[] = {2, 3, 4}, edges[] = {1, 2, 0, 0};
  const std::vector<DirectedEdge> listed = graph_create_edges(3, index, edges);
  REQUIRE(listed.size() == 4);
  CHECK(listed[2].from == 1);
  CHECK(listed[2].to == 0);
  CHECK(listed[3].from == 2);
}

TEST_CASE("reorder: the tasks placed on a node go to its processes in old rank order") {
  // Processes 0 and 2 on node 5, 1 and 3 on node 7; tasks 0, 1 on node 7, tasks 2, 3 on node 5.
  CHECK(ranks_for_placement({7, 7, 5, 5}, {5, 7, 5, 7}) == std::vector<int>{2, 0, 3, 1});
  CHECK_THROWS_AS(ranks_for_placement({7, 7, 7, 5}, {5, 7, 5, 7}), InternalError);
}

TEST_CASE("reorder: a plan puts rank r where the mapper put task r, with unequal process counts") {
  Settings s;
  s.network = "tree2:switches=2,nodes_per_switch=2";  // node-0, node-1 | node-2, node-3
  s.mapper = "best";
  // A ring of 6 whose processes sit 3 on node-0, 1 on node-1, 2 on node-2, scattered.
  ProcessGraph ring = make_process_graph("ring:6");
  const Plan plan = plan_reorder(request(ring, {"node-0", "node-2", "node-1", "node-0", "node-2", "node-0"}), s);
  REQUIRE(plan.reordered);
  CHECK(plan.warning.empty());
  std::vector<int> sorted = plan.new_rank;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == identity(6));
  CHECK(plan.log.find("3 nodes occupied: node-0x3 node-1x1 node-2x2") != std::string::npos);
  // Each node runs as many new ranks as it has processes, and the ring's neighbours are closer.
  const std::vector<std::string> host = {"node-0", "node-2", "node-1", "node-0", "node-2", "node-0"};
  std::vector<std::string> node_of_rank(6);
  for (int p = 0; p < 6; ++p) node_of_rank[plan.new_rank[p]] = host[p];
  int split = 0;  // ring edges between switches (node-0, node-1 | node-2)
  for (int t = 0; t < 6; ++t) split += (node_of_rank[t] == "node-2") != (node_of_rank[(t + 1) % 6] == "node-2");
  CHECK(split == 2);
}

TEST_CASE("reorder: every failure keeps the identity and says why") {
  Settings s;
  s.network = "tree2:switches=2,nodes_per_switch=2";
  const ProcessGraph ring = make_process_graph("ring:4");
  auto fails = [&](const Settings& settings, const std::vector<std::string>& hosts) {
    const Plan plan = plan_reorder(request(ring, hosts), settings);
    CHECK_FALSE(plan.reordered);
    CHECK(plan.new_rank == identity(4));
    CHECK(plan.log.find("identity order kept") != std::string::npos);
    return plan.warning;
  };
  const std::vector<std::string> hosts = {"node-0", "node-3", "node-1", "node-2"};
  CHECK(fails(s, {"node-0", "nowhere", "node-1", "node-2"}).find("unknown host 'nowhere' (rank 1)") != std::string::npos);
  // A domain is dropped when the name is not found as is.
  CHECK(plan_reorder(request(ring, {"node-0.cluster", "node-3", "node-1", "node-2"}), s).reordered);
  Settings small = s;
  small.max_edges = 3;
  CHECK(fails(small, hosts).find("the graph has 4 edges, above MAPSIM_REORDER_MAX_EDGES=3") != std::string::npos);
  Settings unset = s;
  unset.network.clear();
  CHECK(fails(unset, hosts).find("MAPSIM_NETWORK is not set") != std::string::npos);
  Settings bad_mapper = s;
  bad_mapper.mapper = "bset";
  CHECK(fails(bad_mapper, hosts).find("unknown mapper 'bset'") != std::string::npos);
  Settings bad_network = s;
  bad_network.network = "tree2:switches=0";
  CHECK_FALSE(fails(bad_network, hosts).empty());
  // The hostfile's line of each world rank replaces the processor name.
  Settings listed = s;
  listed.hostfile = temp_file("reorder-hosts", "# one host per world rank\nnode-0\nnode-3\n\nnode-1\n");
  CHECK(fails(listed, {"a", "b", "c", "d"}).find("has 3 hosts; MPI_COMM_WORLD rank 3 has none") != std::string::npos);
  listed.hostfile = temp_file("reorder-hosts", "node-0\nnode-3\nnode-1\nnode-2\n");
  CHECK(plan_reorder(request(ring, {"a", "b", "c", "d"}), listed).reordered);
}
