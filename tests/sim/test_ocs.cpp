// Optical circuits (takizawa2008): the ocs spec, large-message traffic, SP pathway assignment on the
// paper's Neighbor pattern, forwarding over circuits (multi-hop, balance, fallback).
#include <doctest/doctest.h>

#include <set>

#include "mappers/process_graph.h"
#include "sim/ocs.h"
#include "sim/simulate.h"
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
  CHECK(error_of([] { parse_ocs("ocs:policy=xp", tree()); }).find("policy must be sp, cp or dynamic") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:nodes=1.5", tree()); }).find("nodes must be all, a fraction") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:pathway=3", tree()); }).find("did you mean 'pathways'") != std::string::npos);
  CHECK(error_of([] { parse_ocs("ocs:bandwidth=0Gbps", tree()); }).find("bad bandwidth '0Gbps': must be above 0") != std::string::npos);
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
  // Node 5 (S1) to node 70 (S3): over either S1-S2 circuit, then 34-64.
  CHECK(f.route(5, 70, 0) == std::vector<int>{0, 2});
  CHECK(f.route(5, 70, 1) == std::vector<int>{1, 2});  // the other parallel circuit
  CHECK(f.route(1, 70, 0) == std::vector<int>{1, 2});  // node 1 owns circuit 1: no relay needed
  CHECK(f.route(5, 33, 0) == std::vector<int>{1});     // circuit 1 ends at the destination
  CHECK(f.route(70, 5, 0) == std::vector<int>{2, 0});
  CHECK(f.route(5, 100, 0).empty());  // S4: no optical path, EPS
  CHECK(f.route(32, 40, 0).empty());  // one switch
  CHECK(f.metric(1, 3) == doctest::Approx(2 / 4e9));
  CHECK(error_of([] { OcsForwarding(tree(), {{0, 1}}, 4e9); }).find("joins two nodes of switch 1") != std::string::npos);
  const OcsForwarding none(tree(), {}, 4e9);
  CHECK(none.route(1, 40, 0).empty());
}

namespace {

SimResult run_hybrid(const std::string& trace_text, const Placement& placement, const std::string& ocs_spec,
                     std::string model = "store-and-forward") {
  static const RoutedNetwork routed(make_network("tree2:switches=4,nodes_per_switch=32"));
  SimOptions options;
  options.model = model;
  options.eager_threshold = 1e12;  // sends complete at once; only delivery times matter here
  options.record_messages = true;
  options.ocs = parse_ocs(ocs_spec, routed.network());
  return simulate(routed, placement, read_ti_trace(temp_file("ocs-trace.txt", trace_text)), options);
}

// Rank 0 (node 0, switch S1) sends 1 MB to rank 1 (node 32, S2); rank 1 then answers.
const char* kPingPong = "0 init\n0 send 1 0 1000000\n0 recv 1 0 1000000\n1 init\n1 recv 0 0 1000000\n1 send 0 0 1000000\n";

}  // namespace

TEST_CASE("a circuit is usable only after its set-up delay; the next message crosses at once") {
  const SimResult r = run_hybrid(kPingPong, {0, 32}, "ocs:pathways=1,threshold=8192,setup=10ms");
  REQUIRE(r.circuits.size() == 1);
  CHECK(r.circuits[0] == std::pair{0, 32});
  CHECK(r.optical_messages == 2);
  REQUIRE(r.message_log.size() == 2);
  const double wire = 1000000 + 16, bw = 4e9, lat = 80e-9, ts = 2e-6;
  // The sender is the relay: its message waits at the optical port until 10 ms, then crosses.
  const double first = 10e-3 + wire / bw + lat;
  CHECK(r.message_log[0].delivered == doctest::Approx(first).epsilon(1e-9));
  CHECK(r.message_log[1].delivered == doctest::Approx(first + ts + wire / bw + lat).epsilon(1e-9));
  CHECK(r.setup_wait == doctest::Approx(10e-3).epsilon(1e-9));  // only the first message waited
  CHECK(r.circuit_loads[0].bytes == 2 * wire);  // both directions of the one circuit
  CHECK(r.circuit_loads[0].messages == 2);
  CHECK(r.switch_bytes[0] == 0);             // S0 never used
  CHECK(r.eps_only_makespan > 0);
}

TEST_CASE("without waiting, early messages fall back to the EPS; small messages always do") {
  const SimResult early = run_hybrid(kPingPong, {0, 32}, "ocs:pathways=1,threshold=8192,setup=10ms,setup_wait=0");
  CHECK(early.optical_messages == 0);  // both messages start long before 10 ms
  CHECK(early.makespan == early.eps_only_makespan);
  const SimResult ready = run_hybrid(kPingPong, {0, 32}, "ocs:pathways=1,threshold=8192,setup=0ms,setup_wait=0");
  CHECK(ready.optical_messages == 2);
  CHECK(ready.makespan < ready.eps_only_makespan);  // 4 GB/s circuit against 1.25 GB/s node links
  const SimResult small = run_hybrid(kPingPong, {0, 32}, "ocs:pathways=1,threshold=2MB,setup=0ms");
  CHECK(small.circuits.empty());  // no message above the threshold: no pathway assigned
  CHECK(small.optical_messages == 0);
  CHECK_THROWS_WITH_AS(run_hybrid(kPingPong, {0, 32}, "ocs:pathways=1", "flow"),
                       doctest::Contains("need the store-and-forward or packet model"), Error);
}

TEST_CASE("relays forward store-and-forward over EPS legs; S0 carries nothing once 3 pathways chain the switches") {
  // Neighbor (8 x 16 grid, 40 MB, 5 iterations) in rank order on 4 switches of 32 nodes.
  static const RoutedNetwork routed(make_network("tree2:switches=4,nodes_per_switch=32"));
  const Trace neighbor = make_workload("exchange:size=40MB,iterations=5", make_process_graph("mesh:16x8"));
  SimOptions options;
  options.model = "store-and-forward";
  options.ocs = parse_ocs("ocs:pathways=3,threshold=8192,setup=0ms", routed.network());
  const SimResult three = simulate(routed, sequential(), neighbor, options);
  CHECK(three.circuits.size() == 3);
  CHECK(three.switch_bytes[0] == 0);
  CHECK(three.optical_messages == 2 * 3 * 16 * 5);  // every cross-switch message
  // Relays carry the others' messages on their node links: the busiest NIC exceeds the EPS-only one.
  double max_nic = 0;
  for (const PortLoad& l : three.node_out) max_nic = std::max(max_nic, l.bytes);
  CHECK(max_nic > 5 * 40e6 * 2);
  options.ocs = parse_ocs("ocs:pathways=2,threshold=8192,setup=0ms", routed.network());
  const SimResult two = simulate(routed, sequential(), neighbor, options);
  CHECK(two.switch_bytes[0] > 0);  // one switch pair has no optical path: EPS fallback through S0
  options.ocs = parse_ocs("ocs:pathways=48,threshold=8192,setup=0ms", routed.network());
  const SimResult all = simulate(routed, sequential(), neighbor, options);
  CHECK(all.makespan < three.makespan);  // direct circuits: no relay congestion
}

TEST_CASE("dynamic policy: circuits on demand, a busy port falls back to the EPS, an idle one is released") {
  const double wire = 1000000 + 16, bw = 4e9, lat = 80e-9, ts = 2e-6;
  // The first large message sets its circuit up (10 ms); the answer uses it at once.
  const SimResult pp = run_hybrid(kPingPong, {0, 32}, "ocs:policy=dynamic,threshold=8192,setup=10ms");
  REQUIRE(pp.circuits.size() == 1);
  const double first = 10e-3 + wire / bw + lat;
  CHECK(pp.message_log[0].delivered == doctest::Approx(first).epsilon(1e-9));
  CHECK(pp.message_log[1].delivered == doctest::Approx(first + ts + wire / bw + lat).epsilon(1e-9));
  // Rank 0 talks to rank 1, waits for a small (EPS) answer, then talks to rank 2: its only port is
  // released (idle by then) and set up again towards rank 2: twice the delay.
  const char* three = "0 send 1 0 1000000\n0 recv 1 1 10\n0 send 2 0 1000000\n"
                      "1 recv 0 0 1000000\n1 send 0 1 10\n2 recv 0 0 1000000\n";
  const SimResult r = run_hybrid(three, {0, 32, 64}, "ocs:policy=dynamic,threshold=8192,setup=10ms");
  REQUIRE(r.circuits.size() == 2);
  CHECK(r.circuits[1] == std::pair{0, 64});
  CHECK(r.optical_messages == 2);
  const MessageRecord& last = r.message_log.back();
  CHECK(last.dst == 2);
  CHECK(last.delivered - last.started == doctest::Approx(20e-3 + wire / bw + lat).epsilon(1e-9));
  // Without waiting, both large sends start before any circuit is up: the EPS carries them.
  const char* burst = "0 send 1 0 1000000\n0 send 2 0 1000000\n1 recv 0 0 1000000\n2 recv 0 0 1000000\n";
  const SimResult b = run_hybrid(burst, {0, 32, 64}, "ocs:policy=dynamic,threshold=8192,setup=10ms,setup_wait=0");
  CHECK(b.optical_messages == 0);
  CHECK(b.circuits.size() == 1);  // the first request still sets a circuit up; the second finds node 0's port busy
  // A budget of no circuits: the EPS only.
  const SimResult none = run_hybrid(kPingPong, {0, 32}, "ocs:policy=dynamic,threshold=8192,circuits=0");
  CHECK(none.circuits.empty());
  CHECK(none.makespan == none.eps_only_makespan);
}
