// Failures: the network a fabric manager is left with when some switch-to-switch links, or whole
// switches, fail -- to be routed again as it would route any fabric (docs/topologies.md#failures).
// Node ids and names, and switch names, stay as they were; switch ids stay too unless a switch is
// removed (then the later ones move down by one each).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "topologies/network.h"

namespace mapsim {

// What fails (the scenario key `failures`, docs/scenario.md).
struct Failures {
  int links = 0;            // switch-to-switch links chosen at random (seeded), beside the named ones
  bool spine = false;       // ... only among the links between the top switch level and the one below
  uint64_t seed = 0;        // of the random choice
  // Links by their end switches, one link each (a pair named twice: two parallel links). A pair whose
  // second name is empty holds "A--B" as written, split by split_link_name.
  std::vector<std::pair<std::string, std::string>> names;
  std::vector<std::string> switches;  // whole switches (and their links); a switch with nodes is refused
};

// The network without these links: switches, nodes and their ids and names unchanged; the other
// links keep their order (link ids above a removed one move down). The result describes a fabric, not
// its generator's structure: its shape is that of an irregular network (routed by `updn` by default,
// refused by the routings that compute routes from a generator's coordinates) and forwarding tables
// read with it are dropped. Throws Error on a link id out of range.
Network without_links(const Network& network, const std::vector<int>& links);
// The network without these switches and their links (and, as without_links, irregular). Switch ids
// above a removed one move down; names stay. Throws Error naming a switch that holds compute nodes.
Network without_switches(const Network& network, const std::vector<int>& switches);

// The links between the top switch level of a tree network (fattree, xgft, tree2, or a file laid out
// like one) and the level below, in id order. Levels are counted from the switches that hold nodes,
// as updn ranks them; throws Error when the network is not a tree of levels (irregular, direct
// networks, a dragonfly, ...).
std::vector<int> spine_links(const Network& network);
// `count` distinct links drawn uniformly from `candidates` by `seed`, in id order; the same seed
// gives the same links with any standard library. Throws Error when there are fewer candidates.
std::vector<int> choose_links(const std::vector<int>& candidates, int count, uint64_t seed, const std::string& what);
// "A--B" -> (A, B), where A and B name switches of the network (names may hold "--" themselves: the
// split that names two switches is taken; none or several is an Error saying to write [A, B]).
std::pair<std::string, std::string> split_link_name(const Network& network, const std::string& text);
// The switch of that name; Error with the nearest name otherwise.
int switch_named(const Network& network, const std::string& name);

// Two compute nodes that cannot reach each other, or (-1, -1) when every pair can.
std::pair<int, int> unreachable_pair(const Network& network);

// Everything above: the named switches and links, then `links` random ones among those left (all
// switch links, or the spine links), removed; switches without nodes left cut off from every node
// removed too; a network where two nodes cannot reach each other is an Error naming them. A network
// given no failures at all (all fields empty) is still returned as a fabric (see without_links).
// `original_links`, when given, gets the id in `network` of each link of the result (in order).
Network with_failures(const Network& network, const Failures& failures, std::vector<int>* original_links = nullptr);

}  // namespace mapsim
