// map() and simulate(): one replicate of a Problem through the run pipeline, as `mapsim map` and
// `mapsim simulate` run it (the same flags, so the same checks and the same messages).
#include <mapsim/mapping.h>

#include <array>
#include <cmath>
#include <utility>

#include "api/guarded.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "sim/report.h"

namespace mapsim {
namespace {

Scenario problem_scenario(const std::string& command, const Problem& p, const std::string& mapper, const std::string& model) {
  return scenario_from_flags(command, given_flags({{"network", "--topology", p.network},
                                                   {"routing", "--routing", p.routing},
                                                   {"workload.process", "--process", p.process},
                                                   {"workload.pattern", "--workload", p.workload},
                                                   {"workload.trace", "--trace", p.trace},
                                                   {"mapping", "--mapper", mapper},
                                                   {"allocation", "--allocation", p.allocation},
                                                   {"slots", "--slots", p.slots > 0 ? std::to_string(p.slots) : ""},
                                                   {"seed", "--seed", std::to_string(p.seed)},
                                                   {"model.name", "--model", model}}));
}

Mapping mapping_of(MappingRun& run) {
  Mapping m;
  m.mapper = run.mapper;
  m.placement = std::move(run.placement);
  m.seconds = run.map_seconds;
  for (const auto& value : run.values)
    if (value.first.rfind("sim_", 0) != 0) m.metrics.push_back(value);
  return m;
}

}  // namespace

double value_of(const Values& values, const std::string& name) {
  for (const auto& [key, value] : values)
    if (key == name) return value;
  return std::nan("");
}

Mapping map(const Problem& problem, const std::string& mapper) {
  return api::guarded([&] {
    const Scenario scenario = problem_scenario("mapsim map", problem, mapper, "none");
    RunPipeline pipeline(scenario);
    MappingRun run = pipeline.run(pipeline.replicate(0), scenario.mappers.front());
    return mapping_of(run);
  });
}

Simulation simulate(const Problem& problem, const std::string& mapper, const std::string& model) {
  return api::guarded([&] {
    if (model.empty() || model == "none") throw Error("--model: simulate needs a simulation model, not none");
    const Scenario scenario = problem_scenario("mapsim simulate", problem, mapper, model);
    RunPipeline pipeline(scenario);
    const ReplicateParts& parts = pipeline.replicate(0);
    MappingRun run = pipeline.run(parts, scenario.mappers.front());
    const SimResult& r = *run.simulated;
    Simulation s;
    s.mapping = mapping_of(run);
    s.model = r.model;
    s.makespan = r.makespan;
    s.rank_finish = r.rank_finish;
    s.events = r.events;
    s.seconds = run.sim_seconds;
    for (const auto& value : run.values)
      if (value.first.rfind("sim_", 0) == 0) s.values.push_back(value);
    s.links = link_loads(r, *parts.routed);
    return s;
  });
}

}  // namespace mapsim
