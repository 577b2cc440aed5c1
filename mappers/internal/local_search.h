// Local search on the communication cost of a placement: the sum over edges of volume x the
// network's cost between the two tasks' nodes (Gamma_C: the routed zero-load latency, 0 on one
// node; eq. 3 on SUPRENUM). Each task tries to move to a free slot, or swap with a task, on its own
// and its neighbours' switches; a change is kept when it lowers the cost. Passes repeat until one
// gains less than 0.01 %.
#pragma once
#include "mappers/internal/cost_table.h"
#include "mappers/mapping.h"

namespace mapsim {

// Improves `placement` in place; returns the cost it ends with. `cost` is the problem network's.
double refine_placement(const MappingProblem& problem, const CostTable& cost, Placement& placement, int max_passes = 30);

// Gamma_C of a placement: sum over edges of volume x the cost between their nodes.
double placement_cost(const MappingProblem& problem, const CostTable& cost, const Placement& placement);

}  // namespace mapsim
