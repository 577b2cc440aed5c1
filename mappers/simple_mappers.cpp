// The reference mappers of the papers: random (RM) and default.

#include "support/spec.h"
#include "mappers/simple_mappers.h"

#include "support/error.h"
#include "support/random.h"

namespace mapsim {

std::vector<int> slot_list(const MappingProblem& problem) {
  std::vector<int> slots;
  for (size_t i = 0; i < problem.nodes.size(); ++i) slots.insert(slots.end(), problem.slots[i], problem.nodes[i]);
  return slots;
}

Placement RandomMapper::map(const MappingProblem& problem) const {
  std::vector<int> slots = slot_list(problem);
  Rng rng(problem.seed);
  if (!by_switch_) {
    rng.shuffle(slots);
  } else {  // whole switches in random order, each switch's slots together in allocation order
    const Network& net = problem.network->network();
    std::vector<int> order;
    std::vector<std::vector<int>> of_switch(net.num_switches());
    for (int slot : slots) {
      auto& list = of_switch[net.node(slot).switch_id];
      if (list.empty()) order.push_back(net.node(slot).switch_id);
      list.push_back(slot);
    }
    rng.shuffle(order);
    slots.clear();
    for (int sw : order) slots.insert(slots.end(), of_switch[sw].begin(), of_switch[sw].end());
  }
  slots.resize(problem.graph->num_tasks());
  return slots;
}

Placement DefaultMapper::map(const MappingProblem& problem) const {
  // Task i on node i mod N first, so that extra slots fill round robin like mpirun --map-by node.
  const int tasks = problem.graph->num_tasks();
  const int nodes = static_cast<int>(problem.nodes.size());
  std::vector<int> used(nodes, 0);
  Placement placement(tasks);
  int next = 0;
  for (int t = 0; t < tasks; ++t) {
    while (used[next % nodes] >= problem.slots[next % nodes]) ++next;
    placement[t] = problem.nodes[next % nodes];
    ++used[next % nodes];
    ++next;
  }
  return placement;
}

MAPSIM_REGISTER(mapper_registry(),
                {"random", "RM: tasks on a random permutation of the slots, or of whole switches (seeded); O(T)",
                 {text_param("unit", "node", "what is shuffled: node (slots one by one) or switch (a switch's slots stay together)")},
                 [](Spec& spec) {
                   const std::string unit = spec.get_string("unit");
                   if (unit != "node" && unit != "switch")
                     throw Error("random mapper: unit must be node or switch, got '" + unit + "'");
                   return std::make_unique<RandomMapper>(unit == "switch");
                 }});
MAPSIM_REGISTER(mapper_registry(), {"default", "task i on the i-th slot in allocation order; O(T)", {},
                                    [](Spec&) { return std::make_unique<DefaultMapper>(); }});

}  // namespace mapsim
