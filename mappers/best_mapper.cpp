#include "mappers/best_mapper.h"

#include "support/spec.h"

#include <spdlog/spdlog.h>

#include "mappers/internal/local_search.h"
#include "mappers/internal/switch_slots.h"
#include "support/error.h"

namespace mapsim {
namespace {

// How many times 2 divides v: the cube dimensions a grid extent can take as equal blocks.
int twos(int v) {
  int bits = 0;
  while (v % 2 == 0) v /= 2, ++bits;
  return bits;
}

std::vector<int> coordinates(int task, const std::vector<int>& dims) {
  std::vector<int> c;
  for (int extent : dims) c.push_back(task % extent), task /= extent;
  return c;
}

}  // namespace

std::optional<std::vector<int>> regular_embedding(const MappingProblem& problem) {
  const Network& net = problem.network->network();
  const ProcessGraph& graph = *problem.graph;
  const std::vector<int>& dims = graph.dims;
  if (dims.empty() || static_cast<int>(problem.nodes.size()) != net.num_nodes()) return std::nullopt;
  const int tasks = graph.num_tasks();
  std::vector<int> switch_of(tasks);
  if (net.shape.family == "hypercube") {
    // Each grid dimension gets address bits (the widest block first), splitting it into 2^bits equal
    // blocks (48 = 16 blocks of 3); Gray code along each.
    const int n = static_cast<int>(net.shape.dims.size());
    std::vector<int> log_extent, bits(dims.size(), 0);
    int available = 0;
    for (int extent : dims) {
      log_extent.push_back(twos(extent));
      available += log_extent.back();
    }
    if (available == 0) return std::nullopt;
    for (int used = 0; used < std::min(n, available); ++used) {
      size_t widest = dims.size();
      for (size_t k = 0; k < dims.size(); ++k)
        if (bits[k] < log_extent[k] && (widest == dims.size() || log_extent[k] - bits[k] > log_extent[widest] - bits[widest])) widest = k;
      ++bits[widest];
    }
    for (int t = 0; t < tasks; ++t) {
      const std::vector<int> c = coordinates(t, dims);
      int address = 0, shift = 0;
      for (size_t k = 0; k < dims.size(); ++k) {
        const int block = c[k] / (dims[k] >> bits[k]);
        address |= (block ^ (block >> 1)) << shift;
        shift += bits[k];
      }
      switch_of[t] = address;
    }
    return switch_of;
  }
  if (net.shape.family == "mesh" || net.shape.family == "torus") {
    const std::vector<int>& m = net.shape.dims;
    if (m.size() != dims.size()) return std::nullopt;
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k] > m[k] && dims[k] % m[k] != 0) return std::nullopt;
    for (int t = 0; t < tasks; ++t) {
      const std::vector<int> c = coordinates(t, dims);
      int address = 0, stride = 1;
      for (size_t k = 0; k < dims.size(); ++k) {
        address += (dims[k] > m[k] ? c[k] / (dims[k] / m[k]) : c[k]) * stride;
        stride *= m[k];
      }
      switch_of[t] = address;
    }
    return switch_of;
  }
  return std::nullopt;
}

Placement BestMapper::map(const MappingProblem& problem) const {
  std::vector<std::pair<std::string, Placement>> candidates;
  if (auto embedding = regular_embedding(problem)) {
    const Network& net = problem.network->network();
    const std::vector<SwitchSlots> groups = group_by_switch(net, slot_list(problem));
    std::vector<int> group_of_switch(net.num_switches(), -1);
    for (size_t g = 0; g < groups.size(); ++g) group_of_switch[groups[g].switch_id] = static_cast<int>(g);
    std::vector<int> group_of_task;
    for (int s : *embedding) group_of_task.push_back(group_of_switch[s]);
    candidates.push_back({"embedding", place_groups(problem, groups, group_of_task)});
  }
  for (const char* name : {"binary", "adjacency", "scotch", "metis", "switch", "greedy", "multisection"}) {
    try {
      candidates.push_back({name, make_mapper(name)->map(problem)});
    } catch (const NotApplicable& e) {  // bad input and internal failures are not skipped
      spdlog::debug("best: skipping {}: {}", name, e.what());
    }
  }
  size_t chosen = 0;
  double best = 0;
  const CostTable table(*problem.network);
  for (size_t i = 0; i < candidates.size(); ++i) {
    // The switch-neighbourhood search where its passes are affordable, else swaps within N_C^2.
    Placement& placement = candidates[i].second;
    const double cost = refine_scan(problem, placement) <= kMaxRefineScan ? refine_placement(problem, table, placement)
                                                                            : swap_search(problem, table, placement, 1);
    spdlog::debug("best: {} refined to cost {}", candidates[i].first, cost);
    if (i == 0 || cost < best) best = cost, chosen = i;
  }
  return candidates[chosen].second;
}

MAPSIM_REGISTER(mapper_registry(), {"best", "mapsim's own: the cheapest of several candidates after local search on the routed cost", {},
                                    [](Spec&) { return std::make_unique<BestMapper>(); }});

}  // namespace mapsim
