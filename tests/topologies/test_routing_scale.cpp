// The table routings' compact state: the routes of the tables as they were built before (fingerprints
// recorded from that code), legality and deadlock freedom over many seeds, a network above the old
// table limits, and the limits' one-line errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "support/error.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "support/random.h"

using namespace mapsim;

namespace {

// FNV-1a over every route (each switch with nodes to each node) and, for multipath routings, every
// legal next hop toward each destination switch: two routings with equal fingerprints route alike.
uint64_t fingerprint(const RoutedNetwork& routed) {
  const Network& net = routed.network();
  const Routing& r = routed.routing();
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](int64_t v) {
    h ^= static_cast<uint64_t>(v);
    h *= 1099511628211ull;
  };
  std::vector<int> channels;
  std::vector<Routing::Hop> hops;
  for (int s = 0; s < net.num_switches(); ++s) {
    if (net.nodes_of(s).empty()) continue;
    for (int d = 0; d < net.num_nodes(); ++d) {
      r.route(s, d, channels);
      mix(static_cast<int64_t>(channels.size()));
      for (int c : channels) mix(c);
      mix(r.hops(s, d));
    }
  }
  if (r.multipath())
    for (int t = 0; t < net.num_switches(); ++t) {
      if (net.nodes_of(t).empty()) continue;
      for (int s = 0; s < net.num_switches(); ++s)
        for (int state = 0; state < 2; ++state) {
          if (state == 1 && r.name() != "updown") continue;
          r.next_hops(s, state, net.nodes_of(t).front(), hops);
          mix(-1);
          for (const Routing::Hop& hop : hops) mix(hop.channel * 4 + hop.state);
        }
    }
  return h;
}

std::string irregular(int seed, int nodes, int switches, int ports) {
  return "irregular:nodes=" + std::to_string(nodes) + ",switches=" + std::to_string(switches) +
         ",ports=" + std::to_string(ports) + ",seed=" + std::to_string(seed);
}

}  // namespace

TEST_CASE("table routings route exactly as the tables built before their compact state") {
  // (seed 1..12 of three irregular shapes, a fat tree, a mesh) x (updn, minhop, updown, shortest).
  std::vector<std::string> networks;
  for (int seed = 1; seed <= 12; ++seed) {
    networks.push_back(irregular(seed, 32, 16, 6));
    networks.push_back(irregular(seed, 64, 19, 8));
    networks.push_back(irregular(seed, 256, 75, 8));
  }
  networks.push_back("fattree:nodes=128,radix=8");
  networks.push_back("fattree:nodes=100,radix=12,oversubscription=2");
  networks.push_back("mesh:5x4");
  uint64_t all = 0;
  std::string listing;
  for (const std::string& spec : networks) {
    const Network net = make_network(spec);
    for (const char* routing : {"updn", "minhop", "updown", "shortest"}) {
      const uint64_t f = fingerprint(RoutedNetwork(net, routing));
      all = all * 31 + f;
      listing += spec + " " + routing + " " + std::to_string(f) + "\n";
    }
  }
  INFO(listing);
  CHECK(all == 8637769390450611653ull);  // recorded from the tables of node x switch channels and S x S next hops
}

TEST_CASE("updn and minhop routes are legal, updn's deadlock free, on 80 random networks") {
  for (int seed = 1; seed <= 80; ++seed) {
    const Network net = make_network(irregular(seed, 2 * (8 + seed % 17) + seed % 7, 8 + seed % 17, 6 + seed % 3));
    for (const char* routing : {"updn", "minhop"}) {
      const RoutedNetwork routed(net, routing);
      const RouteAnalysis a = analyse_routes(routed);
      REQUIRE_FALSE(a.sampled);
      CHECK_MESSAGE(a.routes_legal, "seed ", seed, " ", routing, ": ", a.first_violation);
      if (std::string(routing) == "updn") CHECK_MESSAGE(a.deadlock_free, "seed ", seed, ": ", a.cycle);
      CHECK(a.idle_channels < static_cast<int>(a.channel_routes.size()));
    }
  }
}

TEST_CASE("updn routes a network above the old 2^27-entry table limit; its checks are sampled with a stated bound") {
  // 140000 nodes x 1000 switches: 1.4e8 node x switch entries (the old limit was 1.34e8).
  const Network net = make_network("irregular:nodes=140000,switches=1000,ports=200,seed=3");
  REQUIRE(static_cast<long>(net.num_nodes()) * net.num_switches() > (1L << 27));
  const RoutedNetwork routed(net, "updn");
  const RouteAnalysis a = analyse_routes(routed);
  CHECK(a.sampled);
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
  CHECK(a.walks_deadlock_free);
  CHECK(a.illegal_fraction_95 == doctest::Approx(-std::expm1(std::log(0.05) / static_cast<double>(a.routes_checked))));
  CHECK(a.illegal_fraction_95 < 3.01 / static_cast<double>(a.routes_checked));
  CHECK(a.illegal_fraction_95 > 2.99 / static_cast<double>(a.routes_checked));
  // The nodes of one switch are spread over its equal-cost ports: from the switch that sends to the
  // most of them over parallel first hops, not every node takes the same one.
  std::vector<int> channels;
  std::vector<Routing::Hop> hops;
  const int dst_switch = net.node(0).switch_id;
  int spread = 0;
  for (int s = 0; s < net.num_switches() && !spread; ++s) {
    routed.routing().next_hops(s, 0, 0, hops);
    if (hops.size() < 2) continue;
    std::vector<int> first;
    for (int d : net.nodes_of(dst_switch)) {
      routed.routing().route(s, d, channels);
      first.push_back(channels.front());
    }
    spread = std::count(first.begin(), first.end(), first.front()) < static_cast<long>(first.size());
  }
  CHECK(spread);
}

TEST_CASE("updown routes a network above the old 8192-switch limit") {
  const Network net = make_network("irregular:nodes=8200,switches=8200,ports=4,seed=3");
  const RoutedNetwork routed(net, "updown");
  Rng rng(7);
  std::vector<int> channels;
  for (int i = 0; i < 3000; ++i) {
    const int src = static_cast<int>(rng.below(net.num_nodes())), dst = static_cast<int>(rng.below(net.num_nodes()));
    routed.route(src, dst, channels);
    int at = net.node(src).switch_id;
    for (int c : channels) {
      REQUIRE(net.channel_source(c) == at);
      at = net.channel_target(c);
    }
    CHECK(at == net.node(dst).switch_id);
    CHECK(routed.hops(src, dst) == static_cast<int>(channels.size()));
    CHECK(routed.routing().rule_violation(net.node(src).switch_id, dst, channels).empty());
  }
}

TEST_CASE("table routings refuse networks beyond their memory limit with one line") {
  const Network net = make_network("irregular:nodes=64000,switches=64000,ports=4");
  CHECK_THROWS_WITH_AS(make_routing(net, "updn"),
                       "updn routing keeps a port per destination node and switch and S x S distances; 64000 switches "
                       "and 64000 nodes need 12.8 GB, over its limit of 8 GB",
                       Error);
  CHECK_THROWS_WITH_AS(make_routing(net, "minhop"), doctest::Contains("minhop routing keeps a port per destination node"), Error);
  CHECK_THROWS_WITH_AS(make_routing(net, "updown"),
                       "updown routing keeps S x S distances; 64000 switches need 16.384 GB, over its limit of 8 GB "
                       "(use ecube, dor or dmodk on regular networks)",
                       Error);
  CHECK_THROWS_WITH_AS(make_routing(net, "shortest"), doctest::Contains("shortest routing keeps S x S distances; 64000 switches need 8.192 GB"), Error);
}
