#include "topologies/network_file.h"
#include "topologies/network_factory.h"

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "support/error.h"
#include "support/message.h"
#include "support/yaml_reader.h"
#include "topologies/link_params.h"
#include "topologies/node_file.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

struct FileDefaults {
  LinkDefaults link;
  int ports = 64;
};

FileDefaults read_defaults(const YamlReader& r, const YAML::Node& node) {
  FileDefaults d;
  if (!node) return d;
  r.expect_map(node, "defaults");
  std::vector<std::string> keys{"ports"};
  for (const LinkParam& p : link_param_table()) {
    keys.push_back(p.param.name);
    keys.insert(keys.end(), p.param.aliases.begin(), p.param.aliases.end());
  }
  r.check_keys(node, keys);
  for (const LinkParam& p : link_param_table()) {
    std::string given;  // the key it is given under (yaml-cpp nodes rebind on assignment: keep names)
    for (const std::string& key : p.param.aliases)
      if (node[key]) given = key;
    if (node[p.param.name]) {
      if (!given.empty()) r.fail(node[p.param.name], "'" + p.param.name + "' is also given as '" + given + "'; give one");
      given = p.param.name;
    }
    if (!given.empty())
      d.link.*p.field = p.param.type == ParamType::Time ? r.time(node[given]) : r.bandwidth(node[given]);
  }
  if (node["ports"]) d.ports = static_cast<int>(r.integer(node["ports"], "ports", 1, 1 << 16));
  return d;
}

Shape read_shape(const YamlReader& r, const YAML::Node& node) {
  Shape shape;
  shape.family = Family::File;
  if (!node) return shape;
  r.expect_map(node, "shape");
  r.check_keys(node, {"family", "dims", "k", "levels", "c", "d", "alpha"});
  if (node["family"]) {
    // The families mapsim's generators and importers write (--export json keeps them).
    const std::string name = r.scalar(node["family"], "shape family");
    const std::vector<Family>& families = all_families();
    const auto known = std::find_if(families.begin(), families.end(), [&](Family f) { return family_name(f) == name; });
    if (known == families.end()) {
      std::string list;
      for (Family f : families) list += (list.empty() ? "" : ", ") + family_name(f);
      r.fail(node["family"], "unknown shape family " + excerpt(name) + "; expected one of " + list);
    }
    shape.family = *known;
  }
  if (node["dims"]) {
    r.expect_sequence(node["dims"], "shape dims");
    for (const auto& extent : node["dims"]) shape.dims.push_back(static_cast<int>(r.integer(extent, "a dimension", 1, 1 << 20)));
  }
  if (node["k"]) shape.k = static_cast<int>(r.integer(node["k"], "k", 1, 1 << 16));
  if (node["levels"]) shape.levels = static_cast<int>(r.integer(node["levels"], "levels", 1, 64));
  if (node["c"]) shape.clusters_per_side = static_cast<int>(r.integer(node["c"], "c", 1, 1 << 16));
  if (node["d"]) shape.nodes_per_cluster = static_cast<int>(r.integer(node["d"], "d", 1, 1 << 20));
  if (node["alpha"]) shape.alpha = r.number(node["alpha"], "alpha");
  return shape;
}

// The network's own checks (a name, a size limit) reported at the entry they come from.
template <typename Add>
void located(const YamlReader& r, const YAML::Node& at, Add add) {
  try {
    add();
  } catch (const Error& e) {
    r.fail(at, e.what());
  }
}

// The `node:` section: an hwloc import by its absolute path (the export may be read from elsewhere).
nlohmann::ordered_json insides_json(const NodeHierarchy& h) {
  nlohmann::ordered_json node, levels = nlohmann::ordered_json::array();
  if (!h.hwloc.empty()) node["hwloc"] = std::filesystem::absolute(h.hwloc).lexically_normal().string();
  for (size_t l = 0; l < h.levels.size(); ++l) {
    nlohmann::ordered_json level = {{"name", h.levels[l].name}};
    if (h.hwloc.empty() && l > 0) level["count"] = h.levels[l].count;
    if (l + 1 < h.levels.size()) level["bandwidth"] = h.levels[l].bandwidth, level["latency"] = h.levels[l].latency;
    levels.push_back(level);
  }
  node["levels"] = levels;
  return node;
}

}  // namespace

Network load_network_file(const std::string& path) {
  YamlReader r(path);
  YAML::Node root = r.load();
  if (!root || root.IsNull()) throw Error(path + ": empty network file (expected switches, nodes and links)");
  r.expect_map(root, "the network file");
  r.check_keys(root, {"defaults", "shape", "node", "switches", "nodes", "links"});
  FileDefaults d = read_defaults(r, root["defaults"]);
  Network net;
  net.shape = read_shape(r, root["shape"]);
  net.startup = d.link.startup;

  std::map<std::string, int> switch_ids;
  auto switch_of = [&](const YAML::Node& at) {
    std::string name = r.scalar(at, "a switch name");
    auto it = switch_ids.find(name);
    if (it == switch_ids.end()) r.fail(at, "unknown switch '" + name + "' (declare it under switches:)");
    return it->second;
  };

  for (const char* section : {"switches", "nodes", "links"})
    if (!root[section]) r.fail(root, std::string("missing '") + section + "' list");

  r.expect_sequence(root["switches"], "switches");
  for (const auto& entry : root["switches"]) {
    std::string name;
    int ports = d.ports;
    double delay = d.link.router_delay;
    if (entry.IsScalar()) {
      name = entry.Scalar();
    } else {
      r.expect_map(entry, "a switch");
      r.check_keys(entry, {"name", "ports", "router_delay"});
      if (!entry["name"]) r.fail(entry, "switch without a name");
      name = r.scalar(entry["name"], "switch name");
      if (entry["ports"]) ports = static_cast<int>(r.integer(entry["ports"], "ports", 1, 1 << 16));
      if (entry["router_delay"]) delay = r.time(entry["router_delay"]);
    }
    if (ports < 1) r.fail(entry, "switch '" + name + "' needs at least one port");
    if (!switch_ids.emplace(name, net.num_switches()).second) r.fail(entry, "switch '" + name + "' declared twice");
    located(r, entry, [&] { net.add_switch(name, ports, delay); });
  }

  if (net.shape.family == Family::Mesh || net.shape.family == Family::Torus || net.shape.family == Family::Hypercube) {
    long count = 1;  // the extents are each at most 2^20 and the switches bounded: no overflow before a mismatch
    for (int extent : net.shape.dims) count = std::min(count * extent, 1L << 40);
    if (net.shape.dims.empty() && net.shape.family != Family::Hypercube)  // (a hypercube of dimension 0 is one switch)
      r.fail(root["shape"], "shape: a " + family_name(net.shape.family) + " needs its dims (the extent of each dimension)");
    if (count != net.num_switches()) {
      std::string list;
      for (int extent : net.shape.dims) list += (list.empty() ? "" : ", ") + std::to_string(extent);
      r.fail(root["shape"], "shape: a " + family_name(net.shape.family) + " of dims [" + list + "] has " + std::to_string(count) +
                                " switches, the file declares " + std::to_string(net.num_switches()));
    }
  }

  r.expect_sequence(root["nodes"], "nodes");
  std::map<std::string, int> node_names;
  for (const auto& entry : root["nodes"]) {
    r.expect_map(entry, "a node");
    r.check_keys(entry, {"name", "switch", "bandwidth", "latency"});
    if (!entry["name"] || !entry["switch"]) r.fail(entry, "a node needs 'name' and 'switch'");
    std::string name = r.scalar(entry["name"], "node name");
    if (!node_names.emplace(name, net.num_nodes()).second) r.fail(entry, "node '" + name + "' declared twice");
    double bandwidth = entry["bandwidth"] ? r.bandwidth(entry["bandwidth"]) : d.link.node_bandwidth;
    double latency = entry["latency"] ? r.time(entry["latency"]) : d.link.node_latency;
    const int attached = switch_of(entry["switch"]);
    located(r, entry, [&] { net.add_node(name, attached, bandwidth, latency); });
  }

  r.expect_sequence(root["links"], "links");
  for (const auto& entry : root["links"]) {
    YAML::Node a, b;
    double bandwidth = d.link.link_bandwidth, latency = d.link.link_latency;
    if (entry.IsSequence()) {
      if (entry.size() != 2) r.fail(entry, "a link as a list must be [switch, switch]");
      a = entry[0];
      b = entry[1];
    } else {
      r.expect_map(entry, "a link");
      r.check_keys(entry, {"a", "b", "bandwidth", "latency"});
      if (!entry["a"] || !entry["b"]) r.fail(entry, "a link needs 'a' and 'b'");
      a = entry["a"];
      b = entry["b"];
      if (entry["bandwidth"]) bandwidth = r.bandwidth(entry["bandwidth"]);
      if (entry["latency"]) latency = r.time(entry["latency"]);
    }
    const int sa = switch_of(a), sb = switch_of(b);
    located(r, entry, [&] { net.add_link(sa, sb, bandwidth, latency); });
  }
  if (root["node"]) net.node_insides = read_node_insides(r, root["node"]);
  try {
    net.validate();
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  return net;
}

std::string network_to_json(const Network& net) {
  using nlohmann::ordered_json;
  ordered_json root;
  ordered_json shape = {{"family", family_name(net.shape.family)}};
  if (!net.shape.dims.empty()) shape["dims"] = net.shape.dims;
  if (net.shape.k) shape["k"] = net.shape.k;
  if (net.shape.levels) shape["levels"] = net.shape.levels;
  if (net.shape.clusters_per_side) shape["c"] = net.shape.clusters_per_side;
  if (net.shape.nodes_per_cluster) shape["d"] = net.shape.nodes_per_cluster;
  if (net.shape.alpha) shape["alpha"] = net.shape.alpha;
  root["shape"] = shape;
  root["defaults"] = {{"t_s", net.startup}};
  if (!net.node_insides.empty()) root["node"] = insides_json(net.node_insides);
  ordered_json switches = ordered_json::array(), nodes = ordered_json::array(), links = ordered_json::array();
  for (const Switch& s : net.switches())
    switches.push_back({{"name", s.name}, {"ports", s.ports}, {"router_delay", s.router_delay}});
  for (const Node& n : net.nodes())
    nodes.push_back({{"name", n.name}, {"switch", net.switch_at(n.switch_id).name},
                     {"bandwidth", n.bandwidth}, {"latency", n.latency}});
  for (const Link& l : net.links())
    links.push_back({{"a", net.switch_at(l.a).name}, {"b", net.switch_at(l.b).name},
                     {"bandwidth", l.bandwidth}, {"latency", l.latency}});
  root["switches"] = switches;
  root["nodes"] = nodes;
  root["links"] = links;
  return json_text(root, 1) + "\n";
}

MAPSIM_REGISTER(network_registry(), {"file", "a YAML or JSON network file (docs/network-file.md)", {},
                                     [](Spec& spec, const LinkOverrides&) {  // make_network refuses overrides
                                       return load_network_file(spec.require_positional("PATH"));
                                     },
                                     "PATH", "path"});

}  // namespace mapsim
