#include "topologies/node_hierarchy.h"

#include <algorithm>
#include <map>

#include "support/error.h"

namespace mapsim {

int NodeHierarchy::shared_level(int a, int b) const {
  int level = 0;
  while (level + 1 < static_cast<int>(object.size()) && object[level + 1][a] == object[level + 1][b]) ++level;
  return level;
}

std::string NodeHierarchy::describe() const {
  std::string text = levels.front().name;
  for (size_t l = 1; l < levels.size(); ++l) {
    std::map<int, int> per_parent;  // objects of level l under each object of level l - 1
    std::map<int, bool> seen;
    for (size_t s = 0; s < object[l].size(); ++s)
      if (!seen[object[l][s]]) seen[object[l][s]] = true, ++per_parent[object[l - 1][s]];
    int low = per_parent.begin()->second, high = low;
    for (const auto& [parent, count] : per_parent) low = std::min(low, count), high = std::max(high, count);
    text += " > " + std::to_string(low) + (high != low ? "-" + std::to_string(high) : "") + " " + levels[l].name;
  }
  return text + " (" + std::to_string(slots()) + " slots)";
}

NodeHierarchy declared_hierarchy(std::vector<NodeLevel> levels) {
  if (levels.size() < 2) throw Error("node insides need at least two levels (the node and its slots)");
  levels.front().count = 1;
  long slots = 1;
  for (const NodeLevel& level : levels) {
    if (level.count < 1) throw Error("node level '" + level.name + "' needs a count of at least 1");
    slots *= level.count;
    if (slots > (1L << 16)) throw Error("node insides of over 65536 slots");
  }
  NodeHierarchy h;
  h.levels = std::move(levels);
  for (size_t l = 0; l < h.levels.size(); ++l) {
    long below = 1;  // slots under one object of level l
    for (size_t m = l + 1; m < h.levels.size(); ++m) below *= h.levels[m].count;
    std::vector<int> index(slots);
    for (long s = 0; s < slots; ++s) index[s] = static_cast<int>(s / below);
    h.object.push_back(std::move(index));
  }
  return h;
}

}  // namespace mapsim
