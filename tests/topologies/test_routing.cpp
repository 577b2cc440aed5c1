#include <doctest/doctest.h>

#include <algorithm>
#include <bitset>
#include <cmath>
#include <functional>

#include "support/error.h"
#include "topologies/generators.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "routing/internal/table_routing.h"

using namespace mapsim;

namespace {

// Shortest legal up*/down* walk by exhaustive search over simple paths (small networks only):
// an independent check of the BFS-built tables.
int brute_force_updown(const Network& net, const UpDownRouting& r, int src, int dst) {
  int best = 1 << 20;
  std::vector<bool> visited(net.num_switches(), false);
  std::function<void(int, bool, int)> walk = [&](int at, bool down, int length) {
    if (length >= best) return;
    if (at == dst) {
      best = length;
      return;
    }
    visited[at] = true;
    for (const Network::Port& port : net.ports_of(at)) {
      if (visited[port.neighbor]) continue;
      const bool up = r.is_up(net.channel(port.link, at));
      if (up && down) continue;
      walk(port.neighbor, down || !up, length + 1);
    }
    visited[at] = false;
  };
  walk(src, false, 0);
  return best;
}

// A routing that hides virtual channels, to show that the torus needs them.
class WithoutVirtualChannels : public Routing {
 public:
  explicit WithoutVirtualChannels(const Routing& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  void route(int s, int d, std::vector<int>& c) const override { inner_.route(s, d, c); }
  std::string rule_violation(int, int, const std::vector<int>&) const override { return {}; }

 private:
  const Routing& inner_;
};

}  // namespace

TEST_CASE("up*/down* routes are legal, minimal and deadlock free on 120 random networks") {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    IrregularParams p;
    p.seed = seed;
    p.nodes = 32;
    p.switches = 16;
    p.ports = 6;
    p.connectivity = seed % 2 ? 0.75 : 0.9;
    RoutedNetwork routed(make_irregular(p), "updown");
    RouteAnalysis a = analyse_routes(routed);
    CHECK_MESSAGE(a.routes_legal, "seed ", seed, ": ", a.first_violation);
    CHECK_MESSAGE(a.deadlock_free, "seed ", seed, ": ", a.cycle);
    const auto& r = dynamic_cast<const UpDownRouting&>(routed.routing());
    const Network& net = routed.network();
    if (seed % 10 == 0) {  // exhaustive minimality check on some of them
      for (int s = 0; s < net.num_switches(); ++s)
        for (int t = 0; t < net.num_switches(); ++t) {
          if (net.nodes_of(t).empty()) continue;
          CHECK(r.hops(s, net.nodes_of(t).front()) == brute_force_updown(net, r, s, t));
        }
    }
    // The root's BFS tree is no higher than any other switch's; ties go to the lowest id.
    auto height = [&](int s) {
      auto d = bfs_distances(net, s);
      return *std::max_element(d.begin(), d.end());
    };
    for (int s = 0; s < net.num_switches(); ++s) {
      CHECK(height(r.root()) <= height(s));
      if (s < r.root()) CHECK(height(s) > height(r.root()));
    }
  }
}

TEST_CASE("up*/down* on the papers' network: longer than shortest paths, never shorter") {
  Network net = make_network("irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1");
  RoutedNetwork updown(net, "updown"), shortest(net, "shortest");
  int longer = 0;
  for (int a = 0; a < 256; a += 3)
    for (int b = 0; b < 256; b += 5) {
      CHECK(updown.hops(a, b) >= shortest.hops(a, b));
      longer += updown.hops(a, b) > shortest.hops(a, b);
    }
  CHECK(longer > 0);
}

TEST_CASE("shortest paths equal BFS distances; their dependency cycles are reported honestly") {
  int cyclic = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    IrregularParams p;
    p.seed = seed;
    RoutedNetwork routed(make_irregular(p), "shortest");
    RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    cyclic += !a.deadlock_free;
    if (!a.deadlock_free) CHECK(a.cycle.find("->") != std::string::npos);
    const Network& net = routed.network();
    auto d = bfs_distances(net, net.node(0).switch_id);
    for (int n = 0; n < net.num_nodes(); ++n) CHECK(routed.hops(0, n) == d[net.node(n).switch_id]);
  }
  CHECK(cyclic > 0);  // shortest-path routing on irregular graphs is not deadlock free in general
}

TEST_CASE("hypercube e-cube distances are Hamming distances") {
  RoutedNetwork routed(make_network("hypercube:dim=7"));
  CHECK(routed.routing().name() == "ecube");
  for (int a = 0; a < 128; ++a)
    for (int b = 0; b < 128; ++b)
      CHECK(routed.hops(a, b) == static_cast<int>(std::bitset<8>(a ^ b).count()));
  RouteAnalysis an = analyse_routes(routed);
  CHECK(an.routes_legal);
  CHECK(an.deadlock_free);
  CHECK(an.avg_route_hops == doctest::Approx(7.0 * 64 / 127));  // n 2^(n-1) / (2^n - 1)
}

TEST_CASE("mesh and torus dimension-order distances") {
  RoutedNetwork mesh(make_network("mesh:5x4x3"));
  RoutedNetwork torus(make_network("torus:5x4x3"));
  auto coord = [](int s, int i) { int dims[3] = {5, 4, 3}, stride[3] = {1, 5, 20}; return (s / stride[i]) % dims[i]; };
  for (int a = 0; a < 60; ++a)
    for (int b = 0; b < 60; ++b) {
      int manhattan = 0, wrapped = 0;
      int extent[3] = {5, 4, 3};
      for (int i = 0; i < 3; ++i) {
        int dx = std::abs(coord(a, i) - coord(b, i));
        manhattan += dx;
        wrapped += std::min(dx, extent[i] - dx);
      }
      CHECK(mesh.hops(a, b) == manhattan);
      CHECK(torus.hops(a, b) == wrapped);
    }
  for (auto* r : {&mesh, &torus}) {
    RouteAnalysis an = analyse_routes(*r);
    CHECK(an.routes_legal);
    CHECK(an.deadlock_free);
  }
}

TEST_CASE("large networks are analysed from a random sample of routes, with confidence intervals that hold the exact means") {
  // 70x70: 24M routes of 47 hops on average, over the work of a full analysis (issue 29: 100x100 took 106 s).
  RoutedNetwork mesh(make_network("mesh:70x70"));
  const RouteAnalysis a = analyse_routes(mesh);
  REQUIRE(a.sampled);
  CHECK(a.routes_total == 4900.0 * 4900.0);
  CHECK(a.routes_checked < 1000000);
  CHECK(a.diameter == 138);  // the corner is among the searched switches
  CHECK(a.diameter_sources > 0);
  const double exact = 2.0 * (70 * 70 - 1) / (3 * 70) * 4900 / 4899;  // mean |dx| + |dy| over distinct pairs
  CHECK(a.avg_route_hops_ci95 > 0);
  CHECK(std::abs(a.avg_route_hops - exact) < 2 * a.avg_route_hops_ci95);
  CHECK(a.zero_load_latency_ci95 > 0);
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
  CHECK(a.mean_channel_routes == doctest::Approx(exact * 4900 * 4899 / (2 * 2 * 69 * 70)).epsilon(0.02));
  // Small networks keep their exact, full analysis.
  const RouteAnalysis small = analyse_routes(RoutedNetwork(make_network("mesh:20x20")));
  CHECK_FALSE(small.sampled);
  CHECK(small.routes_checked == 160000);
  CHECK(small.diameter_sources == 0);
}

TEST_CASE("the torus needs its dateline virtual channels to be deadlock free") {
  RoutedNetwork torus(make_network("torus:8x8"));
  CHECK(torus.routing().num_virtual_channels() == 2);
  CHECK(analyse_routes(torus).deadlock_free);
  // The same routes on one virtual channel depend on each other around every ring.
  WithoutVirtualChannels hidden(torus.routing());
  RouteAnalysis a = analyse_routes(torus.network(), hidden);
  CHECK_FALSE(a.deadlock_free);
  CHECK(a.cycle.find("->") != std::string::npos);
}

TEST_CASE("torus ecube options: ties spread both ways evenly, dateline at entry holds a wrapping dimension's class") {
  const Network net = make_network("torus:8x8");
  std::vector<int> channels, vcs;
  // Per-channel route counts of all-to-all, split by direction of travel in dimension 0.
  auto ring_loads = [&](const Routing& r) {
    std::vector<long> load(net.num_channels(), 0);
    for (int s = 0; s < net.num_switches(); ++s)
      for (int d = 0; d < net.num_nodes(); ++d) {
        r.route(s, d, channels);
        for (int c : channels) ++load[c];
      }
    long up = 0, down = 0;  // the busiest channel of each direction along dimension 0
    for (int c = 0; c < net.num_channels(); ++c) {
      const int a = net.channel_source(c), b = net.channel_target(c);
      if (a / 8 != b / 8) continue;
      ((b % 8 == (a % 8 + 1) % 8) ? up : down) = std::max((b % 8 == (a % 8 + 1) % 8) ? up : down, load[c]);
    }
    return std::pair{up, down};
  };
  // Half-way destinations (4 steps) all go up: each ring's up channels carry 1+2+3+4, down ones 1+2+3.
  CHECK(ring_loads(*make_routing(net, "ecube")) == std::pair{10L * 8, 6L * 8});
  CHECK(ring_loads(*make_routing(net, "ecube:ties=spread")) == std::pair{8L * 8, 8L * 8});
  // Switch 6 to node 1 (row 0): 6->7, 7->0 over the wrap, 0->1.
  for (auto [spec, expected] : {std::pair{"ecube", std::vector<int>{0, 1, 1}}, {"ecube:dateline=entry", {1, 1, 1}}}) {
    auto r = make_routing(net, spec);
    r->route(6, 1, channels);
    r->virtual_channels(channels, vcs);
    CHECK_MESSAGE(vcs == expected, spec);
    r->route(1, 4, channels);  // no wrap: class 0 throughout
    r->virtual_channels(channels, vcs);
    CHECK(vcs == std::vector<int>(3, 0));
  }
  for (const char* spec : {"ecube:ties=spread", "ecube:dateline=entry", "ecube:ties=spread,dateline=entry"})
    for (const char* topo : {"torus:8x8", "torus:5x4x3", "torus:6x6,nodes_per_router=2"}) {
      const Network t = make_network(topo);
      RouteAnalysis a = analyse_routes(t, *make_routing(t, spec));
      CHECK_MESSAGE(a.routes_legal, spec, " ", topo, ": ", a.first_violation);
      CHECK_MESSAGE(a.deadlock_free, spec, " ", topo, ": ", a.cycle);
    }
  CHECK_THROWS_WITH_AS(make_routing(net, "ecube:ties=sideways"), doctest::Contains("routing.ties: expected up or spread"), Error);
  CHECK_THROWS_WITH_AS(make_routing(net, "ecube:dateline=late"), doctest::Contains("routing.dateline: expected wrap or entry"), Error);
}

TEST_CASE("d-mod-k on k-ary n-trees: minimal, up then down, deadlock free, balanced") {
  for (auto [k, levels] : {std::pair{2, 3}, {4, 3}, {3, 2}, {4, 2}}) {
    RoutedNetwork routed(make_network("fattree:k=" + std::to_string(k) + ",levels=" + std::to_string(levels)));
    CHECK(routed.routing().name() == "dmodk");
    RouteAnalysis a = analyse_routes(routed);
    CHECK_MESSAGE(a.routes_legal, a.first_violation);
    CHECK(a.deadlock_free);
    const Network& net = routed.network();
    // All-to-all: every up channel between two levels carries the same number of routes.
    std::vector<long> load(net.num_channels(), 0);
    std::vector<int> channels;
    for (int s = 0; s < net.num_nodes(); ++s)
      for (int d = 0; d < net.num_nodes(); ++d) {
        routed.route(s, d, channels);
        for (int c : channels) ++load[c];
        // Hops: twice the level of the lowest common ancestor.
        int m = 0;
        for (int x = net.node(s).switch_id, y = net.node(d).switch_id; x != y; x /= k, y /= k) ++m;
        CHECK(static_cast<int>(channels.size()) == 2 * m);
      }
    std::vector<long> per_level_min(levels, 1L << 40), per_level_max(levels, 0);
    const int per_level = net.num_switches() / levels;
    for (int c = 0; c < net.num_channels(); ++c) {
      const int from = net.channel_source(c) / per_level, to = net.channel_target(c) / per_level;
      if (to <= from) continue;
      per_level_min[from] = std::min(per_level_min[from], load[c]);
      per_level_max[from] = std::max(per_level_max[from], load[c]);
    }
    for (int l = 0; l + 1 < levels; ++l) CHECK(per_level_min[l] == per_level_max[l]);
  }
}

TEST_CASE("zero-load latency is t_s + d*t_p + (d+1)*t_r") {
  for (const char* spec : {"irregular:nodes=64,switches=20,seed=3,t_s=1.5us,t_p=25ns,t_r=250ns", "torus:6x6,t_r=100ns",
                           "fattree:k=2,levels=4", "hypercube:dim=5"}) {
    RoutedNetwork routed(make_network(spec));
    const Network& net = routed.network();
    const double ts = net.startup, tp = net.link(0).latency, tr = net.switch_at(0).router_delay;
    for (int a = 0; a < net.num_nodes(); ++a)
      for (int b = 0; b < net.num_nodes(); ++b) {
        if (a == b) {
          CHECK(routed.latency(a, b) == 0);
          continue;
        }
        const int d = routed.hops(a, b);
        CHECK(routed.latency(a, b) == doctest::Approx(ts + d * tp + (d + 1) * tr).epsilon(1e-12));
        CHECK(routed.cost(a, b) == routed.latency(a, b));
      }
  }
}

TEST_CASE("SUPRENUM: natural routes, eq. 3 costs, and Lemma 2's expected cost") {
  for (auto [c, d, alpha] : {std::tuple{4, 16, 5.0}, {8, 16, 5.0}, {3, 4, 10.0}}) {
    RoutedNetwork routed(make_suprenum(c, d, alpha, LinkDefaults{}));
    RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    const int n = c * c * d;
    double total = 0;
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < n; ++y) total += routed.cost(x, y);
    const double delta = ((d - 1) + 2.0 * (c - 1) * (2 * d + alpha * c) + (c - 1.0) * (c - 1) * (2 * d + 2 * alpha * c)) / (c * c);
    CHECK(total / (static_cast<double>(n) * n) == doctest::Approx(delta).epsilon(1e-12));
    CHECK(routed.hops(0, d) == 2);                 // same row
    CHECK(routed.hops(0, c * d) == 2);             // same column
    CHECK(routed.hops(0, (c + 1) * d) == (c > 1 ? 4 : 0));  // other row and column
  }
}

TEST_CASE("routing errors: wrong family and unknown names") {
  Network irregular = make_network("irregular:nodes=32,switches=10");
  CHECK_THROWS_WITH_AS(make_routing(irregular, "ecube"), doctest::Contains("ecube routing needs a hypercube, mesh or torus"), Error);
  CHECK_THROWS_WITH_AS(make_routing(irregular, "dmodk"), doctest::Contains("needs a fattree"), Error);
  CHECK_THROWS_WITH_AS(make_routing(irregular, "magic"), doctest::Contains("unknown routing 'magic'"), Error);
  CHECK(default_routing_name(irregular) == "updn");
  CHECK(default_routing_name(make_network("tree2")) == "updown");
  // Table routings work on any network, including regular ones.
  RoutedNetwork mesh_updown(make_network("mesh:4x4"), "updown");
  CHECK(analyse_routes(mesh_updown).deadlock_free);
}
