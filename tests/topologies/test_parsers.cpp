#include <doctest/doctest.h>

#include "test_files.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "support/error.h"
#include "topologies/ibnetdiscover.h"
#include "topologies/network_factory.h"
#include "topologies/network_file.h"
#include "topologies/node_list.h"
#include "routing/route_analysis.h"
#include "routing/routed_network.h"
#include "support/yaml_reader.h"

using namespace mapsim;

namespace {
const std::string kSource = MAPSIM_SOURCE_DIR;
}  // namespace

TEST_CASE("the example network file loads with its attributes") {
  Network net = make_network("file:" + kSource + "/configs/networks/example-cluster.yaml");
  CHECK(net.num_switches() == 4);
  CHECK(net.num_nodes() == 8);
  CHECK(net.num_links() == 4);
  CHECK(net.switch_at(2).ports == 12);
  CHECK(net.switch_at(3).router_delay == 420 / 1e9);
  CHECK(net.node(4).bandwidth == 25e9 / 8);
  CHECK(net.link(3).bandwidth == 5e9);
  CHECK(net.link(3).latency == 50 / 1e9);
  CHECK(net.startup == 2 / 1e6);
  RouteAnalysis a = analyse_routes(RoutedNetwork(net));
  CHECK(a.routes_legal);
  CHECK(a.deadlock_free);
}

TEST_CASE("network file errors carry file, line and what was expected") {
  auto error_of = [](const std::string& name, const std::string& text) {
    try {
      load_network_file(temp_file(name, text));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string malformed = error_of("malformed.yaml", "switches:\n  - sw0\nnodes: [\n  {name: n0, switch: sw0}\n");
  CHECK(malformed.find("malformed.yaml:") != std::string::npos);
  CHECK(malformed.find("malformed YAML") != std::string::npos);

  std::string typo = error_of("typo.yaml", "switches: [sw0]\nnodes: [{name: n0, switch: sw0}]\nlinks: []\nlinkz: []\n");
  CHECK(typo.find("typo.yaml:4:1: unknown key 'linkz' (did you mean 'links'?)") != std::string::npos);

  std::string unknown = error_of("unknown.yaml", "switches: [sw0]\nnodes:\n  - {name: n0, switch: sw9}\nlinks: []\n");
  CHECK(unknown.find("unknown.yaml:3:") != std::string::npos);
  CHECK(unknown.find("unknown switch 'sw9'") != std::string::npos);

  std::string unit = error_of("unit.yaml", "defaults: {link_latency: 20 parsecs}\nswitches: [a]\nnodes: [{name: n, switch: a}]\nlinks: []\n");
  CHECK(unit.find("unit.yaml:1:26: bad time '20 parsecs'") != std::string::npos);

  std::string ports = error_of("ports.yaml", "switches: [{name: a, ports: 1}, b]\nnodes: [{name: n, switch: a}]\nlinks: [[a, b]]\n");
  CHECK(ports.find("switch 'a' uses 2 ports but has only 1") != std::string::npos);

  std::string split = error_of("split.yaml", "switches: [a, b]\nnodes: [{name: n, switch: a}]\nlinks: []\n");
  CHECK(split.find("disconnected") != std::string::npos);

  CHECK(error_of("missing.yaml", "switches: [a]\nnodes: []\n").find("missing 'links' list") != std::string::npos);
  CHECK(error_of("empty.yaml", "").find("empty network file") != std::string::npos);
  CHECK_THROWS_WITH_AS(load_network_file("/nonexistent/net.yaml"), doctest::Contains("/nonexistent/net.yaml: no such YAML file"), Error);

  // One document: a second one would be dropped unread (issue 29); markers around one are fine.
  const std::string one = "switches: [a]\nnodes: [{name: n, switch: a}]\nlinks: []\n";
  CHECK(error_of("two-docs.yaml", one + "---\nswitches: [b]\n") == temp_path("two-docs.yaml") + ":4: a second YAML document; expected one");
  CHECK(error_of("after-end.yaml", "%YAML 1.2\n---\n" + one + "...\n# comment\nswitches: [b]\n") ==
        temp_path("after-end.yaml") + ":8: a second YAML document; expected one");
  CHECK(error_of("empty-second.yaml", "--- # first\n" + one + "---\n") ==
        temp_path("empty-second.yaml") + ":5: a second YAML document; expected one");
  CHECK(load_network_file(temp_file("markers.yaml", "# net\n%YAML 1.2\n---\n" + one + "...\n# end\n")).num_nodes() == 1);
  CHECK(load_network_file(temp_file("bom.yaml", "\xEF\xBB\xBF" + one)).num_nodes() == 1);
}

TEST_CASE("nearest key suggestions") {
  CHECK(nearest_word("linkz", {"switches", "nodes", "links"}) == "links");
  CHECK(nearest_word("router_dely", {"router_delay", "ports"}) == "router_delay");
  CHECK(nearest_word("zzzzzz", {"a", "b"}).empty());
}

TEST_CASE("ibnetdiscover output becomes switches, nodes and rated links") {
  Network net = make_network("ibnet:" + kSource + "/configs/networks/example.ibnet");
  CHECK(net.shape.family == Family::IbNet);
  CHECK(net.num_switches() == 2);
  CHECK(net.num_nodes() == 4);
  CHECK(net.num_links() == 2);  // two parallel cables, each listed at both ends
  CHECK(net.switch_at(0).name == "leaf-a");
  CHECK(net.switch_at(0).ports == 36);
  CHECK(net.node(0).name == "cn01");
  CHECK(net.node(0).bandwidth == 4 * 25e9 / 8);   // 4xEDR
  CHECK(net.node(3).bandwidth == 4 * 8e9 / 8);    // 4xQDR
  CHECK(net.link(1).bandwidth == doctest::Approx(4 * 13.64e9 / 8));  // 4xFDR
  CHECK(infiniband_rate("12xHDR") == 12 * 50e9 / 8);
  CHECK(infiniband_rate("fast") == 0);
  CHECK(analyse_routes(RoutedNetwork(net)).routes_legal);
}

TEST_CASE("ibnetdiscover errors name the line") {
  std::ifstream in(kSource + "/configs/networks/example.ibnet");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Truncated: cut before the last CA's description, so a switch port names an undescribed peer.
  std::string truncated = text.substr(0, text.rfind("vendid=0x2c9"));
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(temp_file("truncated.ibnet", truncated), LinkDefaults{}),
                       doctest::Contains("peer H-248a0703009c0040 is never described (truncated file?)"), Error);
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(temp_file("cut.ibnet", text.substr(0, text.find("[2]\t\"H-248a0703009c0020\"") + 12)),
                                          LinkDefaults{}),
                       doctest::Contains("cut.ibnet:12: unrecognised line"), Error);
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(temp_file("orphan.ibnet", "[1]\t\"S-01\"[2]\n"), LinkDefaults{}),
                       doctest::Contains("orphan.ibnet:1: port line before any Switch/Ca header"), Error);
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(temp_file("none.ibnet", "# nothing here\n"), LinkDefaults{}),
                       doctest::Contains("no Switch or Ca found"), Error);
}

TEST_CASE("ibnet links listed at one end only, with ends that disagree or a port listed twice are errors, not links (issue 29)") {
  std::ifstream in(kSource + "/configs/networks/example.ibnet");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto load = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string edited = text;
    edited.replace(edited.find(from), from.size(), to);
    return error_of([&] { load_ibnetdiscover(temp_file(name, edited), LinkDefaults{}); });
  };
  // leaf-a lists port 36 -> leaf-b[36]; leaf-b's line for it (24) is gone or points elsewhere.
  const std::string back = "[36]\t\"S-7cfe900300a1b2c0\"[36]\t\t# \"leaf-a\" lid 1 4xFDR\n";
  CHECK(load("one-end.ibnet", back, "") ==
        temp_path("one-end.ibnet") + ":14: link S-7cfe900300a1b2c0[36] - S-7cfe900300a1b3d0[36] is listed at this end only: "
                                     "S-7cfe900300a1b3d0 lists no link on port 36");
  CHECK(load("ports.ibnet", back, "[36]\t\"S-7cfe900300a1b2c0\"[34]\n").find(
            "ports.ibnet:14: link S-7cfe900300a1b2c0[36] - S-7cfe900300a1b3d0[36] disagrees with line 24, where port 36 of "
            "S-7cfe900300a1b3d0 leads to S-7cfe900300a1b2c0[34]") != std::string::npos);
  CHECK(load("host.ibnet", "[1](248a0703009c0041) \t\"S-7cfe900300a1b3d0\"[2]", "[1](248a0703009c0041) \t\"S-7cfe900300a1b3d0\"[3]")
            .find("host.ibnet:22: link S-7cfe900300a1b3d0[2] - H-248a0703009c0040[1] disagrees with line 52") != std::string::npos);
  CHECK(load("twice.ibnet", "[36]\t\"S-7cfe900300a1b3d0\"[36]", "[35]\t\"S-7cfe900300a1b3d0\"[36]")
            .find("twice.ibnet:14: port 35 of S-7cfe900300a1b2c0 is listed twice (first on line 13)") != std::string::npos);
  // A file that is no ibnetdiscover output is quoted 40 bytes at most.
  const std::string passwd = temp_file("passwd.ibnet", "root:x:0:0:root:/root:/bin/bash-and-more-and-more\n");
  CHECK(error_of([&] { load_ibnetdiscover(passwd, LinkDefaults{}); }).find("passwd.ibnet:1: unrecognised line "
                                                                           "'root:x:0:0:root:/root:/bin/bash-and-more...' (40 of 49 bytes shown)") !=
        std::string::npos);
  // A UTF-8 byte-order mark (a file saved by a Windows editor) is skipped.
  CHECK(load_ibnetdiscover(temp_file("bom.ibnet", "\xEF\xBB\xBF" + text), LinkDefaults{}).num_nodes() == 4);
}

TEST_CASE("ibnet with its forwarding tables (ibroute / dump_lfts.sh output) routes by them") {
  const std::string fabric = kSource + "/configs/networks/example.ibnet";
  std::ifstream lft_file(kSource + "/configs/networks/example.lft");
  const std::string lft_text((std::istreambuf_iterator<char>(lft_file)), std::istreambuf_iterator<char>());
  RoutedNetwork routed(make_network("ibnet:" + fabric + ",lft=" + kSource + "/configs/networks/example.lft"));
  CHECK(routed.routing().name() == "lft");
  const Network& net = routed.network();
  // leaf-a sends cn03 over port 35 (the EDR link) and cn04 over port 36 (the FDR link); leaf-b
  // answers cn01 over 36 and cn02 over 35: each direction of each cable is used once.
  std::vector<int> route;
  routed.route(0, 3, route);  // cn01 -> cn04
  REQUIRE(route.size() == 1);
  CHECK(net.link(route[0] / 2).bandwidth == doctest::Approx(4 * 13.64e9 / 8));
  routed.route(0, 2, route);  // cn01 -> cn03
  CHECK(net.link(route[0] / 2).bandwidth == doctest::Approx(4 * 25e9 / 8));
  const RouteAnalysis a = analyse_routes(routed);
  CHECK(a.idle_channels == 0);
  CHECK(a.deadlock_free);
  // Without tables the same fabric gets updn; lft then refuses.
  RoutedNetwork plain(make_network("ibnet:" + fabric));
  CHECK(plain.routing().name() == "updn");
  CHECK_THROWS_WITH_AS(RoutedNetwork(make_network("ibnet:" + fabric), "lft"), doctest::Contains("needs a network imported with"),
                       Error);
  auto with_tables = [&](const std::string& name, const std::string& text) {
    return error_of([&] { RoutedNetwork(make_network("ibnet:" + fabric + ",lft=" + temp_file(name, text))); });
  };
  auto replace = [&](std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
  };
  CHECK(with_tables("lft-gap", replace(lft_text, "0x000d 035 : (Channel Adapter portguid 0x248a0703009c0031: 'cn03 HCA-1')\n", ""))
            .find("switch 'leaf-a' has no forwarding entry for cn03") != std::string::npos);
  CHECK(with_tables("lft-port", replace(lft_text, "0x000d 035", "0x000d 007")).find("port 7, which has no link") !=
        std::string::npos);
  CHECK(with_tables("lft-guid", replace(lft_text, "guid 0x7cfe900300a1b2c0 (leaf-a)", "guid 0x1234 (leaf-a)"))
            .find("switch guid 0x1234 is not in the topology") != std::string::npos);
  CHECK(with_tables("lft-junk", lft_text + "garbage here\n").find("unrecognised line 'garbage here'") != std::string::npos);
  // leaf-b sends its own cn03 back to leaf-a, which sends it to leaf-b: a loop the routes never show.
  CHECK(with_tables("lft-loop", replace(lft_text, "0x000d 001", "0x000d 035"))
            .find("lft-loop:21: switch 'leaf-b' forwards its own cn03 to port 35, not to port 1 where it is attached: a "
                  "forwarding loop") != std::string::npos);
}

TEST_CASE("ibnet and LFT lines beyond 4096 bytes are refused before a regex recurses over them") {
  // A 40 KB line overflowed the stack in std::regex's recursive matcher.
  const std::string fabric = kSource + "/configs/networks/example.ibnet";
  std::ifstream in(fabric);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string long_line = "# " + std::string(40000, 'x') + "\n";
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(temp_file("long.ibnet", "# a\n# b\n" + long_line + text), LinkDefaults{}),
                       doctest::Contains("long.ibnet:3: line longer than 4096 bytes; expected ibnetdiscover output"), Error);
  CHECK_THROWS_WITH_AS(
      load_ibnetdiscover(temp_file("long-name.ibnet", "Switch\t36 \"S-01\"\t# \"" + std::string(40000, 'a') + "\"\n"), LinkDefaults{}),
      doctest::Contains("long-name.ibnet:1: line longer than 4096 bytes"), Error);
  CHECK_THROWS_WITH_AS(load_ibnetdiscover(fabric, LinkDefaults{}, temp_file("long.lft", "# a\n" + long_line)),
                       doctest::Contains("long.lft:2: line longer than 4096 bytes; expected ibroute / dump_lfts.sh output"),
                       Error);
  // A line at the limit still reads (and a CRLF file's '\r' is dropped).
  const std::string at_limit = "#" + std::string(4095, 'x') + "\n";
  CHECK(load_ibnetdiscover(temp_file("limit.ibnet", at_limit + text), LinkDefaults{}).num_nodes() == 4);
  CHECK(load_ibnetdiscover(temp_file("crlf.ibnet", "# crlf\r\n" + text), LinkDefaults{}).num_nodes() == 4);
}

TEST_CASE("ibnet names that are not one plain word (spaces, control bytes) fall back to the GUID") {
  // Names are written into rankfiles and hostlists, one word a line.
  const std::string text =
      "Switch\t4 \"S-0000000000000001\"\t\t# \"core\tswitch\x01 one\" enhanced port 0 lid 1 lmc 0\n"
      "[1]\t\"H-0000000000000010\"[1](0000000000000011) \t\t# \"cn\x01" "01 HCA-1\" lid 11 4xEDR\n"
      "[2]\t\"H-0000000000000020\"[1](0000000000000021) \t\t# \"cn02\tHCA-1\" lid 12 4xEDR\n"
      "[3]\t\"S-0000000000000002\"[1]\t\t# \"leaf b\" lid 2 4xEDR\n"
      "\n"
      "Switch\t4 \"S-0000000000000002\"\t\t# \"leaf b\" enhanced port 0 lid 2 lmc 0\n"
      "[1]\t\"S-0000000000000001\"[3]\t\t# \"core\" lid 1 4xEDR\n"
      "[2]\t\"H-0000000000000030\"[1](0000000000000031) \t\t# \"cn03 HCA-1\" lid 13 4xEDR\n"
      "\n"
      "Ca\t1 \"H-0000000000000010\"\t\t# \"cn\x01" "01 HCA-1\"\n"
      "[1](0000000000000011) \t\"S-0000000000000001\"[1]\t\t# lid 11 lmc 0 \"core\" lid 1 4xEDR\n"
      "\n"
      "Ca\t1 \"H-0000000000000020\"\t\t# \"cn02\tHCA-1\"\n"
      "[1](0000000000000021) \t\"S-0000000000000001\"[2]\t\t# lid 12 lmc 0 \"core\" lid 1 4xEDR\n"
      "\n"
      "Ca\t1 \"H-0000000000000030\"\t\t# \"cn03 HCA-1\"\n"
      "[1](0000000000000031) \t\"S-0000000000000002\"[2]\t\t# lid 13 lmc 0 \"leaf b\" lid 2 4xEDR\n";
  Network net = load_ibnetdiscover(temp_file("names.ibnet", text), LinkDefaults{});
  REQUIRE(net.num_switches() == 2);
  REQUIRE(net.num_nodes() == 3);
  CHECK(net.switch_at(0).name == "S-0000000000000001");  // a tab, a control byte and spaces
  CHECK(net.switch_at(1).name == "S-0000000000000002");  // a space
  CHECK(net.node(0).name == "H-0000000000000010");       // \x01 in the first word
  CHECK(net.node(1).name == "cn02");                     // the first word ends at a tab too
  CHECK(net.node(2).name == "cn03");
}

TEST_CASE("Slurm hostlists in node lists: ranges keep their width, brackets multiply, errors name the line") {
  CHECK(expand_hostlist("cn[08-10]") == std::vector<std::string>{"cn08", "cn09", "cn10"});
  CHECK(expand_hostlist("cn[1-2,7],gpu3") == std::vector<std::string>{"cn1", "cn2", "cn7", "gpu3"});
  CHECK(expand_hostlist("r[1-2]-n[01-02]") == std::vector<std::string>{"r1-n01", "r1-n02", "r2-n01", "r2-n02"});
  CHECK(expand_hostlist("node-3") == std::vector<std::string>{"node-3"});
  CHECK(expand_hostlist("cn[000-015]").size() == 16);
  CHECK(expand_hostlist("cn[000-015]").back() == "cn015");
  CHECK_THROWS_WITH_AS(expand_hostlist("cn[3-1]"), doctest::Contains("reversed range '3-1'"), Error);
  CHECK_THROWS_WITH_AS(expand_hostlist("cn[1-2"), doctest::Contains("'[' without ']'"), Error);
  CHECK_THROWS_WITH_AS(expand_hostlist("cn[a-b]"), doctest::Contains("bad range 'a-b'"), Error);
  // Long names times a range: refused in bytes as the names are made, not after gigabytes.
  const std::string long_name(1000, 'n');
  CHECK_THROWS_WITH_AS(expand_hostlist(long_name + "[1-100000]"), doctest::Contains("names over 64 MiB of host names (at name 64"),
                       HostlistTooLarge);
  CHECK(expand_hostlist(long_name + "[1-1000]").size() == 1000);
  size_t used = 0;  // several hostlists of one file share a budget
  CHECK(expand_hostlist(long_name + "[1-500]", 1 << 20, &used).size() == 500);
  CHECK(used == 9 * name_bytes(1001) + 90 * name_bytes(1002) + 401 * name_bytes(1003));  // n..n1 to n..n500
  CHECK_THROWS_AS(expand_hostlist(long_name + "[501-1100]", 1 << 20, &used), HostlistTooLarge);
  const Network net = make_network("mesh:4x4");  // nodes node-0 .. node-15
  CHECK(read_node_list(temp_file("hosts.txt", "# a Slurm allocation\nnode-[0-2,5]\nnode-9\n"), net) ==
        std::vector<int>{0, 1, 2, 5, 9});
  CHECK(error_of([&] { read_node_list(temp_file("hosts-bad.txt", "node-1\nnode-[1-3]\n"), net); }) ==
        temp_path("hosts-bad.txt") + ":2: node 'node-1' listed twice");
  CHECK(error_of([&] { read_node_list(temp_file("hosts-bad2.txt", "node-[4-2]\n"), net); })
            .find("hosts-bad2.txt:1: reversed range '4-2'") != std::string::npos);
}
