#include "mappers/metis_mapper.h"

#include "support/spec.h"

#include <map>
#include <metis.h>

#include "mappers/internal/process_csr.h"
#include "mappers/internal/switch_slots.h"
#include "support/error.h"

namespace mapsim {

Placement MetisMapper::map(const MappingProblem& problem) const {
  const ProcessGraph& graph = *problem.graph;
  const RoutedNetwork& routed = *problem.network;
  const int tasks = graph.num_tasks();
  const std::vector<SwitchSlots> groups = group_by_switch(routed.network(), compact_slots(problem, tasks));
  const int k = static_cast<int>(groups.size());
  std::vector<idx_t> part(tasks, 0);
  if (k > 1) {
    ProcessCsr<idx_t> csr = process_csr<idx_t>(graph);
    std::vector<real_t> share;
    for (const SwitchSlots& g : groups) share.push_back(static_cast<real_t>(g.slots.size()) / static_cast<real_t>(tasks));
    idx_t vertices = tasks, constraints = 1, parts = k, cut = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(problem.seed % 1000000007);
    options[METIS_OPTION_UFACTOR] = 1;
    const int status = METIS_PartGraphRecursive(&vertices, &constraints, csr.start.data(), csr.adjacent.data(), nullptr,
                                                nullptr, csr.weight.data(), &parts, share.data(), nullptr, options, &cut, part.data());
    if (status != METIS_OK) throw InternalError("metis: METIS_PartGraphRecursive failed (status " + std::to_string(status) + ")");
  }
  // Place the groups: quotient graph volumes, heaviest group first, greedy by routed distance.
  std::vector<std::map<int, double>> quotient(k);
  std::vector<double> weight(k, 0);
  std::vector<int> size(k, 0);
  for (int t = 0; t < tasks; ++t) ++size[part[t]];
  for (const ProcessEdge& e : graph.edges()) {
    const int a = static_cast<int>(part[e.a]), b = static_cast<int>(part[e.b]);
    if (a == b) continue;
    quotient[a][b] += e.volume, quotient[b][a] += e.volume;
    weight[a] += e.volume, weight[b] += e.volume;
  }
  std::vector<int> switch_of(k, -1);  // group index each part goes to
  std::vector<bool> taken(k, false);
  std::vector<double> pull(k, 0);     // volume to placed parts, for the order
  for (int placed = 0; placed < k; ++placed) {
    int p = -1;
    for (int q = 0; q < k; ++q)
      if (switch_of[q] < 0 && (p < 0 || pull[q] > pull[p] || (pull[q] == pull[p] && weight[q] > weight[p]))) p = q;
    int best = -1;
    double best_cost = 0;
    for (int g = 0; g < k; ++g) {
      if (taken[g] || static_cast<int>(groups[g].slots.size()) < size[p]) continue;
      double cost = 0;
      for (auto [q, volume] : quotient[p])
        if (switch_of[q] >= 0) cost += volume * group_hops(routed, groups[g], groups[switch_of[q]]);
      if (best < 0 || cost < best_cost) best = g, best_cost = cost;
    }
    if (best < 0)  // no free switch is large enough: the largest free one, repaired below
      for (int g = 0; g < k; ++g)
        if (!taken[g] && (best < 0 || groups[g].slots.size() > groups[best].slots.size())) best = g;
    switch_of[p] = best;
    taken[best] = true;
    for (auto [q, volume] : quotient[p]) pull[q] += volume;
  }
  std::vector<int> group_of_task(tasks);
  for (int t = 0; t < tasks; ++t) group_of_task[t] = switch_of[part[t]];
  return place_groups(problem, groups, group_of_task);
}

MAPSIM_REGISTER(mapper_registry(), {"metis", "METIS groups per switch, placed heaviest first on the closest free switch", {},
                                    [](Spec&) { return std::make_unique<MetisMapper>(); }});

}  // namespace mapsim
