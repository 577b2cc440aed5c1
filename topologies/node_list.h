// Compute nodes named in files (allocation lists, placements, optical node sets): by name or by id.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "topologies/network.h"

namespace mapsim {

class NodeLookup {
 public:
  explicit NodeLookup(const Network& network);
  // The node called `word`, or whose id it is; -1 if neither.
  int find(const std::string& word) const;

 private:
  const Network& network_;
  std::map<std::string, int> by_name_;
};

// Node ids or names, one per line ('#' comments); throws "FILE:LINE: ..." on an unknown or repeated node.
std::vector<int> read_node_list(const std::string& path, const Network& network);

}  // namespace mapsim
