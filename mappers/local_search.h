// Local search on the weighted cardinality with the routed hop counts (not shortest paths): each
// task tries to move to a free slot, or swap with a task, on the switches of its neighbours; a
// change is kept when it lowers the objective. Passes repeat until one gains less than 0.01 %.
#pragma once
#include "mappers/mapping.h"

namespace mapsim {

// Improves `placement` in place; returns the weighted cardinality it ends with.
double refine_placement(const MappingProblem& problem, Placement& placement, int max_passes = 30);

// Weighted cardinality of a placement (sum over edges of volume x routed hops).
double weighted_cardinality(const MappingProblem& problem, const Placement& placement);

}  // namespace mapsim
