// Allocation policies: which compute nodes a job gets, chosen from the free nodes of a network as a
// scheduler does (`contiguous`, `best-fit`, `random`, `spread`, `group`, `all`, `list:FILE`). Every
// policy but `list` takes `busy=F`: a fraction of the machine already occupied by other jobs,
// fragmented as a queue leaves it, drawn from the seed. Each policy registers itself in
// allocation_registry(); `mapsim components allocations` lists them, docs/mappers.md describes them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routing/routed_network.h"
#include "support/registry.h"

namespace mapsim {

class AllocationPolicy {
 public:
  virtual ~AllocationPolicy() = default;
  // `needed` of the nodes with free[n] != 0 (at least that many are free), in allocation order; `seed`
  // is the policy's (given, or the run's). `all` and `list` return every node they name instead.
  virtual std::vector<int> choose(const Network& network, const std::vector<char>& free, int needed,
                                  uint64_t seed) const = 0;
  // True when the nodes chosen depend on the seed even on an idle machine (random).
  virtual bool uses_seed() const { return false; }
};

using AllocationRegistry = Registry<std::function<std::unique_ptr<AllocationPolicy>(Spec&)>>;
AllocationRegistry& allocation_registry();

// The parameters every policy but `list` declares: `busy` and `seed`.
std::vector<Param> with_busy_params(std::vector<Param> params);

// The nodes of one job: `nodes_needed` nodes that are neither `taken` (taken[n] != 0; empty: none
// taken) nor busy, chosen by `policy_spec` ("best-fit", "random:busy=0.3,seed=7"); node ids in
// allocation order (ascending, but `list` keeps its file's order). `seed` seeds a spec given no
// seed=. The busy nodes depend on the seed and the machine only, not on `taken`, so the jobs
// allocated one after another on one machine with one seed see the same background. Throws
// mapsim::Error "allocation 'best-fit': 40 nodes needed, only 33 free (...)", on unknown policies
// and keys, and on a bad busy value.
std::vector<int> allocate_nodes(const RoutedNetwork& network, const std::string& policy_spec, int nodes_needed,
                                const std::vector<char>& taken, uint64_t seed);

// The busy nodes (busy[n] != 0) of a machine of `num_nodes` nodes with a busy fraction: exactly
// round(fraction * num_nodes) of them, the holes left free being whole or partial past jobs.
std::vector<char> busy_nodes(int num_nodes, double fraction, uint64_t seed);

// Whether the nodes a spec chooses depend on the run's seed (no seed= of its own, and random or busy).
bool allocation_uses_seed(const std::string& policy_spec);
// Parses the spec and checks its policy and keys without a network: the scenario's check before a run.
void check_allocation_spec(const std::string& policy_spec);

}  // namespace mapsim
