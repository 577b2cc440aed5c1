// Open-loop traffic counts the hops and zero-load latency of the paths messages really took: whole
// paths chosen at injection (deterministic, ECMP, Valiant) as chosen, walked ones (UGAL, spraying,
// adaptive routing) as their packets went, hop by hop.
#include <doctest/doctest.h>

#include "sim/traffic.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// 9 groups of 4 routers with 2 nodes each (72 nodes); every link has the same t_p, every switch the same t_r.
const char* kDragonfly = "dragonfly:a=4,p=2,h=2";

TrafficResult run(const std::string& network, const std::string& routing, const std::string& pattern, double load,
                  PathSelection selection = PathSelection::Deterministic) {
  TrafficOptions traffic;
  traffic.pattern = pattern;
  traffic.load = load;
  SimOptions options;
  options.model = "packet";
  options.mtu = 1024;
  options.path_selection = selection;
  return simulate_traffic(RoutedNetwork(make_network(network), routing), traffic, options);
}

// Zero-load latency on this dragonfly: t_s, both node links and the first router, then t_p + t_r per hop.
void check_latency_follows_hops(const TrafficResult& r) {
  const RoutedNetwork routed(make_network(kDragonfly), "minimal");
  const Network& net = routed.network();
  const double base = routed.route_latency(0, 1, {});  // nodes 0 and 1 share a router
  const double per_hop = net.link(0).latency + net.switch_at(0).router_delay;
  CHECK(r.zero_load_latency == doctest::Approx(base + r.avg_hops * per_hop).epsilon(1e-9));
}

}  // namespace

TEST_CASE("traffic paths: deterministic routing and Valiant count the path chosen at injection, as before") {
  // The numbers of the version that counted the routed path at injection (whole paths are unchanged).
  const TrafficResult minimal = run(kDragonfly, "minimal", "group-shift", 0.3);
  CHECK(minimal.avg_hops == doctest::Approx(2.5070551795342433).epsilon(1e-12));
  CHECK(minimal.zero_load_latency == doctest::Approx(3.102257657451166e-06).epsilon(1e-12));
  CHECK(minimal.latency.mean == doctest::Approx(0.00046964193430608185).epsilon(1e-12));
  const TrafficResult valiant = run(kDragonfly, "valiant", "group-shift", 0.3);
  CHECK(valiant.avg_hops == doctest::Approx(3.9257772169324308).epsilon(1e-12));
  CHECK(valiant.zero_load_latency == doctest::Approx(3.5562487094185015e-06).epsilon(1e-12));
  CHECK(valiant.avg_hops > minimal.avg_hops + 1);  // through a random intermediate group: two global hops
  check_latency_follows_hops(minimal);
  check_latency_follows_hops(valiant);
}

TEST_CASE("traffic paths: UGAL counts the paths its packets took, minimal at low load, detours under the worst case") {
  // Uniform traffic at 5 % load: queues are short, UGAL-G keeps (nearly) every packet on a shortest
  // path (now and then a detour of two global hops is shorter than minimal's local-global-local).
  const TrafficResult minimal_light = run(kDragonfly, "minimal", "uniform", 0.05);
  const TrafficResult ugal_light = run(kDragonfly, "ugal-g", "uniform", 0.05);
  CHECK(ugal_light.avg_hops == doctest::Approx(minimal_light.avg_hops).epsilon(0.05));
  check_latency_follows_hops(ugal_light);

  // Group i to group i+1 at 60 %: the one minimal global link saturates; UGAL-G sends much of the
  // traffic through other groups, as Valiant does, and the hops count those detours.
  const TrafficResult minimal = run(kDragonfly, "minimal", "group-shift", 0.6);
  const TrafficResult valiant = run(kDragonfly, "valiant", "group-shift", 0.6);
  const TrafficResult ugal_g = run(kDragonfly, "ugal-g", "group-shift", 0.6);
  const TrafficResult ugal_l = run(kDragonfly, "ugal-l", "group-shift", 0.6);
  CHECK(ugal_g.avg_hops > minimal.avg_hops + 0.5);
  CHECK(ugal_g.avg_hops <= valiant.avg_hops + 0.1);
  CHECK(ugal_l.avg_hops > minimal.avg_hops + 0.3);
  CHECK(ugal_g.zero_load_latency > minimal.zero_load_latency);
  check_latency_follows_hops(ugal_g);
  check_latency_follows_hops(ugal_l);
}

TEST_CASE("traffic paths: walked packets over paths of one length count exactly what the route counts") {
  // A leaf-spine: every path between two leaves has 2 hops, so adaptive routing and spraying, walked
  // per packet, give the same hops as the deterministic tables for the same messages (the arrivals
  // and destinations do not depend on the path choices).
  const char* leaf_spine = "fattree:nodes=128,radix=16,levels=2";
  const TrafficResult tables = run(leaf_spine, "default", "uniform", 0.5);
  for (PathSelection selection : {PathSelection::Adaptive, PathSelection::Spray}) {
    const TrafficResult walked = run(leaf_spine, "default", "uniform", 0.5, selection);
    CHECK(walked.avg_hops == tables.avg_hops);
    CHECK(walked.zero_load_latency == doctest::Approx(tables.zero_load_latency).epsilon(1e-12));
  }
  // Messages of several packets: each packet's path counts, the message gets their mean.
  TrafficOptions traffic;
  traffic.load = 0.3;
  traffic.message = 4096;
  SimOptions options;
  options.model = "packet";
  options.mtu = 1024;
  options.path_selection = PathSelection::Spray;
  const TrafficResult sprayed = simulate_traffic(RoutedNetwork(make_network(leaf_spine)), traffic, options);
  options.path_selection = PathSelection::Deterministic;
  const TrafficResult routed = simulate_traffic(RoutedNetwork(make_network(leaf_spine)), traffic, options);
  CHECK(sprayed.avg_hops == doctest::Approx(routed.avg_hops).epsilon(1e-12));
}
