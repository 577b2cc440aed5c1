// run(): a scenario file through run_scenario(), as `mapsim run` runs it, without the results folder.
#include <mapsim/scenario.h>

#include "api/guarded.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "support/interrupt.h"

namespace mapsim {

std::vector<ResultRow> run(const std::string& scenario_file, const std::vector<std::string>& settings) {
  return api::guarded([&] {
    const Scenario scenario = load_scenario(scenario_file, settings);
    RunOptions options;
    options.links = false;
    options.stop = InterruptGuard::interrupted;
    std::vector<ResultRow> rows;
    for (RunRow& row : run_scenario(scenario, options))
      rows.push_back({row.replicate, row.seed, row.job, row.mapper, std::move(row.values), std::move(row.placement),
                      row.map_seconds, row.sim_seconds});
    return rows;
  });
}

}  // namespace mapsim
