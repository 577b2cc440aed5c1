// What a search mapper optimises (`objective=` of annealing and best), each a number to minimise:
//   hop-bytes      volume x switch-to-switch hops over the process graph's edges (the papers'
//                  weighted cardinality; annealing's default)
//   max-link-load  the job's busiest port time, seconds (mappers/congestion.h busiest_port)
//   congestion     the workload's phases' busiest port times, summed, seconds (congestion)
//   makespan       the simulated run time of the workload, seconds: searches optimise congestion
//                  and keep a result only where the simulation confirms it (needs a workload)
#pragma once
#include <string>

#include "mappers/mapping.h"

namespace mapsim {

enum class Objective { HopBytes, MaxLinkLoad, Congestion, Makespan };

// Throws Error "WHO: objective 'NAME': expected hop-bytes, max-link-load, congestion or makespan".
Objective parse_objective(const std::string& name, const std::string& who);
std::string objective_name(Objective objective);
constexpr const char* kObjectiveNames = "hop-bytes, max-link-load, congestion or makespan";

// The placement's value; makespan simulates (problem.simulate), an error without a workload.
double objective_value(const MappingProblem& problem, const Placement& placement, Objective objective);

}  // namespace mapsim
