// Failed links and switches (topologies/failures.h): what is removed, what stays, and the routing
// on what is left.
#include <doctest/doctest.h>

#include <set>

#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "support/error.h"
#include "topologies/failures.h"
#include "topologies/generators.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// The unordered switch-name pairs of the network's links, with their multiplicity.
std::multiset<std::pair<std::string, std::string>> link_names(const Network& net) {
  std::multiset<std::pair<std::string, std::string>> names;
  for (const Link& l : net.links()) {
    std::string a = net.switch_at(l.a).name, b = net.switch_at(l.b).name;
    if (b < a) std::swap(a, b);
    names.insert({a, b});
  }
  return names;
}

void check_same_nodes_and_switches(const Network& before, const Network& after) {
  REQUIRE(after.num_switches() == before.num_switches());
  REQUIRE(after.num_nodes() == before.num_nodes());
  for (int s = 0; s < before.num_switches(); ++s) CHECK(after.switch_at(s).name == before.switch_at(s).name);
  for (int n = 0; n < before.num_nodes(); ++n) {
    CHECK(after.node(n).name == before.node(n).name);
    CHECK(after.node(n).switch_id == before.node(n).switch_id);
  }
}

}  // namespace

TEST_CASE("without_links removes exactly the links given and keeps ids and names") {
  const Network net = make_network("fattree:nodes=32,radix=8");  // leaf-spine: 8 leaves, 4 spines, 32 links
  REQUIRE(net.num_links() == 32);
  const Network left = without_links(net, {0, 5, 31});
  CHECK(left.num_links() == 29);
  check_same_nodes_and_switches(net, left);
  auto expected = link_names(net);
  for (int l : {0, 5, 31}) {
    std::string a = net.switch_at(net.link(l).a).name, b = net.switch_at(net.link(l).b).name;
    if (b < a) std::swap(a, b);
    expected.erase(expected.find({a, b}));
  }
  CHECK(link_names(left) == expected);
  CHECK(left.shape.family == Family::Irregular);  // routed as a fabric, not by the generator's coordinates
  CHECK_THROWS_AS(without_links(net, {32}), Error);
  CHECK(without_links(net, {}).num_links() == 32);
}

TEST_CASE("seeded random failures are deterministic, differ across seeds and leave a routable network") {
  const Network net = make_network("irregular:nodes=64,switches=20,ports=8,connectivity=1,seed=3");
  Failures f;
  f.links = 4;
  f.seed = 7;
  const Network a = with_failures(net, f), b = with_failures(net, f);
  CHECK(a.num_links() == net.num_links() - 4);
  CHECK(link_names(a) == link_names(b));
  check_same_nodes_and_switches(net, a);
  std::set<std::multiset<std::pair<std::string, std::string>>> distinct;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    f.seed = seed;
    try {
      distinct.insert(link_names(with_failures(net, f)));
    } catch (const Error&) {  // a seed may cut the irregular network; the others must differ
    }
  }
  CHECK(distinct.size() >= 4);
  CHECK(choose_links({1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 11, "links") == choose_links({1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 11, "links"));
  CHECK(choose_links({1, 2, 3}, 3, 5, "links") == std::vector<int>{1, 2, 3});
  CHECK_THROWS_WITH_AS(choose_links({1, 2}, 3, 5, "spine links"),
                       "links: 3 failed links asked for, but the network has only 2 spine links", Error);
}

TEST_CASE("updn and minhop route the degraded network legally; updn stays deadlock free") {
  const Network net = make_network("fattree:nodes=32,radix=8");
  Failures f;
  f.links = 6;
  f.seed = 2;
  for (const char* routing : {"updn", "minhop", "default"}) {
    CAPTURE(routing);
    const RoutedNetwork routed(with_failures(net, f), routing);
    const RouteAnalysis check = analyse_routes(routed);
    CHECK_MESSAGE(check.routes_legal, check.first_violation);
    if (std::string(routing) != "minhop") CHECK_MESSAGE(check.deadlock_free, check.cycle);
    if (std::string(routing) != "minhop") CHECK(check.walks_deadlock_free);
    CHECK(routed.routing().name() == (std::string(routing) == "minhop" ? "minhop" : "updn"));
  }
}

TEST_CASE("level: spine picks only links between the top switch level and the one below") {
  // k-ary 3-tree, k=2: levels 0..2 of 4 switches (sw-L-W), 8 links between each pair of levels.
  const Network tree = make_network("fattree:k=2,levels=3");
  const std::vector<int> spine = spine_links(tree);
  CHECK(spine.size() == 8);
  for (int l : spine) {
    const std::string a = tree.switch_at(tree.link(l).a).name, b = tree.switch_at(tree.link(l).b).name;
    CHECK(((a.rfind("sw-2-", 0) == 0) != (b.rfind("sw-2-", 0) == 0)));
    CHECK(((a.rfind("sw-1-", 0) == 0) != (b.rfind("sw-1-", 0) == 0)));
  }
  Failures f;
  f.links = 3;
  f.spine = true;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    f.seed = seed;
    const Network left = with_failures(tree, f);
    CHECK(left.num_links() == tree.num_links() - 3);
    auto removed = link_names(tree);
    for (const auto& pair : link_names(left)) removed.erase(removed.find(pair));
    CHECK(removed.size() == 3);
    for (const auto& [a, b] : removed) CHECK(((a.rfind("sw-2-", 0) == 0) || (b.rfind("sw-2-", 0) == 0)));
  }
  // A leaf-spine: every leaf-spine link is a spine link; a three-level folded Clos: only the top ones.
  CHECK(spine_links(make_network("fattree:nodes=32,radix=8")).size() == 32);
  const Network clos = make_network("fattree:nodes=64,radix=8,levels=3");
  for (int l : spine_links(clos)) {
    const std::string a = clos.switch_at(clos.link(l).a).name, b = clos.switch_at(clos.link(l).b).name;
    CHECK(((a.rfind("sw-3-", 0) == 0) || (b.rfind("sw-3-", 0) == 0)));
  }
  CHECK(spine_links(make_network("tree2:switches=4,nodes_per_switch=4")).size() == 4);
  CHECK_THROWS_WITH_AS(spine_links(make_network("irregular:nodes=64,switches=20,ports=8,connectivity=0.75,seed=3")),
                       doctest::Contains("an irregular network has no levels"), Error);
  CHECK_THROWS_WITH_AS(spine_links(make_network("mesh:4x4")), doctest::Contains("every switch of this mesh network holds nodes"),
                       Error);
  CHECK_THROWS_AS(spine_links(make_network("dragonfly:a=4,p=2,h=2")), Error);
}

TEST_CASE("links by name, switches by name, and a network cut in two") {
  const Network net = make_network("fattree:nodes=32,radix=8");  // leaves sw-1-0..7, spines sw-2-0..3
  Failures f;
  f.names = {{"sw-1-0--sw-2-1", ""}, {"sw-2-3", "sw-1-7"}};
  const Network left = with_failures(net, f);
  CHECK(left.num_links() == 30);
  for (const auto& [a, b] : link_names(left)) {
    CHECK(!(a == "sw-1-0" && b == "sw-2-1"));
    CHECK(!(a == "sw-1-7" && b == "sw-2-3"));
  }
  CHECK(split_link_name(net, "sw-1-0--sw-2-1") == std::make_pair(std::string("sw-1-0"), std::string("sw-2-1")));
  f.names = {{"sw-1-0--sw-2-9", ""}};
  CHECK_THROWS_WITH_AS(with_failures(net, f), doctest::Contains("no switch named 'sw-2-9'"), Error);
  f.names = {{"sw-1-0", "sw-1-1"}};
  CHECK_THROWS_WITH_AS(with_failures(net, f), "no link joins switches 'sw-1-0' and 'sw-1-1'", Error);
  f.names = {{"sw-1-0--sw-2-1", ""}, {"sw-1-0", "sw-2-1"}};
  CHECK_THROWS_WITH_AS(with_failures(net, f), doctest::Contains("listed more times than the 1 link(s)"), Error);

  // A spine and its 8 links; switch ids above it move down, names stay.
  f.names.clear();
  f.switches = {"sw-2-1"};
  const Network no_spine = with_failures(net, f);
  CHECK(no_spine.num_switches() == net.num_switches() - 1);
  CHECK(no_spine.num_links() == 24);
  CHECK(no_spine.switch_at(9).name == "sw-2-2");
  for (int n = 0; n < net.num_nodes(); ++n) CHECK(no_spine.node(n).name == net.node(n).name);
  CHECK(analyse_routes(RoutedNetwork(no_spine, "updn")).routes_legal);
  f.switches = {"sw-1-3"};
  CHECK_THROWS_WITH_AS(with_failures(net, f), doctest::Contains("switch 'sw-1-3' holds 4 compute node(s)"), Error);

  // Every link of leaf sw-1-0: its nodes cannot reach the others.
  f.switches.clear();
  for (int spine = 0; spine < 4; ++spine) f.names.push_back({"sw-1-0", "sw-2-" + std::to_string(spine)});
  CHECK_THROWS_WITH_AS(with_failures(net, f),
                       "the failures disconnect the network: nodes 'node-0' and 'node-4' cannot reach each other", Error);
  CHECK(unreachable_pair(net) == std::make_pair(-1, -1));

  // A spine that loses every link is dropped (it can reach no node), and the rest is routed.
  f.names.clear();
  for (int leaf = 0; leaf < 8; ++leaf) f.names.push_back({"sw-1-" + std::to_string(leaf), "sw-2-0"});
  const Network stranded = with_failures(net, f);
  CHECK(stranded.num_switches() == net.num_switches() - 1);
  CHECK(stranded.num_links() == 24);
  CHECK(analyse_routes(RoutedNetwork(stranded, "updn")).deadlock_free);
}
