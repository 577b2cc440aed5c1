// slurm:PATH -- Slurm topology.conf (topology/tree plugin) import.
#include <doctest/doctest.h>

#include "test_files.h"

#include <string>

#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "support/error.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

const std::string kSource = MAPSIM_SOURCE_DIR;

Network slurm(const std::string& name, const std::string& text, const std::string& keys = "") {
  return make_network("slurm:" + temp_file(name, text) + keys);
}

std::string slurm_error(const std::string& name, const std::string& text) {
  return error_of([&] { slurm(name, text); });
}

std::string switch_of(const Network& net, int node) { return net.switch_at(net.node(node).switch_id).name; }

}  // namespace

TEST_CASE("slurm: a two-level tree as Slurm's documentation writes it") {
  const Network net = slurm("tree.conf",
                            "# topology.conf\n"
                            "# Switch Configuration\n"
                            "SwitchName=s0 Nodes=tux[0-3]\n"
                            "SwitchName=s1 Nodes=tux[4-7]\n"
                            "SwitchName=s2 Switches=s[0-1]\n");
  CHECK(net.shape.family == Family::Irregular);
  REQUIRE(net.num_switches() == 3);
  REQUIRE(net.num_nodes() == 8);
  REQUIRE(net.num_links() == 2);
  CHECK(net.switch_at(0).name == "s0");
  CHECK(net.switch_at(1).name == "s1");
  CHECK(net.switch_at(2).name == "s2");
  CHECK(net.switch_at(0).ports == 5);  // four nodes and the link up
  CHECK(net.switch_at(1).ports == 5);
  CHECK(net.switch_at(2).ports == 2);
  for (int n = 0; n < 8; ++n) {
    CHECK(net.node(n).name == "tux" + std::to_string(n));
    CHECK(switch_of(net, n) == (n < 4 ? "s0" : "s1"));
  }
  CHECK(((net.link(0).a == 2 && net.link(0).b == 0) || (net.link(0).a == 0 && net.link(0).b == 2)));
  CHECK(((net.link(1).a == 2 && net.link(1).b == 1) || (net.link(1).a == 1 && net.link(1).b == 2)));
  // Default link values, as every generator.
  CHECK(net.link(0).bandwidth == LinkDefaults{}.link_bandwidth);
  CHECK(net.node(0).bandwidth == LinkDefaults{}.node_bandwidth);
  CHECK(net.switch_at(0).router_delay == LinkDefaults{}.router_delay);

  for (const char* routing : {"", "updn", "minhop"}) {
    CAPTURE(routing);
    const RoutedNetwork routed = *routing ? RoutedNetwork(net, routing) : RoutedNetwork(net);
    const RouteAnalysis a = analyse_routes(routed);
    CHECK(a.routes_legal);
    CHECK(a.deadlock_free);
    CHECK(a.diameter == 2);
  }
}

TEST_CASE("slurm: link parameters from the spec, keys case-insensitive, LinkSpeed read and ignored") {
  const Network net = slurm("keys.conf",
                            "switchname=leaf NODES=n[1-2]   LinkSpeed=100  # a comment\n"
                            "\t SWITCHNAME=top switches=leaf\r\n"
                            "\n"
                            "   # only a comment\n",
                            ",link_bandwidth=100Gbps,node_bandwidth=25Gbps,t_r=100ns,t_s=1us");
  REQUIRE(net.num_switches() == 2);
  REQUIRE(net.num_nodes() == 2);
  REQUIRE(net.num_links() == 1);
  CHECK(net.switch_at(1).name == "top");
  CHECK(net.link(0).bandwidth == doctest::Approx(100e9 / 8));
  CHECK(net.node(1).bandwidth == doctest::Approx(25e9 / 8));
  CHECK(net.switch_at(0).router_delay == doctest::Approx(100e-9));
  CHECK(net.startup == doctest::Approx(1e-6));
  LinkOverrides overrides;
  overrides.link_bandwidth = 5e9;
  CHECK(make_network("slurm:" + temp_path("keys.conf"), overrides).link(0).bandwidth == 5e9);
}

TEST_CASE("slurm: hostlists expand with their leading zeros, several ranges and commas in and out of brackets") {
  const Network net = slurm("hostlists.conf",
                            "SwitchName=a Nodes=node[08-10,20],gpu[1-2]\n"
                            "SwitchName=b Nodes=rack[1-2]n[01-02]\n"
                            "SwitchName=c Nodes=login,cn[007-008],x[9-10]\n"
                            "SwitchName=top Switches=a,b,c\n");
  std::vector<std::string> names;
  for (const Node& n : net.nodes()) names.push_back(n.name);
  CHECK(names == std::vector<std::string>{"node08", "node09", "node10", "node20", "gpu1", "gpu2", "rack1n01", "rack1n02",
                                          "rack2n01", "rack2n02", "login", "cn007", "cn008", "x9", "x10"});
  CHECK(switch_of(net, 5) == "a");
  CHECK(switch_of(net, 9) == "b");
  CHECK(switch_of(net, 14) == "c");
  CHECK(net.switch_at(3).ports == 3);
  CHECK(net.switch_at(0).ports == 7);
}

TEST_CASE("slurm: switches may have several parents and list switches defined further down") {
  const Network net = slurm("fat.conf",
                            "SwitchName=spine0 Switches=leaf[0-1]\n"
                            "SwitchName=spine1 Switches=leaf[0-1]\n"
                            "SwitchName=leaf0 Nodes=n[0-1]\n"
                            "SwitchName=leaf1 Nodes=n[2-3]\n");
  CHECK(net.num_links() == 4);
  CHECK(net.switch_at(2).ports == 4);
  const RouteAnalysis a = analyse_routes(RoutedNetwork(net));
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
}

TEST_CASE("slurm: the example configuration") {
  const Network net = make_network("slurm:" + kSource + "/configs/networks/slurm-topology.conf");
  CHECK(net.num_switches() == 4);
  CHECK(net.num_nodes() == 12);
  CHECK(net.num_links() == 3);
  CHECK(net.node(0).name == "node01");
  CHECK(net.node(11).name == "gpu2");
  CHECK(switch_of(net, 11) == "leaf3");
  CHECK(net.switch_at(3).name == "spine");
  const RouteAnalysis a = analyse_routes(RoutedNetwork(net));
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
}

TEST_CASE("slurm: errors name the file, the line and what was expected") {
  const std::string p = temp_path("");  // the files' common prefix
  CHECK(slurm_error("e1.conf", "SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodez=n2\n") ==
        p + "e1.conf:2: unknown key 'Nodez' (did you mean 'Nodes'?); expected SwitchName, Switches, Nodes or LinkSpeed");
  CHECK(slurm_error("e2.conf", "# c\nSwitchName=s0 Nodes=n[1-2\n") ==
        p + "e2.conf:2: malformed hostlist in Nodes: '[' without ']' in 'n[1-2'; expected a hostlist such as node[01-16,20],gpu[1-2]");
  CHECK(slurm_error("e3.conf", "SwitchName=s0 Nodes=n1-2]\n") ==
        p + "e3.conf:1: malformed hostlist in Nodes: ']' without '[' in 'n1-2]'; expected a hostlist such as node[01-16,20],gpu[1-2]");
  CHECK(slurm_error("e4.conf", "SwitchName=s0 Nodes=n[1-2]\nSwitchName=s1 Nodes=m[5-3]\n") ==
        p + "e4.conf:2: malformed hostlist in Nodes: reversed range '5-3' in 'm[5-3]'; expected a hostlist such as node[01-16,20],gpu[1-2]");
  CHECK(slurm_error("e5.conf", "SwitchName=s0 Nodes=n[0-1048576]\n") ==
        p + "e5.conf:1: malformed hostlist in Nodes: hostlist 'n[0-1048576]' names over a million hosts; expected a hostlist such as node[01-16,20],gpu[1-2]");
  CHECK(slurm_error("e6.conf", "SwitchName=s0 Nodes=n[]\n").find("e6.conf:1: malformed hostlist in Nodes: empty brackets in 'n[]'") == 0 + p.size());
  CHECK(slurm_error("e7.conf", "SwitchName=s0 Nodes=a\nSwitchName=s1 Nodes=b\nSwitchName=s0 Nodes=c\n") ==
        p + "e7.conf:3: switch 's0' is listed twice (first on line 1)");
  CHECK(slurm_error("e8.conf", "SwitchName=s0 Nodes=a\n\nSwitchName=top Switches=s[0-1]\n") ==
        p + "e8.conf:3: switch 'top' lists switch 's1', which has no SwitchName line");
  CHECK(slurm_error("e9.conf", "SwitchName=s0 Nodes=n[1-4]\nSwitchName=s1 Nodes=n[4-8]\nSwitchName=t Switches=s[0-1]\n") ==
        p + "e9.conf:2: node 'n4' is on two switches: 's0' (line 1) and 's1'");
  CHECK(slurm_error("e10.conf", "SwitchName=s0 Nodes=n1,n1\n") == p + "e10.conf:1: node 'n1' is listed twice on switch 's0'");
  CHECK(slurm_error("e11.conf", "# no nodes\nSwitchName=s0 Switches=s1\nSwitchName=s1\n") ==
        p + "e11.conf: no nodes; expected Nodes=HOSTLIST on at least one switch");
  CHECK(slurm_error("e12.conf", "# nothing\n\n") ==
        p + "e12.conf: no switches; expected lines 'SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]'");
  CHECK(slurm_error("e13.conf", "SwitchName=s0 Nodes=a\nSwitchName=s1 Nodes=b\nSwitchName=s2 Nodes=c\nSwitchName=t Switches=s0,s2\n") ==
        p + "e13.conf:2: switch 's1' is not connected to switch 's0' (line 1); expected one switch graph: list it in another switch's Switches=");
  CHECK(slurm_error("e14.conf", "SwitchName=s\x01 Nodes=a\n") ==
        p + "e14.conf:1: switch name 's\x01' is not a plain name; expected printable ASCII without blanks, brackets or commas");
  CHECK(slurm_error("e15.conf", "SwitchName=s0 Nodes=a,b\xff\n") ==
        p + "e15.conf:1: node name 'b\xff' is not a plain name; expected printable ASCII without blanks");
  CHECK(slurm_error("e16.conf", "SwitchName=s0 Nodes=a\nNodes=b\n") ==
        p + "e16.conf:2: no SwitchName; expected SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]");
  CHECK(slurm_error("e17.conf", "SwitchName=s0 Nodes=a\nSwitchName=s1 Nodes=b nodes=c\n") ==
        p + "e17.conf:2: 'nodes' is given twice on one line (also as 'Nodes')");
  CHECK(slurm_error("e18.conf", "SwitchName=s0 Nodes=a Include\n") ==
        p + "e18.conf:1: expected KEY=VALUE (SwitchName, Switches, Nodes or LinkSpeed), got 'Include'");
  CHECK(slurm_error("e19.conf", "SwitchName=s0 Nodes=\n") == p + "e19.conf:1: 'Nodes' has no value; expected a hostlist such as node[01-16]");
  CHECK(slurm_error("e20.conf", "SwitchName=s0 Nodes=a LinkSpeed=fast\n") ==
        p + "e20.conf:1: LinkSpeed 'fast': expected a non-negative integer");
  CHECK(slurm_error("e21.conf", "SwitchName=s0 Nodes=a Switches=s0\n") == p + "e21.conf:1: switch 's0' lists itself");
  CHECK(slurm_error("e22.conf", "SwitchName=s0 Nodes=a Switches=s1\nSwitchName=s1 Nodes=b Switches=s0\n") ==
        p + "e22.conf:2: switches 's1' and 's0' are already linked (line 1)");
  CHECK(slurm_error("e23.conf", "BlockName=b1 Nodes=a\n") ==
        p + "e23.conf:1: unknown key 'BlockName'; expected SwitchName, Switches, Nodes or LinkSpeed (the topology/tree format; topology/block is not read)");
  CHECK(error_of([] { make_network("slurm:/nonexistent/topology.conf"); }).find("/nonexistent/topology.conf") == 0);
}

TEST_CASE("slurm: input past the network limits is refused before the network is built") {
  // One switch past 2^20 (the nodes and links limits are checked the same way, line by line).
  std::string text = "SwitchName=s0 Nodes=n0\n";
  for (long s = 1; s <= kMaxNetworkSwitches; ++s) text += "SwitchName=s" + std::to_string(s) + "\n";
  CHECK(slurm_error("big.conf", text) == temp_path("big.conf:1048577: over 1048576 switches (the network limit)"));
  CHECK(slurm_error("long.conf", "SwitchName=s0 Nodes=" + std::string(2 << 20, 'a') + "\n") ==
        temp_path("long.conf:1: line longer than 1048576 bytes; expected a topology.conf line 'SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST]'"));
}
