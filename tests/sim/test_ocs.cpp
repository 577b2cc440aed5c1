// Optical circuits (takizawa2008): the ocs spec, large-message traffic, SP pathway assignment on the
// paper's Neighbor pattern, forwarding over circuits (multi-hop, balance, fallback).
#include <doctest/doctest.h>

#include <set>

#include "mappers/process_graph.h"
#include "sim/ocs.h"
#include "sim/workload.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// takizawa2008 Table 1: S0 on top of S1..S4, 32 nodes each (node n on switch 1 + n / 32).
const Network& tree() {
  static const Network net = make_network("tree2:switches=4,nodes_per_switch=32");
  return net;
}

// "Neighbor": an 8 x 16 grid (16 ranks per row), 40 MB to each of 4 neighbours, 5 iterations.
std::map<std::pair<int, int>, PairTraffic> neighbor_traffic() {
  const ProcessGraph grid = make_process_graph("mesh:16x8");
  return large_message_traffic(make_workload("exchange:size=40MB,iterations=5", grid), 8192);
}

Placement sequential() {
  Placement p(128);
  for (int r = 0; r < 128; ++r) p[r] = r;
  return p;
}

// CP's grouping: four 8 x 4 blocks (4 columns each) on the four switches.
Placement blocks() {
  Placement p(128);
  for (int r = 0; r < 128; ++r) {
    const int x = r % 16, y = r / 16;
    p[r] = (x / 4) * 32 + (x % 4) + 4 * y;
  }
  return p;
}

OcsConfig config(int pathways) {
  OcsConfig ocs = parse_ocs("ocs:pathways=" + std::to_string(pathways) + ",threshold=8192", tree());
  return ocs;
}

std::set<std::pair<int, int>> switch_pairs(const std::vector<Circuit>& circuits) {
  std::set<std::pair<int, int>> pairs;
  for (const Circuit& c : circuits) {
    const int a = tree().node(c.a).switch_id, b = tree().node(c.b).switch_id;
    pairs.insert({std::min(a, b), std::max(a, b)});
  }
  return pairs;
}

}  // namespace

TEST_CASE("ocs spec: defaults, optical node sets, errors") {
  const OcsConfig d = parse_ocs("ocs", tree());
  CHECK(d.bandwidth == 4e9);
  CHECK(d.latency == doctest::Approx(80e-9));
  CHECK(d.setup_delay == doctest::Approx(10e-3));
  CHECK(d.threshold == doctest::Approx(4e9 * 80e-9));  // the circuit's bandwidth-delay product
  CHECK(d.circuit_budget == -1);
  CHECK(std::count(d.optical.begin(), d.optical.end(), true) == 128);
  const OcsConfig half = parse_ocs("ocs:nodes=0.5,policy=cp,setup=1ms,circuits=8", tree());
  CHECK(std::count(half.optical.begin(), half.optical.end(), true) == 64);
  CHECK(half.optical[0]);
  CHECK(half.optical[15]);
  CHECK_FALSE(half.optical[16]);  // the first 16 of every switch
  CHECK(half.optical[32]);
  CHECK(half.policy == PathwayPolicy::CommunicationPartitioning);
  CHECK(half.setup_delay == doctest::Approx(1e-3));
  const OcsConfig listed = parse_ocs("ocs:nodes=list:" + temp_file("ocs-nodes.txt", "node-3\n40\n"), tree());
  CHECK(std::count(listed.optical.begin(), listed.optical.end(), true) == 2);
  CHECK(listed.optical[40]);
  CHECK(error_of([] { parse_ocs("ocs:policy=xp", tree()); }).find("policy must be sp or cp") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:nodes=1.5", tree()); }).find("nodes must be all, a fraction") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:pathway=3", tree()); }).find("did you mean 'pathways'") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:bandwidth=0Gbps", tree()); }).find("bandwidth must be > 0") != std::string::npos);
}

TEST_CASE("large-message traffic counts sends above the threshold per rank pair") {
  const auto traffic = neighbor_traffic();
  CHECK(traffic.size() == 7 * 16 + 8 * 15);  // the grid's edges
  for (const auto& [pair, t] : traffic) {
    CHECK(t.messages == 10);  // both directions, 5 iterations
    CHECK(t.bytes == 10 * 40e6);
  }
  CHECK(large_message_traffic(make_workload("exchange:size=8192", make_process_graph("ring:4")), 8192).empty());
}

TEST_CASE("SP on Neighbor: 48 pathways with ranks in order, 24 on CP's grouping, a chain of 3 first") {
  const auto traffic = neighbor_traffic();
  const std::vector<Circuit> sp = assign_pathways(tree(), sequential(), traffic, config(64));
  CHECK(sp.size() == 48);  // 16 vertical neighbour pairs across each of 3 switch boundaries (paper: 48 used)
  std::set<int> ports;
  for (const Circuit& c : sp) {
    CHECK(c.b - c.a == 16);  // rank r and r + 16, one row apart
    CHECK(ports.insert(c.a).second);
    CHECK(ports.insert(c.b).second);  // one circuit per optical port
  }
  CHECK(assign_pathways(tree(), blocks(), traffic, config(64)).size() == 24);  // paper: 24 used
  const std::vector<Circuit> three = assign_pathways(tree(), sequential(), traffic, config(3));
  CHECK(switch_pairs(three) == std::set<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 4}});  // a chain over the 4 switches
  OcsConfig budget = config(64);
  budget.circuit_budget = 10;
  CHECK(assign_pathways(tree(), sequential(), traffic, budget).size() == 10);
  OcsConfig dark = config(64);
  dark.optical.assign(128, false);
  CHECK(assign_pathways(tree(), sequential(), traffic, dark).empty());
}

TEST_CASE("SP order: switch pairs take turns; most messages, then bytes, then the smallest rank") {
  std::map<std::pair<int, int>, PairTraffic> traffic;
  traffic[{0, 32}] = {2, 100};   // S1-S2
  traffic[{1, 33}] = {5, 100};   // S1-S2, more messages
  traffic[{2, 64}] = {1, 10};    // S1-S3
  traffic[{3, 65}] = {1, 20};    // S1-S3, more bytes
  traffic[{4, 5}] = {9, 900};    // one switch: never a circuit
  traffic[{1, 66}] = {7, 700};   // S1-S3, but rank 1's node is taken by then
  const std::vector<Circuit> c = assign_pathways(tree(), sequential(), traffic, config(10));
  REQUIRE(c.size() == 4);
  CHECK((c[0].a == 1 && c[0].b == 33));  // round 1, S1-S2: 5 messages before 2
  CHECK((c[1].a == 3 && c[1].b == 65));  // round 1, S1-S3: 1-66 has 7 but node 1's port is taken; 20 bytes before 10
  CHECK((c[2].a == 0 && c[2].b == 32));  // round 2
  CHECK((c[3].a == 2 && c[3].b == 64));
}

TEST_CASE("forwarding: multi-hop through relay switches, parallel circuits balanced, EPS fallback") {
  // S1 = S2 (two circuits), S2 - S3, nothing to S4.
  const OcsForwarding f(tree(), {{0, 32}, {1, 33}, {34, 64}}, 4e9);
  CHECK(f.hops(1, 2) == 1);
  CHECK(f.hops(1, 3) == 2);
  CHECK(f.hops(3, 1) == 2);
  CHECK(f.hops(1, 4) == -1);
  CHECK(f.route(1, 3, 0) == std::vector<int>{0, 2});
  CHECK(f.route(1, 3, 1) == std::vector<int>{1, 2});  // the other parallel circuit
  CHECK(f.route(3, 1, 0) == std::vector<int>{2, 0});
  CHECK(f.route(1, 4, 0).empty());  // no optical path: EPS
  CHECK(f.route(2, 2, 0).empty());
  CHECK(f.metric(1, 3) == doctest::Approx(2 / 4e9));
  CHECK(error_of([] { OcsForwarding(tree(), {{0, 1}}, 4e9); }).find("joins two nodes of switch 1") != std::string::npos);
  const OcsForwarding none(tree(), {}, 4e9);
  CHECK(none.route(1, 2, 0).empty());
}
