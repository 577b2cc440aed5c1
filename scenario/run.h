// Runs a scenario: every replicate x mapper gives one row -- the mapping metrics and, with a model,
// the simulation's results (keys prefixed sim_) -- plus that placement's link loads. Rows come in
// replicate order, then mapping order. write_run() stores them as results.csv, links.csv,
// timings.csv and summary.json (summary.json last: it marks a complete directory).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace mapsim {

using Values = std::vector<std::pair<std::string, double>>;

struct RunRow {
  int replicate = 0;
  uint64_t seed = 0;
  std::string mapper;
  Values values;             // deterministic results, in a fixed key order
  double map_seconds = 0;    // wall clock: the only fields that vary between identical runs
  double sim_seconds = 0;
  std::string links_csv;     // links.csv rows of this placement (simulated bytes, or routed volume)
  std::string network_dot;   // Graphviz picture of the loads (only when asked for)
};

struct RunOptions {
  bool links = true;                                  // fill RunRow::links_csv
  bool draw = false;                                  // fill RunRow::network_dot
  std::function<void(int done, int total)> progress;  // after each row
};

std::vector<RunRow> run_scenario(const Scenario& scenario, const RunOptions& options = {});

// Writes results.csv, links.csv, timings.csv and summary.json into `dir`.
void write_run(const std::string& dir, const Scenario& scenario, const std::vector<RunRow>& rows);
// Mean (sd) per mapper of the headline metrics, as a text table.
std::string run_table(const std::vector<RunRow>& rows);

}  // namespace mapsim
