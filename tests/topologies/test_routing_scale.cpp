// The table routings' compact state: the routes of the tables as they were built before (fingerprints
// recorded from that code), legality and deadlock freedom over many seeds, a network above the old
// table limits, and the limits' one-line errors.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "support/error.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"

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
