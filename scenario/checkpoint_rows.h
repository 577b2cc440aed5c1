// The rows of a checkpoint (scenario/run_checkpoint.h) held against the replicate they claim to be,
// as the scenario builds it: nothing read back from a file reaches a writer unchecked. A placement
// must be a valid one of that replicate's ranks on its nodes (the allocation and slots of a single
// job; each job's rank count, the network's nodes and the slots for several jobs), the link lines
// must name the network's links in order with numbers, the timeline lines that replicate's ranks.
// What the checkpoint needs not be trusted with is computed again: each rank's core, and replicate
// 0's pictures (from its kept link loads).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "scenario/run.h"

namespace mapsim {

class CheckpointRows {
 public:
  // `options`: the run's (draw: replicate 0's pictures are drawn again).
  CheckpointRows(const Scenario& scenario, const RunOptions& options);
  ~CheckpointRows();
  // Why `rows`, replicate r's, cannot be the scenario's (empty when they can), naming the field
  // ("rows.1.placement.3: ..."); fills their cores and pictures when they can. Builds the replicate
  // (network, routing, process graph, allocation; no workload): errors building it are the scenario's.
  std::string check(int replicate, std::vector<RunRow>& rows);

 private:
  std::string check_single(int replicate, std::vector<RunRow>& rows);
  std::string check_jobs(int replicate, std::vector<RunRow>& rows);

  const Scenario& scenario_;
  RunOptions options_;
  // The scenario (and each job's) as the mappers see it: without a workload to build.
  std::vector<std::unique_ptr<Scenario>> mapping_only_;
  std::vector<std::unique_ptr<RunPipeline>> pipelines_;
};

}  // namespace mapsim
