// A compute node's insides: the levels of objects between the node and its slots (sockets, NUMA
// domains, caches, cores), outermost first, with the bandwidth and latency of a transfer between two
// slots whose closest shared object lies on each level. Every node of a network has the same insides;
// a network without them (the default) times ranks on one node by SimOptions::intra_node_bandwidth.
// Declared by counts here, imported from hwloc XML by topologies/hwloc_node.h, read from YAML by
// topologies/node_file.h (docs/network-file.md#node-insides).
#pragma once
#include <string>
#include <vector>

namespace mapsim {

struct NodeLevel {
  std::string name;      // machine, package, numa, l3, core, ...
  int count = 1;         // objects of this level in each object of the level above (declared insides)
  double bandwidth = 0;  // bytes/s between two slots sharing an object of this level and no deeper one
  double latency = 0;    // seconds, the same
};

struct NodeHierarchy {
  // levels[0] is the node itself; the last level is the slots' (its bandwidth and latency are unused:
  // two ranks never share a slot).
  std::vector<NodeLevel> levels;
  // object[l][s]: index of slot s's object on level l (level 0: always 0; last level: s).
  std::vector<std::vector<int>> object;
  std::string hwloc;  // the XML file the objects were imported from; empty when declared by counts

  bool empty() const { return levels.empty(); }
  int slots() const { return empty() ? 0 : static_cast<int>(object.back().size()); }
  // The deepest level whose object holds both slots: for two distinct slots at most levels.size() - 2.
  int shared_level(int a, int b) const;
  const NodeLevel& between(int a, int b) const { return levels[shared_level(a, b)]; }
  // "machine > 2 package > 4 core (8 slots)": the levels and their object counts, for topo and docs.
  std::string describe() const;
};

// The symmetric insides of `levels` (level 0's count is 1): slot s's object on each level follows
// from the counts, slots numbered depth first (package 0's cores first). Throws Error on a count
// below 1, over 2^16 slots in all, or fewer than two levels.
NodeHierarchy declared_hierarchy(std::vector<NodeLevel> levels);

}  // namespace mapsim
