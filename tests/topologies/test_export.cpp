#include <doctest/doctest.h>

#include "test_files.h"
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
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
  for (int s = 0; s < 9; ++s) CHECK(dot.find("s" + std::to_string(s) + " [label=\"sw-" + std::to_string(s) + "\"]") != std::string::npos);
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
  CHECK(dot.find("largest here 100B") != std::string::npos);
  // The legend: five steps from idle green to the scale's red, in the load's unit.
  CHECK(dot.find("<TD BGCOLOR=\"#16D916\">0B</TD>") != std::string::npos);
  CHECK(dot.find("<TD BGCOLOR=\"#D91616\">100B</TD>") != std::string::npos);

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
