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

// Node ids or names, one per line (the line's first word; '#' comments), or Slurm hostlists
// ("cn[000-015,020],gpu[1-2]"); throws "FILE:LINE: ..." on an unknown or repeated node.
std::vector<int> read_node_list(const std::string& path, const Network& network);

// Expands a Slurm hostlist: top-level commas separate entries; "[a-b,c]" ranges keep the width of
// their first number ("cn[08-10]" -> cn08 cn09 cn10); several brackets multiply out. Throws
// mapsim::Error on an unbalanced bracket, a reversed range or over a million names.
std::vector<std::string> expand_hostlist(const std::string& text);

}  // namespace mapsim
