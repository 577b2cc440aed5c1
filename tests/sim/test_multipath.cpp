// Path selection over multipath routings in the models (ECMP, spraying, adaptive, UGAL), and
// open-loop synthetic traffic against its analytic limits.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "sim/internal/path_choice.h"
#include "sim/simulate.h"
#include "sim/traffic.h"
#include "sim/workload.h"
#include "support/error.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// 128 nodes, radix 16: 16 leaves of 8 nodes under 8 spines (switch ids 16..23).
const char* kLeafSpine = "fattree:nodes=128,radix=16,levels=2";

SimResult alltoall(const RoutedNetwork& routed, const std::string& model, PathSelection selection, uint64_t seed = 1) {
  const int n = routed.network().num_nodes();
  Trace trace = make_workload("alltoall:size=8KiB", make_process_graph("ring:" + std::to_string(n)));
  Placement placement(n);
  std::iota(placement.begin(), placement.end(), 0);
  SimOptions options;
  options.model = model;
  options.path_selection = selection;
  options.seed = seed;
  return simulate(routed, placement, trace, options);
}

// (max - min) / mean of the bytes the spines received.
double spine_spread(const SimResult& r) {
  const auto first = r.switch_bytes.begin() + 16, last = r.switch_bytes.end();
  const double mean = std::accumulate(first, last, 0.0) / 8;
  return (*std::max_element(first, last) - *std::min_element(first, last)) / mean;
}

}  // namespace

TEST_CASE("all-to-all on a leaf-spine: every spine carries the same bytes under balanced tables, ECMP, spraying and adaptive") {
  RoutedNetwork routed(make_network(kLeafSpine));
  const SimResult tables = alltoall(routed, "flow", PathSelection::Deterministic);
  CHECK(spine_spread(tables) == 0);
  // Each spine receives 1/8 of the leaf-to-leaf bytes: 128 x 120 pairs x (8 KiB + 16 B envelope).
  CHECK(tables.switch_bytes[16] == doctest::Approx(128.0 * 120 * (8192 + 16) / 8));
  CHECK(spine_spread(alltoall(routed, "flow", PathSelection::Ecmp)) < 0.10);
  CHECK(spine_spread(alltoall(routed, "packet", PathSelection::Spray)) < 0.10);
  const SimResult adaptive = alltoall(routed, "packet", PathSelection::Adaptive);
  CHECK(spine_spread(adaptive) < 0.10);
  // Bytes are conserved whatever the paths: every leaf-to-leaf message crosses one spine.
  double spine_total = 0;
  for (int s = 16; s < 24; ++s) spine_total += adaptive.switch_bytes[s];
  CHECK(spine_total == doctest::Approx(128.0 * 120 * (8192 + 16)));
  // The same seed gives the same run. The papers' updown table breaks ties by lowest id: every
  // leaf-to-leaf byte through one spine (ECMP over its legal paths would spread them again).
  CHECK(alltoall(routed, "packet", PathSelection::Adaptive).makespan == adaptive.makespan);
  RoutedNetwork tree(make_network(kLeafSpine), "updown");
  const SimResult funnel = alltoall(tree, "flow", PathSelection::Deterministic);
  CHECK(std::count_if(funnel.switch_bytes.begin() + 16, funnel.switch_bytes.end(), [](double b) { return b > 0; }) == 1);
  CHECK(funnel.makespan > 4 * tables.makespan);
}

TEST_CASE("per-packet path choices need a port model; the error names the routing or the selection") {
  RoutedNetwork routed(make_network(kLeafSpine));
  CHECK_THROWS_WITH_AS(alltoall(routed, "flow", PathSelection::Adaptive),
                       doctest::Contains("path selection adaptive chooses paths per packet"), Error);
  RoutedNetwork dragonfly(make_network("dragonfly:a=4,p=2,h=2"), "ugal-g");
  CHECK_THROWS_WITH_AS(alltoall(dragonfly, "flow", PathSelection::Deterministic),
                       doctest::Contains("ugal-g routing chooses paths per packet"), Error);
  CHECK_THROWS_WITH_AS(parse_path_selection("random"), doctest::Contains("expected deterministic, ecmp, spray or adaptive"),
                       Error);
}

TEST_CASE("traffic patterns: permutations where the pattern is one, group-shift into the next group") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");  // 72 nodes, groups of 8
  Rng rng(1);
  for (const char* name : {"tornado", "shift", "shift:by=5"}) {
    const TrafficPattern pattern = make_traffic_pattern(net, name);
    std::set<int> seen;
    for (int s = 0; s < net.num_nodes(); ++s) seen.insert(pattern(s, rng));
    CHECK(seen.size() == 72u);
  }
  const TrafficPattern worst = make_traffic_pattern(net, "group-shift");
  for (int s = 0; s < 72; ++s)
    for (int k = 0; k < 5; ++k) CHECK(worst(s, rng) / 8 == (s / 8 + 1) % 9);
  const TrafficPattern uniform = make_traffic_pattern(net, "uniform");
  for (int k = 0; k < 200; ++k) CHECK(uniform(5, rng) != 5);
  const Network square = make_network("mesh:4x4,nodes_per_router=4");  // 64 nodes
  const TrafficPattern transpose = make_traffic_pattern(square, "transpose"), reverse = make_traffic_pattern(square, "bit-reverse");
  CHECK(transpose(1, rng) == 8);
  CHECK(transpose(transpose(13, rng), rng) == 13);
  CHECK(reverse(1, rng) == 32);
  CHECK(reverse(6, rng) == 24);
  CHECK_THROWS_WITH_AS(make_traffic_pattern(net, "bit-reverse"), doctest::Contains("power-of-two node count"), Error);
  CHECK_THROWS_WITH_AS(make_traffic_pattern(net, "transpose"), doctest::Contains("square node count"), Error);
  CHECK_THROWS_WITH_AS(make_traffic_pattern(square, "group-shift"), doctest::Contains("needs group=K"), Error);
  CHECK_THROWS_WITH_AS(make_traffic_pattern(net, "hotspot"), doctest::Contains("unknown traffic pattern"), Error);
}

TEST_CASE("open-loop traffic: accepted equals offered below saturation; the dragonfly worst case caps minimal routing at 1/(a p)") {
  TrafficOptions traffic;
  SimOptions options;
  options.model = "packet";
  options.mtu = 1024;
  RoutedNetwork leaf_spine(make_network(kLeafSpine));
  traffic.load = 0.3;
  const TrafficResult light = simulate_traffic(leaf_spine, traffic, options);
  CHECK(light.accepted == doctest::Approx(0.3).epsilon(0.06));
  CHECK(light.latency.count > 1000);
  CHECK(light.latency.mean > light.zero_load_latency);
  CHECK(light.avg_hops == doctest::Approx(2.0 * 120 / 127).epsilon(0.03));  // other leaves: 2 hops
  CHECK(simulate_traffic(leaf_spine, traffic, options).latency.mean == light.latency.mean);  // deterministic

  // Group i sends to group i+1: minimal routing crosses the one global link between them, shared by
  // the group's a*p = 8 nodes; Valiant and UGAL-G spread over the other groups' links.
  traffic.pattern = "group-shift";
  traffic.load = 0.6;
  auto accepted = [&](const char* routing) {
    return simulate_traffic(RoutedNetwork(make_network("dragonfly:a=4,p=2,h=2"), routing), traffic, options).accepted;
  };
  const double minimal = accepted("minimal"), valiant = accepted("valiant"), ugal = accepted("ugal-g");
  CHECK(minimal == doctest::Approx(1.0 / 8).epsilon(0.1));
  CHECK(valiant > 0.3);
  CHECK(ugal > 0.3);
  traffic.load = 1.5;
  CHECK_THROWS_WITH_AS(simulate_traffic(leaf_spine, traffic, options), doctest::Contains("offered load must be in (0, 1]"), Error);
}

TEST_CASE("ugal-l rule=threshold decides as BookSim's ugal: minimal iff q_min <= 2 q_valiant + threshold") {
  RoutedNetwork routed(make_network("dragonfly:a=4,p=2,h=2"), "ugal-l:intermediate=router,rule=threshold,threshold=480B");
  const Routing& routing = routed.routing();
  const int src = 0, dst = 71;  // group 0 -> group 8
  std::vector<Routing::Hop> hops;
  routing.next_hops(src, 0, dst, hops);
  const int minimal_channel = hops.front().channel;
  // The source router's first channel toward dst queues q bytes, every other one 100.
  auto valiant_share = [&](double q, const std::string& spec) {
    RoutedNetwork r(routed.network(), spec);
    sim::PathChooser chooser(r, PathSelection::Deterministic, 3);
    const sim::PathChooser::Backlog backlog = [&](int c) { return c == minimal_channel ? q : 100.0; };
    int valiant = 0;
    for (int i = 0; i < 900; ++i) {
      const int state = chooser.start_state(src, dst, 16, backlog);
      if (state == 0) continue;
      ++valiant;
      CHECK((state - 1) / 4 != 0);  // the intermediate router is outside both ends' groups
      CHECK((state - 1) / 4 != 8);
    }
    return valiant / 900.0;
  };
  const std::string threshold = "ugal-l:intermediate=router,rule=threshold,threshold=480B";
  CHECK(valiant_share(0, threshold) == 0);    // zero load: minimal
  CHECK(valiant_share(680, threshold) == 0);  // 680 <= 2 x 100 + 480: still minimal
  // 681: Valiant whenever its intermediate router is outside both groups (7 of 9) and its first channel
  // is not the minimal one (at least 6 of 7 groups).
  const double above = valiant_share(681, threshold);
  CHECK(above > 0.6);
  CHECK(above < 0.8);
  CHECK(valiant_share(1e5, "ugal-l:intermediate=router,rule=threshold,factor=1000") == 0);  // 1e5 <= 1000 x 100 + 0
  // The default rule, (q + packet) x hops: 300 queued bytes on 3 hops already lose to 100 on 5 or 6.
  CHECK(valiant_share(300, "ugal-l:intermediate=router") > 0.6);
  CHECK(valiant_share(300, threshold) == 0);
}

TEST_CASE("flit model, ugal-l as BookSim's with 4 VCs: no misrouting at low load, and group shift spreads past the minimal limit") {
  TrafficOptions traffic;
  SimOptions options;
  options.model = "flit";
  options.mtu = 16;
  set_model_option(options, "flit", "16B");
  set_model_option(options, "vcs", "4");  // one per class: three can deadlock, as BookSim's do
  set_model_option(options, "buffer", "64");
  set_model_option(options, "mtu", "16");
  traffic.load = 0.05;
  const Network net = make_network("dragonfly:a=4,p=2,h=2");
  const std::string booksim = "ugal-l:intermediate=router,rule=threshold,threshold=480B";
  auto run = [&](const std::string& routing) { return simulate_traffic(RoutedNetwork(net, routing), traffic, options); };
  const TrafficResult minimal = run("minimal"), ugal = run(booksim);
  CHECK(ugal.avg_hops == doctest::Approx(minimal.avg_hops).epsilon(1e-9));
  CHECK(ugal.latency.mean == doctest::Approx(minimal.latency.mean).epsilon(0.02));
  traffic.pattern = "group-shift";
  traffic.load = 0.5;
  const TrafficResult shifted = run(booksim);
  CHECK(shifted.accepted > 2.0 / 8);  // minimal routing: 1/8, the one global link per group pair
  CHECK(shifted.avg_hops > minimal.avg_hops);
}
