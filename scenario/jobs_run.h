// Several jobs at once on one network (a scenario's `jobs:`). Each replicate allocates the jobs'
// nodes in order from those left free (each job's allocation policy), maps each job with its mapper,
// simulates it alone on its nodes, then all jobs together (each its own MPI_COMM_WORLD, started at
// its time or after another job), and, for the interference matrix, every pair of jobs together.
// One row per job: its mapping metrics and the job's simulated numbers (docs/scenario.md, jobs).
#pragma once
#include <vector>

#include "scenario/run.h"

namespace mapsim {

// Row i's column sim_slowdown_with_NAME is job i's makespan next to job NAME alone over its makespan
// alone (1 for itself): the interference matrix, by running pairs, for up to kMaxPairedJobs jobs.
constexpr int kMaxPairedJobs = 8;

std::vector<RunRow> run_jobs(const Scenario& scenario, const RunOptions& options);

}  // namespace mapsim
