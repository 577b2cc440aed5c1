// Contention-aware costs of a placement, in seconds: bytes over the bandwidth of the ports they cross
// (node links for injection and ejection, directed switch channels), on the network's routes.
//   congestion:       the sum over the workload's phases (mappers/schedule.h) of each phase's busiest
//                     port time, times its repeats: an estimate of the time the traffic needs when
//                     phases follow one another. It sees what a job-wide total cannot: an all-to-all
//                     whose step sends every rank of a switch to one other switch. `best` ranks by it.
//   congestion_bound: the busiest port's time over the whole job, counting only ports every message
//                     surely crosses (node links always; switch channels when routes are fixed, not
//                     chosen per message by ECMP, spraying, adaptive or UGAL routing): a lower bound
//                     on the makespan of every model. The phase sum is not one: ranks in different
//                     phases overlap in time.
// The problem's schedule is used when it has one, else its graph's edges as one phase.
#pragma once
#include "mappers/mapping.h"

namespace mapsim {

double congestion(const MappingProblem& problem, const Placement& placement);
double congestion_bound(const MappingProblem& problem, const Placement& placement);

}  // namespace mapsim
