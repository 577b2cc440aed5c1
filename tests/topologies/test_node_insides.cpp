// Node insides: hwloc import of saved lstopo XML (this machine's, a 2-socket node), declared counts,
// the YAML section and node files with their errors, and the export round trip.
#include <doctest/doctest.h>

#include "test_files.h"
#include "topologies/hwloc_node.h"
#include "topologies/network_factory.h"
#include "topologies/network_file.h"
#include "topologies/node_file.h"

using namespace mapsim;

namespace {

const std::string kNodes = MAPSIM_SOURCE_DIR "/configs/nodes/";

std::vector<NodeLevel> named(std::initializer_list<const char*> names) {
  std::vector<NodeLevel> levels;
  for (const char* n : names) levels.push_back({n, 1, 1e9, 1e-7});
  return levels;
}

}  // namespace

TEST_CASE("hwloc import: the 2-socket node has 2 packages of 4 cores, each package its NUMA domain and L3") {
  const NodeHierarchy h = import_hwloc(kNodes + "two-socket.xml", named({"machine", "package", "numa", "l3", "core"}));
  CHECK(h.slots() == 8);
  CHECK(h.describe() == "machine > 2 package > 1 numa > 1 l3 > 4 core (8 slots)");
  CHECK(h.object[1] == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
  CHECK(h.object[2] == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
  CHECK(h.object[4] == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(h.shared_level(0, 3) == 3);  // one L3
  CHECK(h.shared_level(3, 4) == 0);  // only the machine
  CHECK(h.shared_level(5, 7) == 3);
  // Leaving levels out merges them; pu slots are the 8 hardware threads.
  const NodeHierarchy pus = import_hwloc(kNodes + "two-socket.xml", named({"machine", "package", "pu"}));
  CHECK(pus.describe() == "machine > 2 package > 4 pu (8 slots)");
  CHECK(pus.hwloc == kNodes + "two-socket.xml");
}

TEST_CASE("hwloc import: this machine's lstopo XML, one package and L3 over 2 cores") {
  const NodeHierarchy h =
      import_hwloc(kNodes + "this-machine.xml", named({"machine", "package", "numa", "l3", "l2", "core"}));
  CHECK(h.slots() == 2);
  CHECK(h.describe() == "machine > 1 package > 1 numa > 1 l3 > 2 l2 > 1 core (2 slots)");
  CHECK(h.shared_level(0, 1) == 3);  // the cores share the L3, each has its own L2
}

TEST_CASE("hwloc import errors name the file and what was expected") {
  const std::string xml = kNodes + "two-socket.xml";
  CHECK(error_of([&] {
          import_hwloc(xml, named({"machine", "pakage", "core"}));
        }) ==
        xml +
            ": unknown hwloc level 'pakage' (did you mean 'package'?); expected one of machine, package, socket, numa, "
            "die, group, l3, l2, l1, core, pu");
  CHECK(error_of([&] {
          import_hwloc(xml, named({"package", "core"}));
        }) == xml + ": the first level must be machine (the node), got 'package'");
  CHECK(error_of([&] {
          import_hwloc(xml, named({"machine", "l3"}));
        }) == xml + ": the last level names the slots and must be core or pu, got 'l3'");
  CHECK(error_of([&] {
          import_hwloc(xml, named({"machine", "core", "package", "pu"}));
        }) == xml + ": a package spans several core objects; list package before core or leave one out");
  CHECK(error_of([&] {
          import_hwloc(xml, named({"machine", "l2", "core"}));
        }) == xml + ": core 0 has no l2 above it; leave that level out");
  const std::string text = temp_file("not-hwloc.xml", "<html></html>\n");
  CHECK(error_of([&] {
          import_hwloc(text, named({"machine", "core"}));
        }) == text + ": not an hwloc XML topology (expected the output of lstopo --of xml)");
  CHECK(error_of([&] {
          import_hwloc(temp_path("missing.xml"), named({"machine", "core"}));
        }).find("missing.xml") != std::string::npos);
}

TEST_CASE("declared insides: counts give each slot its objects, depth first") {
  const NodeHierarchy h =
      declared_hierarchy({{"machine", 1, 1e10, 4e-7}, {"package", 2, 2.5e10, 1e-7}, {"core", 3, 0, 0}});
  CHECK(h.slots() == 6);
  CHECK(h.object[1] == std::vector<int>{0, 0, 0, 1, 1, 1});
  CHECK(h.between(0, 2).name == "package");
  CHECK(h.between(2, 3).name == "machine");
  CHECK(h.between(2, 3).bandwidth == 1e10);
  CHECK(error_of([] {
          declared_hierarchy({{"machine", 1, 1, 1}, {"core", 0, 0, 0}});
        }) == "node level 'core' needs a count of at least 1");
}

TEST_CASE("node files: the 2-socket example, bandwidths per level, and errors at FILE:LINE:COL") {
  const NodeHierarchy h = load_node_file(kNodes + "two-socket.yaml");
  CHECK(h.describe() == "machine > 2 package > 4 core (8 slots)");
  CHECK(h.between(0, 1).bandwidth == 25e9);
  CHECK(h.between(0, 1).latency == doctest::Approx(100e-9));
  CHECK(h.between(0, 4).bandwidth == 10e9);
  CHECK(h.between(0, 4).latency == doctest::Approx(400e-9));

  auto node_error = [](const std::string& name, const std::string& text) {
    const std::string path = temp_file(name, text);
    return error_of([&] { load_node_file(path); }).substr(path.size());
  };
  CHECK(node_error("n1.yaml", "levels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n  - {name: core}\n") ==
        ":3:5: level 'core' needs a count (its objects in each machine)");
  CHECK(node_error("n2.yaml", "levels:\n  - {name: machine, bandwidth: 1GB/s}\n  - {name: core, count: 2}\n") ==
        ":2:5: level 'machine' needs bandwidth and latency (between two slots sharing it)");
  CHECK(
      node_error(
          "n3.yaml",
          "levels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n  - {name: core, count: 2, latency: 1ns}\n") ==
      ":3:5: the last level names the slots; two ranks never share one, so it takes no bandwidth or latency");
  CHECK(node_error("n4.yaml", "hwloc: " + kNodes +
                                  "two-socket.xml\nlevels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n"
                                  "  - {name: core, count: 4}\n") ==
        ":4:25: counts come from the hwloc file; leave out 'count'");
  CHECK(node_error("n5.yaml",
                   "levels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n  - {name: core, cout: 2}\n") ==
        ":3:18: unknown key 'cout' (did you mean 'count'?); valid keys: name, count, bandwidth, latency");
  CHECK(node_error("n7.yaml", "hwloc: " + kNodes +
                                  "two-socket.xml\nlevels:\n  - {name: machine, bandwidth: 1GB/s, latency: 1us}\n"
                                  "  - {name: sockets, bandwidth: 1GB/s, latency: 1us}\n  - {name: core}\n") ==
        ":4:12: unknown hwloc level 'sockets' (did you mean 'socket'?); expected one of machine, package, socket, "
        "numa, die, "
        "group, l3, l2, l1, core, pu");
  CHECK(node_error("n6.yaml",
                   "hwloc: nowhere.xml\nlevels: [{name: machine, bandwidth: 1GB/s, latency: 1us}, {name: core}]\n")
            .find(":1:1: ") == 0);
}

TEST_CASE("node insides reach networks: a generator's node= key, a network file's node: section, export round trip") {
  const Network torus = make_network("torus:2x2,node=" + kNodes + "two-socket.yaml");
  CHECK(torus.node_insides.slots() == 8);
  CHECK(make_network("torus:2x2").node_insides.empty());

  const std::string file = temp_file("insides-net.yaml",
                                     "node:\n"
                                     "  levels:\n"
                                     "    - {name: machine, bandwidth: 8GB/s, latency: 500ns}\n"
                                     "    - {name: package, count: 2, bandwidth: 20GB/s, latency: 120ns}\n"
                                     "    - {name: core, count: 4}\n"
                                     "switches: [s0]\n"
                                     "nodes: [{name: n0, switch: s0}, {name: n1, switch: s0}]\n"
                                     "links: []\n");
  const Network net = load_network_file(file);
  CHECK(net.node_insides.describe() == "machine > 2 package > 4 core (8 slots)");
  const Network back = load_network_file(temp_file("insides-net.json", network_to_json(net)));
  CHECK(back.node_insides.describe() == net.node_insides.describe());
  CHECK(back.node_insides.between(0, 7).bandwidth == 8e9);
  CHECK(back.node_insides.between(0, 1).latency == net.node_insides.between(0, 1).latency);
  // An hwloc import exports its XML's absolute path and loads back the same objects.
  const Network again = load_network_file(temp_file("insides-torus.json", network_to_json(torus)));
  CHECK(again.node_insides.object == torus.node_insides.object);
  CHECK(again.node_insides.hwloc == torus.node_insides.hwloc);
}
