// Balanced destination tables (updn, minhop), multipath walks, fat trees (folded Clos, XGFT) and
// the dragonfly with its routings.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "support/error.h"
#include "support/random.h"
#include "topologies/generators.h"
#include "topologies/network_factory.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"

using namespace mapsim;

namespace {

// Walks from every node-bearing switch to every node taking random hops: each walk must reach its
// destination legally, in the hops the routing's tables promise (minimal walks) or fewer than 2x.
void check_random_walks(const RoutedNetwork& routed, uint64_t seed, bool minimal) {
  const Network& net = routed.network();
  const Routing& routing = routed.routing();
  Rng rng(seed);
  std::vector<int> channels, states;
  for (int s = 0; s < net.num_switches(); ++s) {
    if (net.nodes_of(s).empty()) continue;
    for (int d = 0; d < net.num_nodes(); d += 3) {
      routing.start_states(s, d, rng.below(1 << 30), states);
      walk_route(net, routing, s, states.front(), d,
                 [&](const std::vector<Routing::Hop>& hops, int) { return static_cast<size_t>(rng.below(hops.size())); },
                 channels);
      const int end = channels.empty() ? s : net.channel_target(channels.back());
      REQUIRE(end == net.node(d).switch_id);
      REQUIRE(routing.rule_violation(s, d, channels) == "");
      if (minimal) REQUIRE(static_cast<int>(channels.size()) == routing.hops(s, d));
    }
  }
}

}  // namespace

TEST_CASE("updn and minhop spread a leaf-spine's routes evenly over every spine; single-tree updown does not") {
  // 512 nodes, radix 32: 32 leaves of 16 nodes, 16 spines. Each leaf-spine channel carries, per
  // direction, 16 sources x (512 - 16) destinations / 16 spines = 496 node pairs.
  RoutedNetwork updn(make_network("fattree:nodes=512,radix=32,levels=2"), "default");
  CHECK(updn.routing().name() == "updn");
  CHECK(updn.network().num_switches() == 48);
  CHECK(updn.network().num_links() == 512);
  for (const char* routing : {"updn", "minhop"}) {
    RoutedNetwork routed(make_network("fattree:nodes=512,radix=32,levels=2"), routing);
    const RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    CHECK(a.max_channel_routes == 496);
    CHECK(a.mean_channel_routes == doctest::Approx(496));
    CHECK(a.idle_channels == 0);
    CHECK_FALSE(routes_unbalanced(a));
  }
  RoutedNetwork tree(make_network("fattree:nodes=512,radix=32,levels=2"), "updown");
  const RouteAnalysis t = analyse_routes(tree);
  CHECK(t.max_channel_routes == 496 * 16);  // one spine takes everything
  CHECK(t.idle_channels == 1024 - 64);
  CHECK(routes_unbalanced(t));
}

TEST_CASE("updn keeps every route legal and deadlock free on irregular networks over many seeds") {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    RoutedNetwork routed(make_network("irregular:nodes=64,switches=24,seed=" + std::to_string(seed)));
    CHECK(routed.routing().name() == "updn");
    const RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    check_random_walks(routed, seed, true);
    // Destination-based: the route from any switch on a route is the rest of that route.
    std::vector<int> whole, rest;
    const Network& net = routed.network();
    for (int d = 0; d < net.num_nodes(); d += 7) {
      routed.routing().route(net.node(0).switch_id, d, whole);
      if (whole.size() < 2) continue;
      routed.routing().route(net.channel_target(whole[0]), d, rest);
      CHECK(std::vector<int>(whole.begin() + 1, whole.end()) == rest);
    }
  }
}

TEST_CASE("minhop routes are minimal; its analysis reports the dependency cycles of irregular networks") {
  RoutedNetwork routed(make_network("irregular:nodes=256,switches=75"), "minhop");
  const RouteAnalysis a = analyse_routes(routed);
  CHECK(a.routes_legal);
  CHECK(a.avg_route_hops == doctest::Approx(analyse_routes(RoutedNetwork(make_network("irregular:nodes=256,switches=75"),
                                                                         "shortest")).avg_route_hops));
  CHECK_FALSE(a.deadlock_free);
  check_random_walks(routed, 3, true);
}

TEST_CASE("shortest and updown tables offer every minimal legal hop to walks") {
  for (const char* routing : {"shortest", "updown"}) {
    RoutedNetwork routed(make_network("irregular:nodes=64,switches=24,seed=5"), routing);
    CHECK(routed.routing().multipath());
    check_random_walks(routed, 11, true);
  }
}

TEST_CASE("XGFT and folded Clos: switch counts per level, links, ports and sizing errors") {
  // XGFT(3; 4,4,4; 1,2,2): level i has prod(m_{i+1..3}) * prod(w_1..i) switches: 16, 8, 4.
  const Network x = make_network("xgft:m=4x4x4,w=1x2x2");
  CHECK(x.num_switches() == 28);
  CHECK(x.num_nodes() == 64);
  CHECK(x.num_links() == 16 * 2 + 8 * 2);
  for (int s = 0; s < 16; ++s) CHECK(x.ports_of(s).size() == 2);             // leaves: w_2 = 2 parents
  for (int s = 16; s < 24; ++s) CHECK(x.ports_of(s).size() == 4 + 2);        // m_2 children + w_3 parents
  for (int s = 24; s < 28; ++s) CHECK(x.ports_of(s).size() == 4);            // top: m_3 children
  x.validate();
  // Oversubscription 3:1 on radix 32: leaves with 24 nodes and 8 up links, 8 spines.
  const Network o = make_network("fattree:nodes=96,radix=32,levels=2,oversubscription=3");
  CHECK(o.num_switches() == 4 + 8);
  CHECK(o.num_links() == 4 * 8);
  CHECK(o.nodes_of(0).size() == 24);
  // The fewest levels that hold the nodes.
  CHECK(make_network("fattree:nodes=32,radix=32").num_switches() == 1);
  CHECK(make_network("fattree:nodes=33,radix=32").num_switches() == 3 + 16);
  CHECK(make_network("fattree:nodes=2048,radix=32").shape.levels == 3);
  CHECK_THROWS_WITH_AS(make_network("fattree:nodes=1000,radix=32,levels=2"), doctest::Contains("hold at most 512 nodes"), Error);
  CHECK_THROWS_WITH_AS(make_network("fattree:k=4,radix=8"), doctest::Contains("radix needs nodes="), Error);
  CHECK_THROWS_WITH_AS(make_network("xgft:m=4x4,w=2x2"), doctest::Contains("w_1 must be 1"), Error);
  CHECK_THROWS_WITH_AS(make_network("xgft:m=4x4,w=1"), doctest::Contains("one value per switch level"), Error);
  // The k-ary n-tree form is unchanged.
  CHECK(make_network("fattree:k=4,levels=3").shape.family == Family::FatTree);
}

TEST_CASE("dragonfly: groups, one global link per group pair, h global links per router") {
  const int a = 4, p = 2, h = 2, g = 9;
  const Network net = make_network("dragonfly:a=4,p=2,h=2");
  CHECK(net.num_switches() == a * g);
  CHECK(net.num_nodes() == a * p * g);
  CHECK(net.num_links() == g * a * (a - 1) / 2 + g * a * h / 2);
  std::map<std::pair<int, int>, int> pairs;
  for (int s = 0; s < net.num_switches(); ++s) {
    int global = 0;
    for (const Network::Port& port : net.ports_of(s))
      if (port.neighbor / a != s / a) {
        ++global;
        ++pairs[{s / a, port.neighbor / a}];
      }
    CHECK(global == h);
    CHECK(net.ports_used(s) == p + a - 1 + h);
  }
  CHECK(pairs.size() == static_cast<size_t>(g * (g - 1)));
  for (const auto& [pair, links] : pairs) CHECK(links == 1);
  // g < a*h + 1: two links between every pair of groups.
  const Network half = make_network("dragonfly:a=4,p=2,h=2,g=5");
  CHECK(half.num_links() == 5 * 6 + 5 * 4);
  CHECK_THROWS_WITH_AS(make_network("dragonfly:a=4,p=2,h=2,g=10"), doctest::Contains("split evenly"), Error);
  CHECK_THROWS_WITH_AS(make_network("dragonfly:a=4,p=2,h=2,g=4"), doctest::Contains("split evenly"), Error);
}

TEST_CASE("dragonfly routings: hop and global-link bounds, legality, deadlock freedom, walks") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");
  for (const char* name : {"minimal", "valiant", "ugal-l", "ugal-g"}) {
    CAPTURE(name);
    RoutedNetwork routed(net, name);
    const RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    CHECK(a.max_route_hops == (std::string(name) == "valiant" ? 5 : 3));
    check_random_walks(routed, 7, false);
  }
  RoutedNetwork minimal(net, "default");
  CHECK(minimal.routing().name() == "minimal");
  CHECK(analyse_routes(minimal).diameter == 3);
  // UGAL offers the minimal path and one Valiant path through a group other than both ends'.
  RoutedNetwork ugal(net, "ugal-g");
  std::vector<int> states;
  for (uint64_t r = 0; r < 50; ++r) {
    ugal.routing().start_states(0, net.num_nodes() - 1, r, states);
    REQUIRE(states.size() == 2);
    CHECK(states[0] == 0);
    CHECK(states[1] - 1 != 0);
    CHECK(states[1] - 1 != 8);
  }
  CHECK_THROWS_WITH_AS(RoutedNetwork(make_network("mesh:4x4"), "valiant"), doctest::Contains("needs a dragonfly"), Error);
  CHECK_THROWS_WITH_AS(RoutedNetwork(make_network("dragonfly:a=2,p=1,h=1,g=2"), "valiant"),
                       doctest::Contains("at least 3 groups"), Error);
}

TEST_CASE("dragonfly ugal-l through an intermediate router (BookSim's ugal): legal walks, four acyclic VC classes") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");  // 9 groups of 4 routers, 72 nodes
  RoutedNetwork routed(net, "ugal-l:intermediate=router,rule=threshold,threshold=480B");
  const Routing& routing = routed.routing();
  CHECK(routing.num_virtual_channels() == 4);
  REQUIRE(routing.queue_threshold().has_value());
  CHECK(routing.queue_threshold()->factor == 2);
  CHECK(routing.queue_threshold()->threshold == 480);
  const RouteAnalysis a = analyse_routes(routed);
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
  CHECK(a.walks_deadlock_free);
  CHECK(a.walk_dependencies > a.dependencies);
  for (uint64_t seed = 1; seed <= 20; ++seed) check_random_walks(routed, seed, false);

  // The intermediate is a random node's router: outside both ends' groups a second state, else minimal.
  std::vector<int> states;
  std::set<int> vias;
  int minimal_only = 0;
  const int src = 0, dst = 71;  // group 0 -> group 8
  for (uint64_t r = 0; r < 720; ++r) {
    routing.start_states(src, dst, r, states);
    REQUIRE(states.front() == 0);
    if (states.size() == 1) {
      ++minimal_only;
      continue;
    }
    REQUIRE(states.size() == 2);
    const int via = states[1] - 1;
    CHECK(via / 4 != 0);
    CHECK(via / 4 != 8);
    vias.insert(via);
  }
  CHECK(minimal_only == 720 * 2 / 9);  // r % 72 runs over every node ten times: groups 0 and 8 are 2 of 9
  CHECK(vias.size() == 7 * 4);
  routing.all_start_states(src, dst, states);
  CHECK(states.size() == 1 + 7 * 4);

  // The longest walks: L G L L G L (intermediate router neither where the packet enters its group nor
  // the one with the link onward), classes 0 0 1 2 2 3, as virtual_channels() and next_vc() agree.
  std::vector<int> channels, vcs, longest;
  for (int via = 4; via < 32; ++via) {
    walk_route(net, routing, src, 1 + via, dst, [](const std::vector<Routing::Hop>&, int) { return size_t{0}; }, channels);
    CHECK(routing.rule_violation(src, dst, channels) == "");
    routing.virtual_channels(channels, vcs);
    for (size_t h = 1; h < channels.size(); ++h) CHECK(vcs[h] == routing.next_vc(vcs[h - 1], channels[h - 1], channels[h]));
    if (channels.size() == 6) {
      CHECK(vcs == std::vector<int>{0, 0, 1, 2, 2, 3});
      longest = channels;
    }
    CHECK(channels.size() <= 6);
  }
  REQUIRE(longest.size() == 6);
  // The group mode never takes two local hops in a row and refuses them; the router mode takes them in an
  // intermediate group only.
  CHECK(RoutedNetwork(net, "ugal-l").routing().rule_violation(src, dst, longest) == "hop 3 is local hop number 2 in one group");
  longest.resize(4);  // ... L L into the destination group: never
  CHECK(routing.rule_violation(src, dst, longest) != "");
}

namespace {

// A routing's walks with other virtual channel classes, derived from the hop before and this one.
class Reclassed : public Routing {
 public:
  Reclassed(const Routing& base, int classes, std::function<int(int vc, int previous, int channel)> next)
      : base_(base), classes_(classes), next_(std::move(next)) {}
  std::string name() const override { return base_.name(); }
  void route(int s, int d, std::vector<int>& channels) const override { base_.route(s, d, channels); }
  bool per_node() const override { return base_.per_node(); }
  int num_virtual_channels() const override { return classes_; }
  void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const override {
    vcs.assign(channels.size(), 0);
    for (size_t i = 1; i < channels.size(); ++i) vcs[i] = next_vc(vcs[i - 1], channels[i - 1], channels[i]);
  }
  std::string rule_violation(int s, int d, const std::vector<int>& channels) const override {
    return base_.rule_violation(s, d, channels);
  }
  bool multipath() const override { return true; }
  void next_hops(int sw, int state, int d, std::vector<Hop>& hops) const override { base_.next_hops(sw, state, d, hops); }
  void all_start_states(int s, int d, std::vector<int>& states) const override { base_.all_start_states(s, d, states); }
  int next_vc(int vc, int previous, int channel) const override { return next_(vc, previous, channel); }

 private:
  const Routing& base_;
  int classes_;
  std::function<int(int, int, int)> next_;
};

}  // namespace

TEST_CASE("through an intermediate router, three classes cannot keep the walks acyclic; the fourth does") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");
  RoutedNetwork routed(net, "ugal-l:intermediate=router");
  auto global = [&](int c) { return net.channel_source(c) / 4 != net.channel_target(c) / 4; };
  // The group mode's classes (global hops so far), and the same with the L L turn's class merged into the
  // last one (three classes, as BookSim's three VCs): both leave a cycle.
  const Reclassed by_globals(routed.routing(), 3, [&](int vc, int previous, int) { return vc + global(previous); });
  const Reclassed capped(routed.routing(), 3, [&](int vc, int previous, int channel) {
    return std::min(2, routed.routing().next_vc(vc, previous, channel));
  });
  for (const Routing* routing : {static_cast<const Routing*>(&by_globals), static_cast<const Routing*>(&capped)}) {
    const RouteAnalysis a = analyse_routes(net, *routing);
    CHECK_FALSE(a.walks_deadlock_free);
    CHECK(a.walk_cycle.find("->") != std::string::npos);
  }
  CHECK(analyse_routes(routed).walks_deadlock_free);
}

TEST_CASE("ugal-l options: bad values and options without rule=threshold are refused, naming the key") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");
  auto refused = [&](const char* spec, const char* message) {
    CAPTURE(spec);
    CHECK_THROWS_WITH_AS(RoutedNetwork(net, spec), doctest::Contains(message), Error);
  };
  refused("ugal-l:intermediate=node", "routing.intermediate: expected group or router, got 'node'");
  refused("ugal-l:rule=least", "routing.rule: expected hops or threshold, got 'least'");
  refused("ugal-l:threshold=480B", "routing.threshold: only with rule=threshold");
  refused("ugal-l:factor=1", "routing.factor: only with rule=threshold");
  refused("ugal-l:rule=threshold,factor=-1", "factor");
  refused("ugal-l:rule=threshold,threshold=lots", "threshold");
  CHECK_FALSE(RoutedNetwork(net, "ugal-l").routing().queue_threshold().has_value());
  CHECK(RoutedNetwork(net, "ugal-l").routing().num_virtual_channels() == 3);
}

TEST_CASE("HyperX: all-to-all along each dimension; dimension order and adaptive walks are minimal and deadlock free") {
  const Network net = make_network("hyperx:4x3,nodes_per_router=2");
  CHECK(net.num_switches() == 12);
  CHECK(net.num_nodes() == 24);
  CHECK(net.num_links() == 3 * (4 * 3 / 2) + 4 * (3 * 2 / 2));
  for (int s = 0; s < 12; ++s) CHECK(net.ports_used(s) == 3 + 2 + 2);
  RoutedNetwork routed(net);
  CHECK(routed.routing().name() == "dor");
  const RouteAnalysis a = analyse_routes(routed);
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
  CHECK(a.max_route_hops == 2);
  // Node pairs on switches differing in one coordinate are one hop apart, in both: two hops.
  CHECK(routed.hops(0, 2) == 1);   // switch 0 -> switch 1 (x differs)
  CHECK(routed.hops(0, 10) == 2);  // switch 0 -> switch 5 (x and y differ)
  check_random_walks(routed, 5, true);
  CHECK_THROWS_WITH_AS(RoutedNetwork(make_network("mesh:4x4"), "dor"), doctest::Contains("needs a hyperx"), Error);
}

TEST_CASE("dragonfly with two global links per group pair: every routing and walk stays minimal in hops") {
  const Network net = make_network("dragonfly:a=4,p=1,h=2,g=5");  // a*h = 8 ports over 4 other groups
  for (const char* name : {"minimal", "valiant", "ugal-g"}) {
    CAPTURE(name);
    RoutedNetwork routed(net, name);
    const RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    check_random_walks(routed, 9, false);
  }
}

TEST_CASE("the deadlock check over every walk: all hops of multipath routings, by their virtual channel classes") {
  struct Case {
    const char* network;
    const char* routing;
    bool deadlock_free;
  };
  for (const Case& c : {Case{"irregular:nodes=64,switches=24,seed=3", "updn", true},
                        Case{"irregular:nodes=64,switches=24,seed=3", "updown", true},
                        Case{"irregular:nodes=256,switches=75", "minhop", false},
                        Case{"irregular:nodes=256,switches=75", "shortest", false},
                        Case{"fattree:nodes=128,radix=16", "updn", true},
                        Case{"dragonfly:a=4,p=2,h=2", "minimal", true},
                        Case{"dragonfly:a=4,p=2,h=2", "valiant", true},
                        Case{"dragonfly:a=4,p=1,h=2,g=5", "ugal-l", true},
                        Case{"hyperx:4x4x3", "dor", true}}) {
    CAPTURE(c.network);
    CAPTURE(c.routing);
    const RouteAnalysis a = analyse_routes(RoutedNetwork(make_network(c.network), c.routing));
    CHECK(a.multipath);
    CHECK(a.walks_deadlock_free == c.deadlock_free);
    CHECK(a.walk_dependencies >= a.dependencies);
    if (!c.deadlock_free) CHECK(a.walk_cycle.find("->") != std::string::npos);
  }
  // Valiant's walks through every intermediate group add dependencies its representative routes lack;
  // HyperX's adaptive orders add those of every dimension order.
  const RouteAnalysis valiant = analyse_routes(RoutedNetwork(make_network("dragonfly:a=4,p=2,h=2"), "valiant"));
  CHECK(valiant.walk_dependencies > valiant.dependencies);
  const RouteAnalysis hyperx = analyse_routes(RoutedNetwork(make_network("hyperx:4x4x3")));
  CHECK(hyperx.walk_dependencies > hyperx.dependencies);
  CHECK_FALSE(analyse_routes(RoutedNetwork(make_network("mesh:4x4"))).multipath);
}
