#include <doctest/doctest.h>

#include "test_files.h"
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <simgrid/s4u.hpp>
#include <sstream>

#include "support/error.h"
#include "routing/export.h"
#include "topologies/network_factory.h"
#include "topologies/network_file.h"

using namespace mapsim;
namespace sg4 = simgrid::s4u;

namespace {


// SimGrid allows one engine per process: each platform is checked in a child process.
// Returns the number of node pairs whose SimGrid route differs from mapsim's.
int simgrid_mismatches(const RoutedNetwork& routed, const std::string& file) {
  {
    std::ofstream out(file);
    export_simgrid(routed, out);
  }
  pid_t pid = fork();
  if (pid == 0) {
    int argc = 2;
    char arg0[] = "test", arg1[] = "--log=root.thres:critical";
    char* argv[] = {arg0, arg1, nullptr};
    sg4::Engine engine(&argc, argv);
    engine.load_platform(file);
    const Network& net = routed.network();
    int bad = 0;
    for (int a = 0; a < net.num_nodes(); ++a)
      for (int b = 0; b < net.num_nodes(); ++b) {
        if (a == b) continue;
        std::vector<sg4::Link*> links;
        double latency = 0;
        sg4::Host::by_name("node-" + std::to_string(a))->route_to(sg4::Host::by_name("node-" + std::to_string(b)), links, &latency);
        const bool same = static_cast<int>(links.size()) == routed.hops(a, b) + 2 &&
                          std::abs(latency - routed.latency(a, b)) <= 1e-12 * routed.latency(a, b);
        bad += !same;
      }
    _exit(bad > 250 ? 250 : bad);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

}  // namespace

TEST_CASE("JSON export loads back as the same network") {
  for (const char* spec : {"irregular:nodes=64,switches=20,seed=7,t_p=33ns", "torus:4x4x2", "fattree:k=3,levels=2",
                           "suprenum:c=2,d=3,alpha=5", "tree2"}) {
    RoutedNetwork routed(make_network(spec));
    const std::string path = temp_path("roundtrip.json");
    {
      std::ofstream out(path);
      export_json(routed, out);
    }
    Network back = make_network("file:" + path);
    const Network& net = routed.network();
    CHECK(back.shape.family == net.shape.family);
    CHECK(back.shape.dims == net.shape.dims);
    CHECK(back.startup == net.startup);
    REQUIRE(back.num_switches() == net.num_switches());
    REQUIRE(back.num_nodes() == net.num_nodes());
    REQUIRE(back.num_links() == net.num_links());
    for (int i = 0; i < net.num_links(); ++i) {
      CHECK(back.link(i).a == net.link(i).a);
      CHECK(back.link(i).b == net.link(i).b);
      CHECK(back.link(i).bandwidth == net.link(i).bandwidth);
      CHECK(back.link(i).latency == net.link(i).latency);
    }
    for (int i = 0; i < net.num_nodes(); ++i) CHECK(back.node(i).switch_id == net.node(i).switch_id);
    for (int i = 0; i < net.num_switches(); ++i) CHECK(back.switch_at(i).router_delay == net.switch_at(i).router_delay);
    // Structure survives too, so the same routing applies to the loaded copy.
    RoutedNetwork again(back);
    CHECK(again.routing().name() == routed.routing().name());
    CHECK(again.hops(0, net.num_nodes() - 1) == routed.hops(0, net.num_nodes() - 1));
  }
}

TEST_CASE("SimGrid export: SimGrid sees mapsim's routes and zero-load latencies") {
  // Hierarchical zones (switch-level routes) and a flat zone (d-mod-k's per-node routes).
  CHECK(simgrid_mismatches(RoutedNetwork(make_network("irregular:nodes=32,switches=16,ports=6,seed=4,t_r=250ns")),
                           temp_path("irregular.xml")) == 0);
  CHECK(simgrid_mismatches(RoutedNetwork(make_network("fattree:k=2,levels=3")), temp_path("fattree.xml")) == 0);
  CHECK(simgrid_mismatches(RoutedNetwork(make_network("file:" + std::string(MAPSIM_SOURCE_DIR) +
                                                      "/configs/networks/example-cluster.yaml")),
                           temp_path("file.xml")) == 0);
}

TEST_CASE("dot export names every switch and node") {
  RoutedNetwork routed(make_network("mesh:3x3"));
  std::ostringstream out;
  export_dot(routed, out);
  const std::string dot = out.str();
  CHECK(dot.rfind("graph mapsim {", 0) == 0);
  for (int s = 0; s < 9; ++s) CHECK(dot.find("s" + std::to_string(s) + " [label=\"sw-" + std::to_string(s) + "\"") != std::string::npos);
  CHECK(dot.find("n8 -- s8") != std::string::npos);
  CHECK_THROWS_AS(export_network(routed, "png", out), Error);
}

TEST_CASE("load picture: link width by the busier direction, node shade by ranks") {
  RoutedNetwork routed(make_network("mesh:3x1"));  // links s0-s1 (channels 0, 1) and s1-s2 (2, 3)
  const Network& net = routed.network();
  std::vector<double> load(net.num_channels() + 2 * net.num_nodes(), 0);
  load[1] = 100;  // s1 -> s0 direction of link 0: the busiest
  load[2] = 50;
  std::ostringstream out;
  LoadPicture picture;
  picture.title = "test";
  export_load_dot(routed, load, {2, 0, 1}, picture, out);
  const std::string dot = out.str();
  CHECK(dot.find("s0 -- s1 [color=\"0.000 0.9 0.85\", penwidth=8") != std::string::npos);  // red, widest
  CHECK(dot.find("s1 -- s2 [color=\"0.167 0.9 0.85\", penwidth=4.5") != std::string::npos);
  CHECK(dot.find("n1 [fillcolor=white") != std::string::npos);
  CHECK(dot.find("n0 [fillcolor=9") != std::string::npos);
  CHECK(dot.find("n2 [fillcolor=6") != std::string::npos);
  CHECK(dot.find("largest here 100 B") != std::string::npos);
  // The legend: five steps from idle green to the scale's red, in the load's unit.
  CHECK(dot.find("<TD BGCOLOR=\"#16D916\">0 B</TD>") != std::string::npos);
  CHECK(dot.find("<TD BGCOLOR=\"#D91616\">100 B</TD>") != std::string::npos);

  // A shared scale of 200: the busiest link here is half way, yellow; switches stand for their nodes.
  picture.scale = 200;
  picture.per_switch = true;
  picture.bytes = false;
  std::ostringstream shared;
  export_load_dot(routed, load, {2, 0, 1}, picture, shared);
  const std::string view = shared.str();
  CHECK(view.find("s0 -- s1 [color=\"0.167 0.9 0.85\", penwidth=4.5") != std::string::npos);
  CHECK(view.find("200 (shared scale)</TD>") != std::string::npos);
  CHECK(view.find("routed volume on its busier direction") != std::string::npos);
  CHECK(view.find("s0 [label=\"sw-0\", xlabel=\"2\", fillcolor=9") != std::string::npos);
  CHECK(view.find("n0") == std::string::npos);
}

namespace {

struct Drawn {
  double x, y;
};

// The pinned positions of a drawing's vertices ("s3" -> x, y), from their pos="x,y!" attributes.
std::map<std::string, Drawn> positions(const std::string& dot) {
  std::map<std::string, Drawn> out;
  std::istringstream in(dot);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find("pos=\"");
    if (at == std::string::npos || line.find(" -- ") != std::string::npos) continue;
    const size_t first = line.find_first_not_of(' ');
    const std::string id = line.substr(first, line.find(' ', first) - first);
    Drawn d{};
    REQUIRE(std::sscanf(line.c_str() + at, "pos=\"%lf,%lf!\"", &d.x, &d.y) == 2);
    out[id] = d;
  }
  return out;
}

std::string dot_of(const std::string& spec) {
  std::ostringstream out;
  export_dot(RoutedNetwork(make_network(spec)), out);
  return out.str();
}

std::string load_dot_of(const std::string& spec, bool per_switch) {
  const Network net = make_network(spec);
  std::vector<double> load(net.num_channels(), 1);
  LoadPicture picture;
  picture.title = spec;
  picture.per_switch = per_switch;
  std::ostringstream out;
  export_load_dot(net, load, std::vector<int>(net.num_nodes(), 1), picture, out);
  return out.str();
}

}  // namespace

TEST_CASE("drawings of trees: nodes at the bottom, then the leaves, then each level above") {
  // fattree:nodes=32,radix=8 is a leaf-spine: 8 leaves sw-1-* of 4 nodes, 4 spines sw-2-*.
  for (const std::string& dot : {dot_of("fattree:nodes=32,radix=8"), load_dot_of("fattree:nodes=32,radix=8", false),
                                 load_dot_of("fattree:nodes=32,radix=8", true)}) {
    CAPTURE(dot);
    CHECK(dot.find("layout=neato") != std::string::npos);
    const auto at = positions(dot);
    const Network net = make_network("fattree:nodes=32,radix=8");
    double lowest_spine = 1e9, highest_leaf = -1e9, lowest_leaf = 1e9, highest_node = -1e9;
    for (int s = 0; s < net.num_switches(); ++s) {
      REQUIRE(at.count("s" + std::to_string(s)));
      const double y = at.at("s" + std::to_string(s)).y;
      if (net.switch_at(s).name.rfind("sw-2-", 0) == 0) lowest_spine = std::min(lowest_spine, y);
      else highest_leaf = std::max(highest_leaf, y), lowest_leaf = std::min(lowest_leaf, y);
    }
    for (int n = 0; n < net.num_nodes(); ++n)
      if (at.count("n" + std::to_string(n))) highest_node = std::max(highest_node, at.at("n" + std::to_string(n)).y);
    CHECK(lowest_spine > highest_leaf);
    CHECK(lowest_leaf == highest_leaf);  // one row
    CHECK(highest_node < lowest_leaf);  // (no node vertices when switches stand for them)
    // Leaves in id order from left to right, each above its own nodes.
    for (int s = 1; s < 8; ++s) CHECK(at.at("s" + std::to_string(s)).x > at.at("s" + std::to_string(s - 1)).x);
  }
  // A k-ary 3-tree: three rows, level by level; tree2: the top switch S0 above S1..S4.
  const auto tree = positions(dot_of("fattree:k=2,levels=3"));
  for (int level = 1; level < 3; ++level)
    for (int w = 0; w < 4; ++w) CHECK(tree.at("s" + std::to_string(level * 4 + w)).y > tree.at("s" + std::to_string((level - 1) * 4)).y);
  const auto two = positions(dot_of("tree2:switches=4,nodes_per_switch=2"));
  for (int s = 1; s <= 4; ++s) CHECK(two.at("s0").y > two.at("s" + std::to_string(s)).y);
}

TEST_CASE("drawings of dragonflies: one cluster per group with its routers and their nodes") {
  const Network net = make_network("dragonfly:a=4,p=2,h=2");  // 9 groups
  for (bool per_switch : {false, true}) {
    const std::string dot = per_switch ? load_dot_of("dragonfly:a=4,p=2,h=2", true) : dot_of("dragonfly:a=4,p=2,h=2");
    CAPTURE(dot);
    std::istringstream in(dot);
    std::string line;
    int clusters = 0;
    std::set<std::string> seen;
    while (std::getline(in, line)) {
      if (line.find("subgraph cluster_g") == std::string::npos) continue;
      const int g = std::stoi(line.substr(line.find("cluster_g") + 9));
      CHECK(g == clusters++);
      std::set<std::string> members;
      std::istringstream words(line);
      for (std::string word; words >> word;)  // the vertices named in it: "s12;", "n3;"
        if (word.size() > 2 && (word[0] == 's' || word[0] == 'n') && word.back() == ';' &&
            word.find_first_not_of("0123456789", 1) == word.size() - 1)
          members.insert(word.substr(0, word.size() - 1));
      std::set<std::string> expected;
      for (int j = 0; j < 4; ++j) {
        expected.insert("s" + std::to_string(g * 4 + j));
        if (!per_switch)
          for (int n : net.nodes_of(g * 4 + j)) expected.insert("n" + std::to_string(n));
      }
      CHECK(members == expected);
      for (const std::string& m : members) CHECK(seen.insert(m).second);  // in one cluster only
    }
    CHECK(clusters == 9);
    // Global links run between the clusters: the routers of a group lie closer to each other than to any other group's.
    const auto at = positions(dot);
    auto distance = [&](int a, int b) {
      const Drawn p = at.at("s" + std::to_string(a)), q = at.at("s" + std::to_string(b));
      return std::hypot(p.x - q.x, p.y - q.y);
    };
    for (int a = 0; a < net.num_switches(); ++a)
      for (int b = 0; b < net.num_switches(); ++b)
        if (a / 4 == b / 4)
          for (int c = 0; c < net.num_switches(); ++c)
            if (c / 4 != a / 4) CHECK(distance(a, b) < distance(a, c));
  }
}

TEST_CASE("drawings of lattices: positions form the grid of the switch coordinates") {
  for (const char* spec : {"torus:4x3", "mesh:4x3", "hyperx:4x3"}) {
    CAPTURE(spec);
    const auto at = positions(dot_of(spec));
    for (int s = 0; s < 12; ++s) {
      const int x = s % 4, y = s / 4;
      const Drawn p = at.at("s" + std::to_string(s));
      CHECK(p.x == doctest::Approx(at.at("s" + std::to_string(x)).x));      // a column shares x
      CHECK(p.y == doctest::Approx(at.at("s" + std::to_string(4 * y)).y));  // a row shares y
      if (x > 0) CHECK(p.x > at.at("s" + std::to_string(s - 1)).x);
      if (y > 0) CHECK(p.y < at.at("s" + std::to_string(s - 4)).y);  // rows downwards
    }
  }
  CHECK(dot_of("torus:4x3").find("splines=true") != std::string::npos);  // wrap-around links routed around the row
  CHECK(dot_of("mesh:4x3").find("splines=line") != std::string::npos);
  // Past 100 links the links are straight: a torus bows each row (and column) so that its wrap-around
  // link from the first to the last switch passes beside the others, not through them.
  const std::string big = dot_of("torus:8x8");
  CHECK(big.find("splines=line") != std::string::npos);
  const auto bowed = positions(big);
  for (int y = 0; y < 8; ++y)
    for (int x = 1; x < 7; ++x) {
      CHECK(bowed.at("s" + std::to_string(8 * y + x)).y > bowed.at("s" + std::to_string(8 * y)).y + 0.25);
      CHECK(bowed.at("s" + std::to_string(8 * x + y)).x > bowed.at("s" + std::to_string(y)).x + 0.25);
    }
  // A hypercube is the lattice of its bits: dimension 0 across, 1 down, 2 across again beside the first block.
  const auto cube = positions(dot_of("hypercube:dim=3"));
  CHECK(cube.at("s1").y == doctest::Approx(cube.at("s0").y));
  CHECK(cube.at("s2").x == doctest::Approx(cube.at("s0").x));
  CHECK(cube.at("s4").y == doctest::Approx(cube.at("s0").y));
  CHECK(cube.at("s4").x > cube.at("s1").x);
}

TEST_CASE("irregular networks keep the free layout") {
  const std::string spec = "irregular:nodes=8,switches=3,ports=6,seed=3";
  const std::string dot = dot_of(spec);
  CHECK(dot.rfind("graph mapsim {\n  // irregular network, routing updn\n  node [shape=box, style=filled, fillcolor=lightsteelblue];\n", 0) == 0);
  CHECK(dot.find("pos=") == std::string::npos);
  CHECK(dot.find("layout") == std::string::npos);
  CHECK(dot.find("cluster") == std::string::npos);
  CHECK(dot.find("  node [shape=circle, width=0.15, label=\"\", fillcolor=gold];\n") != std::string::npos);
  CHECK(dot.find(" [label=\"10Gbps\"];\n") != std::string::npos);
  const std::string load = load_dot_of(spec, false);
  CHECK(load.find("graph [layout=neato, overlap=false, fontname=\"sans\"") != std::string::npos);
  CHECK(load.find("pos=") == std::string::npos);
  CHECK(load.find("[color=gray60, len=0.4];\n") != std::string::npos);
}

TEST_CASE("loads in one unit: bytes in binary units with 4 digits, routed volumes as numbers") {
  CHECK(format_load(7.86624e6, true) == "7.502 MiB");
  CHECK(format_load(100, true) == "100 B");
  CHECK(format_load(0, true) == "0 B");
  CHECK(format_load(2048, true) == "2 KiB");
  CHECK(format_load(7.86624e6, false) == "7.866e+06");
  CHECK(std::string(load_unit(3e9, true).first) == "GiB");
  CHECK(load_unit(3e9, true).second == doctest::Approx(1.0 / (1 << 30)));
}
