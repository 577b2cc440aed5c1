// Ranks on cores. Where the network describes its nodes' insides (topologies/node_hierarchy.h), the
// ranks a placement puts on one node take its first N slots (N ranks there: hwloc's logical order fills
// the first socket first) and go down the node's levels as `multisection` goes down the machine: at
// each level METIS splits them into its objects, exactly as many as each object's slots, by volume;
// then swaps of two ranks' slots that lower the node's latency cost, until none does (nodes of up to
// 1024 ranks); rank order stays where that is not cheaper. Deterministic for the problem's seed.
// Without insides a rank's slot is its index among the node's ranks in rank order, as launchers bind them.
#pragma once
#include <vector>

#include "mappers/mapping.h"

namespace mapsim {

// Each task's slot (core) on its node. Throws Error when a node holds more ranks than it has slots.
std::vector<int> place_on_cores(const MappingProblem& problem, const Placement& placement);
// The same in rank order: the k-th rank of a node on its slot k.
std::vector<int> cores_in_rank_order(const Placement& placement);

// Zero-load latency of a message between two slots of one node: t_s + the latency of the level they share.
double core_pair_latency(const Network& network, int slot_a, int slot_b);
// Sum over the graph's edges inside a node of volume x core_pair_latency: the nodes' share of Gamma_C.
double node_cost(const MappingProblem& problem, const Placement& placement, const std::vector<int>& cores);

}  // namespace mapsim
