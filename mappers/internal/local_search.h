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

// QAP local search on the same cost, after VieM (von Kirchbach, Schulz & Traff 2020): task u swaps
// with a task x within `depth` edges of it (the communication neighbourhood N_C^depth) placed on
// another node, and, with `pull`, with any task of the node u sends most to; the gain of a swap is
// O(deg u + deg x). Tasks wait in a priority queue by their share of the cost, the costliest first;
// each takes its best improving swap, after which it, its partner and their neighbours are queued
// again. Rounds of this (every task queued) repeat until one swaps nothing, at most 30: then no
// task has an improving swap in its neighbourhood. Touches no free slot, so node loads stay.
double swap_search(const MappingProblem& problem, const CostTable& cost, Placement& placement, int depth = 2,
                   bool pull = false);

// What one pass of refine_placement evaluates: for each task, the slots of its own and its
// neighbours' switches. best uses refine_placement while this stays at most kMaxRefineScan.
double refine_scan(const MappingProblem& problem, const Placement& placement);
constexpr double kMaxRefineScan = 1 << 24;

// Gamma_C of a placement: sum over edges of volume x the cost between their nodes.
double placement_cost(const MappingProblem& problem, const CostTable& cost, const Placement& placement);

}  // namespace mapsim
