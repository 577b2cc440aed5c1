#include "mappers/objective.h"

#include "mappers/congestion.h"
#include "support/error.h"

namespace mapsim {

Objective parse_objective(const std::string& name, const std::string& who) {
  for (Objective o : {Objective::HopBytes, Objective::MaxLinkLoad, Objective::Congestion, Objective::Makespan})
    if (objective_name(o) == name) return o;
  throw Error(who + ": objective '" + name + "': expected " + kObjectiveNames);
}

std::string objective_name(Objective objective) {
  switch (objective) {
    case Objective::HopBytes: return "hop-bytes";
    case Objective::MaxLinkLoad: return "max-link-load";
    case Objective::Congestion: return "congestion";
    case Objective::Makespan: return "makespan";
  }
  return "";
}

double objective_value(const MappingProblem& problem, const Placement& placement, Objective objective) {
  switch (objective) {
    case Objective::HopBytes: {
      double total = 0;
      for (const ProcessEdge& e : problem.graph->edges()) total += e.volume * problem.network->hops(placement[e.a], placement[e.b]);
      return total;
    }
    case Objective::MaxLinkLoad: return busiest_port(problem, placement);
    case Objective::Congestion: return congestion(problem, placement);
    case Objective::Makespan:
      if (!problem.simulate) throw Error("objective makespan needs a workload to simulate (workload.pattern or workload.trace)");
      return problem.simulate(placement, "");
  }
  return 0;
}

}  // namespace mapsim
