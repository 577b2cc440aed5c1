// The mapping problem and its answer. A Placement gives each task (rank) the compute node it runs
// on. The problem lists the nodes the job may use (the papers' "member processors") with their
// slots; a valid placement puts every task on an allowed node within its slots.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mappers/process_graph.h"
#include "mappers/schedule.h"
#include "routing/routed_network.h"

namespace mapsim {

using Placement = std::vector<int>;  // task -> node id

// Bytes one task sends another over a whole workload (collectives expanded into their messages).
struct TaskTraffic {
  int from, to;
  double bytes;
};

// What `best` tried: each candidate's score by its objective (seconds for congestion) and, for those
// it simulated, the makespan; the chosen one is marked.
struct PortfolioCandidate {
  std::string name;
  double score = 0;
  double makespan = -1;  // -1: not simulated
  bool chosen = false;
};
struct PortfolioReport {
  std::string objective;
  std::vector<PortfolioCandidate> candidates;
};

struct MappingProblem {
  const RoutedNetwork* network = nullptr;
  const ProcessGraph* graph = nullptr;
  std::vector<int> nodes;     // allowed nodes, in allocation order
  std::vector<int> slots;     // slots of each allowed node (same order)
  uint64_t seed = 1;
  // The workload's bytes when a workload or trace gives them: hop-bytes and link loads count these
  // instead of the graph's edge volumes. Mappers see the graph only.
  const std::vector<TaskTraffic>* traffic = nullptr;
  // The workload's phases when a workload is known (the contention-aware metrics and `best`).
  const CommSchedule* schedule = nullptr;
  // False when the simulation picks each message's path (ECMP, spraying, adaptive, UGAL, circuits):
  // only node links then carry a load known before the run.
  bool routes_fixed = true;
  // The run pipeline's simulation of the workload on a placement: its makespan in seconds, with the
  // model named (empty: the run's own, or store-and-forward when it has none). Empty when no workload
  // is known. `best` verifies its candidates with it.
  std::function<double(const Placement&, const std::string& model)> simulate;
  PortfolioReport* portfolio = nullptr;  // filled by `best` when given

  int total_slots() const;
};

// The problem of one job: its nodes chosen by the allocation policy (mappers/allocation.h: `all`,
// `random`, `best-fit`, `list:FILE`, ...), as many as the tasks need at `slots_per_node` each (all
// the free ones for `all`), each node with that many slots; `seed` seeds a policy given none.
MappingProblem make_problem(const RoutedNetwork& network, const ProcessGraph& graph, const std::string& allocation,
                            int slots_per_node, uint64_t seed);

// Reads the "rank node" lines that `mapsim map -o` writes (node id or name; '#' comments);
// every rank 0..R-1 exactly once. Throws "FILE:LINE: ..." otherwise.
Placement read_placement(const std::string& path, const Network& network);

// Throws mapsim::Error naming the first task that is unplaced, off the allocation or over capacity.
void check_placement(const MappingProblem& problem, const Placement& placement);

}  // namespace mapsim
