#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "support/error.h"
#include "topologies/generators.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {
void check_ports_and_links(const Network& net, bool allow_duplicates) {
  std::set<std::pair<int, int>> pairs;
  for (int s = 0; s < net.num_switches(); ++s) CHECK(net.ports_used(s) <= net.switch_at(s).ports);
  for (const Link& l : net.links()) {
    CHECK(l.a != l.b);
    bool fresh = pairs.insert({std::min(l.a, l.b), std::max(l.a, l.b)}).second;
    if (!allow_duplicates) CHECK(fresh);
  }
  for (int s = 0; s < net.num_switches(); ++s) CHECK(bfs_distances(net, 0)[s] >= 0);
}
}  // namespace

TEST_CASE("irregular networks keep their invariants over many seeds") {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    IrregularParams p;
    p.seed = seed;
    p.nodes = seed % 3 == 0 ? 128 : 256;
    p.switches = seed % 3 == 0 ? 40 : 75;
    p.connectivity = seed % 2 ? 0.75 : 0.85;
    Network net = make_irregular(p);
    CHECK(net.num_switches() == p.switches);
    CHECK(net.num_nodes() == p.nodes);
    const long used = std::lround(p.connectivity * p.ports * p.switches);
    CHECK(net.num_links() == (used - p.nodes) / 2);
    // Connectivity ratio within rounding: at most one port off the requested ratio.
    CHECK(std::abs(net.total_ports_used() - p.connectivity * p.ports * p.switches) <= 1.5);
    check_ports_and_links(net, false);
  }
}

TEST_CASE("the papers' default irregular network has 97 switch links") {
  Network net = make_network("irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1");
  CHECK(net.num_links() == 97);  // 450 used ports - 256 nodes = 194 = 2 x 97
  CHECK(net.total_ports_used() == 450);
}

TEST_CASE("irregular generation is deterministic per seed") {
  IrregularParams p;
  Network a = make_irregular(p), b = make_irregular(p);
  p.seed = 2;
  Network c = make_irregular(p);
  auto signature = [](const Network& n) {
    std::vector<int> sig;
    for (const Link& l : n.links()) sig.insert(sig.end(), {l.a, l.b});
    for (const Node& node : n.nodes()) sig.push_back(node.switch_id);
    return sig;
  };
  CHECK(signature(a) == signature(b));
  CHECK(signature(a) != signature(c));
}

TEST_CASE("impossible irregular parameters name the numbers") {
  CHECK_THROWS_WITH_AS(make_network("irregular:nodes=256,switches=75,ports=8,connectivity=0.5"),
                       doctest::Contains("300 ports; 256 nodes leave 44 for switch links, but connecting 75 switches needs at least 148"),
                       Error);
  CHECK_THROWS_WITH_AS(make_network("irregular:connectivity=1.5"), doctest::Contains("connectivity must be in (0, 1]"), Error);
  CHECK_THROWS_AS(make_network("irregular:nodes=0"), Error);
  // Five links cannot join three switches without parallel links.
  CHECK_THROWS_WITH_AS(make_network("irregular:nodes=2,switches=3,ports=4,connectivity=1"),
                       doctest::Contains("5 switch links do not fit between 3 switches"), Error);
  Network doubled = make_network("irregular:nodes=2,switches=3,ports=4,connectivity=1,duplicates=1");
  CHECK(doubled.num_links() == 5);
  check_ports_and_links(doubled, true);
}

TEST_CASE("regular generators have the textbook counts") {
  Network cube = make_network("hypercube:dim=7");
  CHECK(cube.num_switches() == 128);
  CHECK(cube.num_links() == 7 * 64);
  for (int s = 0; s < 128; ++s) CHECK(cube.ports_of(s).size() == 7);

  Network mesh = make_network("mesh:16x16");
  CHECK(mesh.num_links() == 2 * 16 * 15);
  Network torus = make_network("torus:8x8x8");
  CHECK(torus.num_links() == 3 * 512);
  for (int s = 0; s < 512; ++s) CHECK(torus.ports_of(s).size() == 6);
  CHECK(make_network("torus:2x4").num_links() == 4 + 2 * 4);  // no doubled link in the extent-2 ring
  check_ports_and_links(make_network("torus:4x3x5"), false);

  Network tree = make_network("fattree:k=4,levels=3");
  CHECK(tree.num_switches() == 48);
  CHECK(tree.num_nodes() == 64);
  CHECK(tree.num_links() == 2 * 16 * 4);
  check_ports_and_links(tree, false);

  Network tree2 = make_network("tree2");
  CHECK(tree2.num_switches() == 5);
  CHECK(tree2.num_nodes() == 128);
  CHECK(tree2.link(0).bandwidth == 8e9);
  CHECK(tree2.node(0).bandwidth == 1.25e9);
  CHECK(tree2.switch_at(1).router_delay == 420e-9);
  CHECK(make_network("tree2:up_bw=16Gbps").link(2).bandwidth == 2e9);

  Network sup = make_network("suprenum:c=4,d=16,alpha=5");
  CHECK(sup.num_switches() == 16 + 8);
  CHECK(sup.num_nodes() == 256);
  CHECK(sup.num_links() == 32);
  check_ports_and_links(sup, false);
}

TEST_CASE("link keys apply to every generator") {
  Network net = make_network("mesh:4x4,link_bw=40Gbps,t_p=5ns,t_r=100ns,t_s=1us,node_bw=20Gbps");
  CHECK(net.link(0).bandwidth == 5e9);
  CHECK(net.link(0).latency == 5 / 1e9);
  CHECK(net.switch_at(0).router_delay == 100 / 1e9);
  CHECK(net.startup == 1 / 1e6);
  CHECK(net.node(0).bandwidth == 2.5e9);
}

TEST_CASE("typed link overrides (a scenario's model: keys) apply like the spec's own link keys") {
  LinkOverrides links;
  links.link_bandwidth = 5e9;
  links.link_latency = 5e-9;
  links.startup = 1e-6;
  for (const char* spec : {"mesh:4x4", "tree2:switches=2,nodes_per_switch=4", "suprenum:c=2,d=4", "irregular:nodes=16,switches=4,seed=2"}) {
    CAPTURE(spec);
    const Network given = make_network(spec, links);
    const Network written = make_network(std::string(spec) + ",link_bandwidth=40Gbps,t_p=5ns,t_s=1us");
    CHECK(given.startup == written.startup);
    REQUIRE(given.num_links() == written.num_links());
    for (int l = 0; l < given.num_links(); ++l) {
      CHECK(given.link(l).bandwidth == written.link(l).bandwidth);
      CHECK(given.link(l).latency == written.link(l).latency);
    }
  }
  CHECK(make_network("mesh:4x4", links).link(0).bandwidth == 5e9);
  CHECK(make_network("mesh:4x4", links).switch_at(0).router_delay == 300e-9);  // not overridden: the default
  CHECK_THROWS_WITH_AS(make_network("mesh:4x4,t_p=1ns", links), doctest::Contains("'t_p' is given both"), Error);
  CHECK_THROWS_WITH_AS(make_network("mesh:4x4,link_bw=1Gbps", links), doctest::Contains("'link_bandwidth' is given both"), Error);
  CHECK_THROWS_WITH_AS(make_network("file:/nonexistent.yaml", links), doctest::Contains("cannot override the link values of a file"),
                       Error);
  LinkOverrides zero;
  zero.node_bandwidth = 0;
  CHECK_THROWS_WITH_AS(make_network("mesh:4x4", zero), doctest::Contains("node_bandwidth must be > 0"), Error);
}

TEST_CASE("unknown generators and keys are reported") {
  CHECK_THROWS_WITH_AS(make_network("butterfly:k=4"), doctest::Contains("unknown network 'butterfly'"), Error);
  CHECK_THROWS_WITH_AS(make_network("mesh:16x16,speed=3"), doctest::Contains("unknown key 'speed' for mesh"), Error);
  CHECK_THROWS_WITH_AS(make_network("irregular:nodes=256,t_p=fast"), doctest::Contains("bad time 'fast'"), Error);
  CHECK_THROWS_AS(make_network("mesh"), Error);
  CHECK_THROWS_AS(make_network("hypercube:7"), Error);
  CHECK_THROWS_AS(make_network("fattree:k=4,levels=3,16"), Error);
}

TEST_CASE("a leaf-spine from its leaf and spine counts: every leaf linked once to every spine") {
  for (auto [leaves, spines, nodes] : {std::tuple{16, 8, 512}, {4, 2, 10}, {3, 5, 3}}) {
    CAPTURE(leaves);
    CAPTURE(spines);
    const Network net = make_network("fattree:leaves=" + std::to_string(leaves) + ",spines=" + std::to_string(spines) +
                                     ",nodes=" + std::to_string(nodes));
    REQUIRE(net.num_switches() == leaves + spines);
    CHECK(net.num_nodes() == nodes);
    CHECK(net.num_links() == leaves * spines);
    // The nodes sit on the leaves, at most ceil(nodes / leaves) each; each leaf-spine pair has one link.
    std::set<int> leaf_set;
    for (int n = 0; n < net.num_nodes(); ++n) leaf_set.insert(net.node(n).switch_id);
    CHECK(static_cast<int>(leaf_set.size()) <= leaves);
    std::set<std::pair<int, int>> pairs;
    for (int l = 0; l < net.num_links(); ++l) pairs.insert({std::min(net.link(l).a, net.link(l).b), std::max(net.link(l).a, net.link(l).b)});
    check_ports_and_links(net, false);
    CHECK(static_cast<int>(pairs.size()) == leaves * spines);
    for (const auto& [a, b] : pairs) CHECK(leaf_set.count(a) + leaf_set.count(b) <= 1);  // never leaf-leaf
  }
  CHECK_THROWS_WITH_AS(make_network("fattree:leaves=4,nodes=8"), doctest::Contains("needs leaves=, spines= and nodes="), Error);
  CHECK_THROWS_WITH_AS(make_network("fattree:leaves=4,spines=2,nodes=8,radix=16"),
                       doctest::Contains("radix= does not go with leaves= and spines="), Error);
  CHECK_THROWS_WITH_AS(make_network("fattree:leaves=4,spines=2,nodes=8,levels=3"), doctest::Contains("a leaf-spine has levels=2"), Error);
}
