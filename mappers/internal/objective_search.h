// Descent on a load objective (mappers/internal/load_objective.h): tasks in a seeded random order
// each try `tries` random slots of the allocation (a task there to swap with, or a free slot to
// move to) and take the best improving one; rounds repeat until one improves the value by less than
// 0.01 %, `moves_per_task` x T evaluations (fewer where they would write more than `max_work` port
// times: routes spread over many paths cost more) are spent, or `time_limit` seconds pass (0: no
// limit; a search cut by the clock is not reproducible, and says so once). Node loads stay within slots.
#pragma once
#include <cstdint>

#include "mappers/objective.h"

namespace mapsim {

struct SearchLimits {
  int moves_per_task = 64;
  double time_limit = 0;  // seconds
  int tries = 8;
  double max_work = 0;  // port writes (0: no limit)
};

// Improves `placement` in place; returns the objective's value it ends with.
double search_objective(const MappingProblem& problem, Objective objective, Placement& placement, const SearchLimits& limits,
                        uint64_t seed);

// The allocation's slots and who holds them, for moves between slots.
class SlotOccupancy {
 public:
  SlotOccupancy(const MappingProblem& problem, const Placement& placement);
  int slots() const { return static_cast<int>(slot_node_.size()); }
  int node(int slot) const { return slot_node_[slot]; }
  // The task in a slot, or -1 when it is free; the slots of a node are filled from its first.
  int occupant(int slot) const;
  void move(int u, int to, int x);  // u to node `to`, x (-1: none) to u's node

 private:
  std::vector<int> slot_node_, first_slot_;  // first_slot_ per node id
  std::vector<std::vector<int>> occupants_;  // per node id
  std::vector<int> node_of_;
};

}  // namespace mapsim
