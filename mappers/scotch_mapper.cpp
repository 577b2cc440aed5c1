#include "mappers/scotch_mapper.h"

#include "support/spec.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>

extern "C" {
#include <scotch.h>
}

#include "mappers/internal/process_csr.h"
#include "mappers/internal/switch_slots.h"
#include "support/error.h"

namespace mapsim {

// libscotch 7.0.3 runs out of memory building decomposition targets of ~4700 switches and then
// crashes in SCOTCH_graphMap (../shared/notes/scotch.md): refuse before that.
void ScotchMapper::check(const MappingProblem& problem) const {
  const int switches = problem.network->network().num_switches();
  if (switches > 4096)
    throw NotApplicable("scotch: the network has " + std::to_string(switches) +
                " switches; libscotch 7.0.3 cannot build targets above 4096 (use binary or best)");
}

Placement ScotchMapper::map(const MappingProblem& problem) const {
  check(problem);
  const ProcessGraph& graph = *problem.graph;
  const Network& net = problem.network->network();
  const int tasks = graph.num_tasks();
  const std::vector<SwitchSlots> groups = group_by_switch(net, compact_slots(problem, tasks));
  std::vector<int> group_of_switch(net.num_switches(), -1);
  for (size_t g = 0; g < groups.size(); ++g) group_of_switch[groups[g].switch_id] = static_cast<int>(g);

  // The switch graph, vertex weight = slots (1 on switches without slots). Scotch keeps pointers
  // to these arrays, so they outlive its graphs.
  std::vector<SCOTCH_Num> target_start{0}, target_adjacent, target_weight;
  for (int s = 0; s < net.num_switches(); ++s) {
    std::set<int> neighbours;
    for (const Network::Port& p : net.ports_of(s))
      if (p.neighbor != s) neighbours.insert(p.neighbor);
    target_adjacent.insert(target_adjacent.end(), neighbours.begin(), neighbours.end());
    target_start.push_back(static_cast<SCOTCH_Num>(target_adjacent.size()));
    const int g = group_of_switch[s];
    target_weight.push_back(g >= 0 ? static_cast<SCOTCH_Num>(groups[g].slots.size()) : 1);
  }
  const ProcessCsr<SCOTCH_Num> process = process_csr<SCOTCH_Num>(graph);
  std::vector<SCOTCH_Num> terminals;
  for (const SwitchSlots& g : groups) terminals.push_back(g.switch_id);

  SCOTCH_Graph switch_graph, task_graph, bound_graph, bound_switch_graph;
  SCOTCH_Arch arch;
  SCOTCH_Strat strategy, arch_strategy;  // separate: archBuild0 fills its own with a bipartitioning strategy
  SCOTCH_Context context;
  // archBuild0 draws from the global generator: seed and reset it so every run is the same.
  SCOTCH_randomSeed(static_cast<SCOTCH_Num>(problem.seed % INT32_MAX));
  SCOTCH_randomReset();
  SCOTCH_graphInit(&switch_graph);
  SCOTCH_graphInit(&task_graph);
  SCOTCH_graphInit(&bound_graph);
  SCOTCH_graphInit(&bound_switch_graph);
  SCOTCH_archInit(&arch);
  SCOTCH_stratInit(&strategy);
  SCOTCH_stratInit(&arch_strategy);
  SCOTCH_contextInit(&context);
  std::vector<SCOTCH_Num> parts(tasks, -1);
  int status = 0;
  std::string failed;
  auto step = [&](int result, const char* what) {
    if (status == 0 && result != 0) status = result, failed = what;
    return status == 0;
  };
  step(SCOTCH_graphBuild(&switch_graph, 0, net.num_switches(), target_start.data(), nullptr, target_weight.data(),
                         nullptr, static_cast<SCOTCH_Num>(target_adjacent.size()), target_adjacent.data(), nullptr),
       "building the switch graph") &&
      step(SCOTCH_graphBuild(&task_graph, 0, tasks, process.start.data(), nullptr, nullptr, nullptr,
                             static_cast<SCOTCH_Num>(process.adjacent.size()), process.adjacent.data(),
                             process.weight.data()),
           "building the process graph") &&
      step(SCOTCH_graphCheck(&task_graph), "checking the process graph") &&
      step(SCOTCH_contextOptionSetNum(&context, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "setting determinism") &&
      step(SCOTCH_contextRandomClone(&context), "cloning the random state") &&
      (SCOTCH_contextRandomSeed(&context, static_cast<SCOTCH_Num>(problem.seed % INT32_MAX)), true) &&
      // the target is built on the bound switch graph too: unbound, archBuild0 runs multithreaded and
      // its decomposition (so the mapping) varies with the machine's load
      step(SCOTCH_contextBindGraph(&context, &switch_graph, &bound_switch_graph), "binding the switch graph") &&
      step(SCOTCH_archBuild0(&arch, &bound_switch_graph, static_cast<SCOTCH_Num>(terminals.size()), terminals.data(),
                             &arch_strategy),
           "building the target architecture") &&
      step(SCOTCH_archSize(&arch) == static_cast<SCOTCH_Num>(terminals.size()) ? 0 : 1,
           "building the target architecture (it lost terminals)") &&
      step(SCOTCH_contextBindGraph(&context, &task_graph, &bound_graph), "binding the context") &&
      step(SCOTCH_graphMap(&bound_graph, &arch, &strategy, parts.data()), "mapping");
  SCOTCH_graphExit(&bound_graph);
  SCOTCH_archExit(&arch);  // before the graph it was built on
  SCOTCH_graphExit(&bound_switch_graph);
  SCOTCH_contextExit(&context);
  SCOTCH_stratExit(&strategy);
  SCOTCH_stratExit(&arch_strategy);
  SCOTCH_graphExit(&task_graph);
  SCOTCH_graphExit(&switch_graph);
  if (status != 0) throw InternalError("scotch: " + failed + " failed");
  std::vector<int> group_of_task(tasks);
  for (int t = 0; t < tasks; ++t) {
    // Decomposition-defined targets return the target vertex label, i.e. the switch id.
    const int g = parts[t] >= 0 && parts[t] < net.num_switches() ? group_of_switch[parts[t]] : -1;
    if (g < 0) throw InternalError("scotch: mapped task " + std::to_string(t) + " onto a switch without slots");
    group_of_task[t] = g;
  }
  return place_groups(problem, groups, group_of_task);
}

MAPSIM_REGISTER(mapper_registry(), {"scotch", "Scotch static mapping onto the switch graph (libscotch 7, seeded)", {},
                                    [](Spec&) { return std::make_unique<ScotchMapper>(); }});

}  // namespace mapsim
