#include "topologies/node_file.h"

#include <algorithm>
#include <filesystem>

#include "support/error.h"
#include "support/message.h"
#include "topologies/hwloc_node.h"

namespace mapsim {

NodeHierarchy read_node_insides(const YamlReader& r, const YAML::Node& node) {
  r.expect_map(node, "node insides (hwloc, levels)");
  r.check_keys(node, {"hwloc", "levels"});
  if (!node["levels"]) r.fail(node, "node insides need 'levels' (outermost first, the node then down to the slots)");
  const YAML::Node& list = node["levels"];
  r.expect_sequence(list, "levels");
  if (list.size() < 2) r.fail(list, "node insides need at least two levels (the node and its slots)");
  const bool imported = static_cast<bool>(node["hwloc"]);
  std::vector<NodeLevel> levels;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node& entry = list[i];
    const bool first = i == 0, last = i + 1 == list.size();
    r.expect_map(entry, "a node level {name, count, bandwidth, latency}");
    r.check_keys(entry, {"name", "count", "bandwidth", "latency"});
    if (!entry["name"]) r.fail(entry, "a node level needs a name");
    NodeLevel level;
    level.name = r.scalar(entry["name"], "level name");
    if (imported) {  // named at its line here; import_hwloc checks the order
      const std::vector<std::string>& names = hwloc_level_names();
      if (std::find(names.begin(), names.end(), level.name) == names.end()) {
        const std::string near = nearest_word(level.name, names);
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        r.fail(entry["name"], "unknown hwloc level '" + level.name + "'" +
                                  (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; expected one of " +
                                  list);
      }
    }
    if (entry["count"]) {
      if (imported) r.fail(entry["count"], "counts come from the hwloc file; leave out 'count'");
      if (first) r.fail(entry["count"], "the first level is the node itself (count 1); leave out 'count'");
      level.count = static_cast<int>(r.integer(entry["count"], "count", 1, 1 << 16));
    } else if (!imported && !first) {
      r.fail(entry, "level '" + level.name + "' needs a count (its objects in each " + levels.back().name + ")");
    }
    if (last) {
      if (entry["bandwidth"] || entry["latency"])
        r.fail(entry, "the last level names the slots; two ranks never share one, so it takes no bandwidth or latency");
    } else {
      if (!entry["bandwidth"] || !entry["latency"])
        r.fail(entry, "level '" + level.name + "' needs bandwidth and latency (between two slots sharing it)");
      level.bandwidth = r.bandwidth(entry["bandwidth"]);
      if (!(level.bandwidth > 0)) r.fail(entry["bandwidth"], "bandwidth must be above 0");
      level.latency = r.time(entry["latency"]);
    }
    levels.push_back(std::move(level));
  }
  try {
    if (!imported) return declared_hierarchy(std::move(levels));
    std::filesystem::path xml = r.scalar(node["hwloc"], "hwloc XML path");
    if (xml.is_relative()) xml = std::filesystem::path(r.path()).parent_path() / xml;
    return import_hwloc(xml.lexically_normal().string(), std::move(levels));
  } catch (const Error& e) {
    r.fail(node, e.what());
  }
}

NodeHierarchy load_node_file(const std::string& path) {
  YamlReader r(path);
  YAML::Node root = r.load();
  if (!root || root.IsNull()) throw Error(path + ": empty node file (expected hwloc and levels)");
  if (!root.IsMap() && path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0)
    throw Error(
        path + ": node= takes a node file (YAML: `hwloc: " + path +
        "` and the levels with their bandwidth and latency, docs/network-file.md#node-insides), not the XML itself");
  return read_node_insides(r, root);
}

}  // namespace mapsim
