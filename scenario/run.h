// The one run pipeline: network -> process graph -> problem -> mapper -> evaluate (and simulate).
// Replicates that would repeat replicate 0 exactly (nothing depends on the seed) are run once and
// copied, with a warning.
// RunPipeline builds the parts of a replicate once (rebuilding only what its seed changes) and
// runs one mapper on them; `mapsim map`, `compare`, `simulate`, `run` and every sweep point go
// through it. run_scenario() runs every replicate x mapper: one row each -- the mapping metrics
// and, with a model, the simulation's results (keys prefixed sim_) -- plus that placement's link
// loads, in replicate order, then mapping order. reporting/run_report.h writes them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "sim/workload.h"

namespace mapsim {

using Values = std::vector<std::pair<std::string, double>>;

// The parts of one replicate, shared by its mappers.
struct ReplicateParts {
  int replicate = 0;
  uint64_t seed = 0;
  const RoutedNetwork* routed = nullptr;
  const ProcessGraph* graph = nullptr;
  // The workload (made when simulating or when a pattern is given), read as the replay advances: a
  // synthetic workload generated, a TI index streamed (traces/trace_source.h).
  const TraceSource* trace = nullptr;
  MappingProblem problem;
  SimOptions sim;                 // the scenario's, with the OCS laid on this network
};

// One mapper on one replicate.
struct MappingRun {
  std::string mapper;               // as run: CP regroups `default` as `metis`
  Placement placement;
  Values values;                    // mapping metrics, then sim_ results
  std::optional<SimResult> simulated;
  PortfolioReport portfolio;        // what `best` tried (empty for other mappers)
  double map_seconds = 0, sim_seconds = 0;
};

class RunPipeline {
 public:
  // Checks what needs no network; reads the trace of a trace workload.
  explicit RunPipeline(const Scenario& scenario);
  ~RunPipeline();
  // Builds replicate r (0-based); a failure names the scenario key (or command-line flag) behind it.
  const ReplicateParts& replicate(int r);
  MappingRun run(const ReplicateParts& parts, const std::string& mapper) const;
  // Throws NotApplicable when the mapper does not fit this replicate's problem (Mapper::check).
  void check(const ReplicateParts& parts, const std::string& mapper) const;
  // True when no part of the scenario depends on the replicate's seed (seeded or seedless specs,
  // a fixed allocation, mappers that ignore the seed, no random path choice): every replicate would
  // repeat replicate 0. `parts` is replicate 0.
  bool replicates_identical(const ReplicateParts& parts) const;
  // Takes the network (and the links failing during the run) that `other` built for its last replicate,
  // so that the next replicate() of this pipeline, on the same machine keys, does not build it again:
  // the jobs of a multi-job scenario share one machine.
  void share_network(const RunPipeline& other);

 private:
  const Scenario& scenario_;
  std::string network_spec_, process_spec_;
  std::shared_ptr<const RoutedNetwork> routed_;
  ProcessGraph graph_;
  std::shared_ptr<const TraceSource> trace_;
  // trace_'s bytes per rank pair (the mapping metrics) and its phases (the contention-aware metrics
  // and `best`), read in one pass.
  WorkloadTraffic traffic_;
  ReplicateParts parts_;
  std::optional<LinkFailure> failed_;  // failures.at: the links that fail during the run
};

struct RunRow {
  int replicate = 0;
  uint64_t seed = 0;
  std::string job;           // a multi-job scenario's job (scenario/jobs_run.h); empty otherwise
  std::string mapper;
  Values values;             // deterministic results, in a fixed key order
  double map_seconds = 0;    // wall clock: the only fields that vary between identical runs
  double sim_seconds = 0;
  Placement placement;
  std::vector<int> cores;    // each rank's core with node insides (place_on_cores, for launch files); empty otherwise
  std::string links_csv;     // links.csv rows of this placement, without replicate and mapper (simulated bytes, or routed volume)
  std::string network_dot;   // Graphviz picture of the loads (only when asked for)
  std::string timeline_csv;  // replicate 0 with RunOptions::timeline: "rank,state,start,end" rows
  PortfolioReport portfolio; // what `best` tried (no candidates for other mappers)
};

// What a row stands for in tables and summaries: its job in a multi-job scenario, else its mapper.
inline const std::string& row_label(const RunRow& row) { return row.job.empty() ? row.mapper : row.job; }

// A mapper that failed on a replicate. One that does not fit the problem (NotApplicable: checked
// for every mapper before any runs) is dropped from the later replicates.
struct RunFailure {
  int replicate = 0;
  std::string mapper, error;
};

struct RunOptions {
  bool links = true;                                  // fill RunRow::links_csv
  bool draw = false;                                  // fill RunRow::network_dot
  bool draw_shared_scale = true;                      // one load scale for a replicate's pictures
  std::string draw_view = "auto";                     // nodes, switches (one vertex per switch), auto: switches above 128 nodes
  bool timeline = false;                              // fill RunRow::timeline_csv of replicate 0 (simulations)
  std::function<void(int done, int total)> progress;  // at the start (0 done), then after each row
  // Given: a failing mapper is recorded here and the run goes on; otherwise its error ends the run.
  std::vector<RunFailure>* failures = nullptr;
  std::set<int> skip_replicates;                      // done before (resumed): not run
  // After each finished replicate, with its rows and failures (a checkpoint).
  std::function<void(int replicate, const std::vector<RunRow>&, const std::vector<RunFailure>&)> replicate_done;
  // Polled between runs: true ends the run, returning the finished replicates only.
  std::function<bool()> stop;
};

std::vector<RunRow> run_scenario(const Scenario& scenario, const RunOptions& options = {});

// The Graphviz pictures of one replicate's rows (RunRow::network_dot) from each row's bytes per switch
// channel (`loads[i]`), on one load scale when options.draw_shared_scale; also for replicates read back.
void draw_rows(const Scenario& scenario, const ReplicateParts& parts, const RunOptions& options, std::vector<RunRow>& rows,
               const std::vector<std::vector<double>>& loads);

}  // namespace mapsim
