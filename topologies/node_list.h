// Compute nodes named in files (allocation lists, placements, optical node sets): by name or by id.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "support/error.h"
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

// The memory a hostlist's names may take (their characters and each string's own bytes): a short
// line of long names multiplied out by a range must be refused before it takes gigabytes.
constexpr size_t kMaxHostlistBytes = size_t{64} << 20;
// What expand_hostlist throws for a hostlist over its limits (a valid one, too large).
class HostlistTooLarge : public Error {
 public:
  using Error::Error;
};

// Expands a Slurm hostlist: top-level commas separate entries; "[a-b,c]" ranges keep the width of
// their first number ("cn[08-10]" -> cn08 cn09 cn10); several brackets multiply out. Throws
// mapsim::Error on an unbalanced bracket, a reversed range or over a million names, HostlistTooLarge
// over `max_bytes` (name_bytes), each checked before the name is made. `used` (if given) is the bytes
// taken by names expanded before (several hostlists of one file share a budget), and is updated.
std::vector<std::string> expand_hostlist(const std::string& text, size_t max_bytes = kMaxHostlistBytes, size_t* used = nullptr);
// The bytes one name takes, in the unit of expand_hostlist's bound.
inline size_t name_bytes(size_t characters) { return characters + sizeof(std::string); }

}  // namespace mapsim
