// Running a sweep. Every point runs in a child process of its own (a crash or an error stays in
// that point), up to `jobs` at once, and writes OUTPUT/points/HASH.json atomically when it ends.
// results.csv (one row per point x replicate x mapper, varied keys as columns), aggregate.csv
// (mean, sd, 95 % CI per point and mapper) and failed.csv are rewritten atomically from the point
// files as points finish, so an interrupted sweep leaves consistent files and --resume skips
// the points already done. On a cluster, each task runs one point (run_point) and
// merge_sweep() gathers the files afterwards.
#pragma once
#include <functional>
#include <string>

#include "scenario/sweep.h"

namespace mapsim {

struct SweepStatus {
  int total = 0, done = 0, failed = 0, skipped = 0;  // skipped: already done before (--resume)
  int mapper_failures = 0;  // mappers that failed in points that ran (failed.csv)
  bool interrupted = false;
};

struct SweepOptions {
  int jobs = 1;
  bool resume = false;
  std::function<void(const SweepStatus&)> progress;
};

SweepStatus run_sweep(const Sweep& sweep, const SweepOptions& options);
// Runs one point in this process and writes its file; false if the point failed.
bool run_point(const Sweep& sweep, const SweepPoint& point);
// Rewrites results.csv, aggregate.csv and failed.csv from the point files present.
SweepStatus merge_sweep(const Sweep& sweep);
// A Slurm job-array script (format "slurm") or a GNU Parallel job list ("parallel") with one
// `mapsim sweep FILE --point I` per point (with resume: only the points not done); returns its path.
std::string emit_sweep_jobs(const Sweep& sweep, const std::string& format, const std::string& mapsim,
                            const std::vector<std::string>& assignments, bool resume);

}  // namespace mapsim
