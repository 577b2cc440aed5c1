// Checkpoints of a run: each finished replicate's rows and failures in DIR/partial/, so that an
// interrupted `mapsim run` keeps them and `--resume` goes on from there. A checkpoint belongs to
// the scenario whose document hash it records; others are ignored.
#pragma once
#include <string>
#include <vector>

#include "scenario/run.h"

namespace mapsim {

struct RunCheckpoint {
  std::set<int> replicates;
  std::vector<RunRow> rows;
  std::vector<RunFailure> failures;
};

void save_replicate(const std::string& dir, const Scenario& scenario, int replicate, const std::vector<RunRow>& rows,
                    const std::vector<RunFailure>& failures);
RunCheckpoint load_checkpoint(const std::string& dir, const Scenario& scenario);
void remove_checkpoint(const std::string& dir);

}  // namespace mapsim
