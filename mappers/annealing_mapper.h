// Simulated annealing, the strongest hypercube embedding heuristic of antonio1994's comparison, on a
// declared objective (mappers/objective.h; default hop-bytes, the weighted cardinality of routed
// hops). A move swaps the contents of two random slots (a task and a task, or a task and a free
// slot); its cost change is O(degree) for hop-bytes, O(the two tasks' messages x route length x
// log ports) for the load objectives (mappers/internal/load_objective.h). Start: random placement;
// initial temperature accepts ~80 % of uphill moves; geometric cooling by 0.95 with `moves` x T moves
// per temperature (default 200); stops when a temperature accepts < 0.1 % or after `time_limit`
// seconds. With objective makespan it anneals congestion and simulates its last four improving
// snapshots (one per temperature), keeping the fastest.
#pragma once
#include "mappers/mapper.h"
#include "mappers/objective.h"

namespace mapsim {

class AnnealingMapper : public Mapper {
 public:
  explicit AnnealingMapper(int moves_per_task = 200, Objective objective = Objective::HopBytes, double time_limit = 0)
      : moves_per_task_(moves_per_task), objective_(objective), time_limit_(time_limit) {}
  std::string name() const override { return "annealing"; }
  void check(const MappingProblem& problem) const override;
  Placement map(const MappingProblem& problem) const override;

 private:
  int moves_per_task_;
  Objective objective_;
  double time_limit_;
};

}  // namespace mapsim
