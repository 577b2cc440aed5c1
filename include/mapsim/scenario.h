// Running a scenario file as `mapsim run` does, rows in hand instead of a results folder.
#pragma once
#include <mapsim/export.h>
#include <cstdint>
#include <string>
#include <vector>

#include <mapsim/problem.h>

namespace mapsim {

// One replicate x mapper (or job) of a run: a row of results.csv.
struct ResultRow {
  int replicate = 0;
  std::uint64_t seed = 0;
  std::string job;  // a multi-job scenario's job; empty otherwise
  std::string mapper;
  Values values;    // results.csv's value columns, NaN where one does not apply
  std::vector<int> placement;
  double map_seconds = 0, sim_seconds = 0;
};

// `settings` are "KEY=VALUE" as --set takes them ("model.name=packet").
MAPSIM_API std::vector<ResultRow> run(const std::string& scenario_file, const std::vector<std::string>& settings = {});

}  // namespace mapsim
