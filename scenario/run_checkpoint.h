// Checkpoints of a run: each finished replicate's rows and failures in DIR/partial/, so that an
// interrupted `mapsim run` keeps them and `--resume` goes on from there. A checkpoint belongs to
// the scenario whose document hash it records; others are ignored, and one that does not parse or
// whose rows cannot be that scenario's replicate (down to a placement's nodes and a link line) is run
// again. A picture is never kept: it is drawn again from the loads. Also the checks that run and sweep
// make of what they read back (rows) and of the folders they write to.
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
// A folder or a checkpoint file that is not one (a file, a device) is an Error naming it. Every row
// kept is held against its replicate as the scenario builds it (scenario/checkpoint_rows.h), with
// `options` (the run's: with draw, replicate 0's pictures are drawn again).
RunCheckpoint load_checkpoint(const std::string& dir, const Scenario& scenario, const RunOptions& options = {});
void remove_checkpoint(const std::string& dir);

// An output folder (-o, output:) must be absent or a folder: an empty name, a file or a device, at
// `dir` or among its parents, is an Error naming it and what the folder is `for` ("the run's results").
void check_output_folder(const std::string& dir, const std::string& for_what);
// The same check, then the folder is made (with its parents).
void make_output_folder(const std::string& dir, const std::string& for_what);

// A row or failure read back from a file.
struct RowKey {
  long replicate = 0;
  uint64_t seed = 0;  // rows only
  std::string mapper;
  bool failure = false;
};
// Why rows and failures read back cannot be `scenario`'s (empty when they can): a replicate out of
// range or out of order, a seed not the replicate's, a mapper not the scenario's or twice in a
// replicate, or one missing. For a whole run's rows (replicate < 0), a mapper may be missing only
// from the replicate after one where it failed on (it was dropped: it does not fit) to the end;
// for one replicate's rows, only when it is among `dropped`.
std::string rows_mismatch(const Scenario& scenario, const std::vector<RowKey>& rows, long replicate = -1,
                          const std::set<std::string>& dropped = {});
// Why column names read back cannot be mapsim's (empty when they can): empty, repeated, or not a
// word of letters, digits, '_', '.' and '-' (which CSV headers carry unquoted).
std::string columns_mismatch(const std::vector<std::string>& columns);

}  // namespace mapsim
