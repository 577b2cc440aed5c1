// Contention-aware costs of a placement, in seconds: bytes over the bandwidth of the ports they cross
// (node links for injection and ejection, directed switch channels), on the network's routes --
// where the simulation picks each message's path, their expected split (mappers/internal/route_shares.h).
//   congestion:       the sum over the workload's phases (mappers/schedule.h) of each phase's busiest
//                     port time, times its repeats: an estimate of the time the traffic needs when
//                     phases follow one another. It sees what a job-wide total cannot: an all-to-all
//                     whose step sends every rank of a switch to one other switch. `best` ranks by it.
//   channel_congestion: the same summing only switch channels: what still tells placements apart when
//                     every node link carries the same bytes (a halo exchange's faces) and sets each
//                     phase's time.
//   busiest_port:     the busiest port's time over the whole job (the max-link-load objective).
//   congestion_bound: the same counting only ports every message surely crosses (node links always;
//                     switch channels when routes are fixed, not chosen per message by ECMP, spraying,
//                     adaptive or UGAL routing): a lower bound on the makespan of every model. The
//                     phase sum is not one: ranks in different phases overlap in time.
// The problem's schedule is used when it has one, else its graph's edges as one phase.
#pragma once
#include "mappers/mapping.h"

namespace mapsim {

double congestion(const MappingProblem& problem, const Placement& placement);
double channel_congestion(const MappingProblem& problem, const Placement& placement);
double busiest_port(const MappingProblem& problem, const Placement& placement);
double congestion_bound(const MappingProblem& problem, const Placement& placement);

// Bytes per second of each port (topologies/port_layout.h).
std::vector<double> port_bandwidths(const Network& net);

// The problem's phases: its schedule, or its graph's edges as one phase.
template <typename F>
void for_each_phase(const MappingProblem& problem, F f) {
  if (problem.schedule) {
    for (const CommPhase& phase : problem.schedule->phases) f(phase);
    return;
  }
  for (const CommPhase& phase : schedule_from_graph(*problem.graph).phases) f(phase);
}

}  // namespace mapsim
