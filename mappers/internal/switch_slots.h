// The allowed slots seen at switch level. Hop-based metrics treat the nodes of one switch alike, so
// the partition-based mappers decide how many tasks each switch gets, then fill its nodes.
#pragma once
#include <vector>

#include "mappers/mapping.h"

namespace mapsim {

struct SwitchSlots {
  int switch_id;
  std::vector<int> slots;  // node id of each slot, nodes in allocation order
};

// Some of a group's slots: the switch-level mappers hand these to halves or quadrants.
struct SlotShare {
  int group;  // index into the groups
  int count;
};

// Groups `slots` (node ids, one entry per slot) by switch, switches in order of first appearance.
std::vector<SwitchSlots> group_by_switch(const Network& network, const std::vector<int>& slots);

// Routed switch-to-switch hops between two groups (through their first nodes).
int group_hops(const RoutedNetwork& network, const SwitchSlots& a, const SwitchSlots& b);

// Index of the group with the smallest slot-weighted routed distance to all groups, trying every
// `stride`-th group as the centre (ties: the first).
size_t central_group(const RoutedNetwork& network, const std::vector<SwitchSlots>& groups, size_t stride = 1);

// `count` slots of the problem chosen compactly: all of them when count is the total; otherwise
// whole switches by routed distance from the most central allowed switch.
std::vector<int> compact_slots(const MappingProblem& problem, int count);

// Turns a task -> group assignment (from a partitioner) into a placement: tasks beyond a group's
// slots move, least attached first, to the group with room that is closest (routed hops, weighted
// by volume) to their neighbours; then each group's tasks fill its slots in order.
Placement place_groups(const MappingProblem& problem, const std::vector<SwitchSlots>& groups,
                       std::vector<int> group_of_task);

}  // namespace mapsim
