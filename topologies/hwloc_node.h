// Node insides from hwloc: the XML that `lstopo --of xml FILE` writes, read by libhwloc's own XML
// import. The levels to keep are named (machine, package or socket, numa, die, group, l3, l2, l1, core, pu);
// the last names the slots (core or pu), one per object of that type, in hwloc's logical order.
#pragma once
#include <string>
#include <vector>

#include "topologies/node_hierarchy.h"

namespace mapsim {

// The level names an hwloc import takes, outermost first as they usually nest.
const std::vector<std::string>& hwloc_level_names();

// Each slot's object on each of `levels` (their bandwidths and latencies are kept as given; counts come
// from the XML). Throws Error naming the file for an unreadable XML, an unknown level name, a first level
// other than machine, a last level other than core or pu, a slot without an object of a level above it,
// or a level that does not nest inside the one before it.
NodeHierarchy import_hwloc(const std::string& path, std::vector<NodeLevel> levels);

}  // namespace mapsim
