// best: mapsim's own mapper, a portfolio judged by the run time it causes. Candidates: the exact
// embedding of a process grid into a regular network when one exists (Gray-code blocks on a hypercube,
// scaled blocks on a mesh/torus of the same dimension), binary (BM), adjacency (AM, 2-D grids), scotch,
// metis, switch, greedy, multisection and, on a partial allocation of up to 1024 tasks, annealing, each
// refined by local search on the routed cost (refine_placement: zero-load latency, 0 on one node; where
// one of its passes would scan more than kMaxRefineScan slots, the QAP swaps of swap_search); and the
// simple placements users pick, as they are: default (contiguous), random by node, random by switch,
// round-robin over switches. They are ranked by the objective -- congestion (mappers/congestion.h)
// where the workload's phases are known, else the routed cost, or one declared (mappers/objective.h)
// -- the top `refine` are refined on a load objective itself (mappers/internal/objective_search.h)
// and ranked with the rest, and, when the run pipeline can simulate the workload, the top `verify` are
// simulated and the fastest wins; otherwise the best-ranked. The problem's portfolio report, when
// given, lists every candidate's score and makespan.
#pragma once
#include <optional>
#include <string>

#include "mappers/mapper.h"

namespace mapsim {

struct BestOptions {
  std::string objective = "auto";  // auto, latency, or an Objective's name
  int verify = 6;                  // top candidates simulated (near ties: up to 3 x as many)
  std::string model;               // of those simulations (empty: the run's)
  int annealing_moves = 200;       // the annealing candidate's moves per task (0: none)
  int refine = 2;                  // top candidates refined on the load objective
  double time_limit = 0;           // of each refinement, seconds (0: none)
};

class BestMapper : public Mapper {
 public:
  explicit BestMapper(BestOptions options = {}) : options_(std::move(options)) {}
  std::string name() const override { return "best"; }
  Placement map(const MappingProblem& problem) const override;

 private:
  BestOptions options_;
};

// Switch of each task for a grid process topology on a hypercube, mesh or torus network (whole
// network allocated), or nothing when the shapes do not fit.
std::optional<std::vector<int>> regular_embedding(const MappingProblem& problem);

}  // namespace mapsim
