// What `mapsim compare` prints: per mapper, the mean and standard deviation over the replicates of
// every value of its rows (the mapping metrics, then map_seconds), as CSV (every value) and as a
// text table (the headline metrics); and mapsim map's JSON.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenario/run.h"
#include "support/statistics.h"

namespace mapsim {

struct CompareSummary {
  std::vector<std::string> mappers;
  int replicates = 0;
  std::vector<std::string> keys;                    // the rows' value keys, then map_seconds
  std::vector<std::vector<Statistics>> per_mapper;  // [mapper][key]
};

// `rows` as run_scenario returns them without failures: replicate by replicate, every mapper in order.
CompareSummary summarise_compare(const std::vector<std::string>& mappers, int replicates,
                                 const std::vector<RunRow>& rows);
// mapper,replicates,KEY_mean,KEY_sd,...
void write_compare_csv(const CompareSummary& summary, std::ostream& out);
// "N replicate(s); mean (stddev)", then one line per mapper (latencies and bounds in us).
void write_compare_table(const CompareSummary& summary, std::ostream& out);
// mapsim map --json: the mapper, every value of its run by column name (null where one does not apply),
// tasks, edges, map_seconds and avg_latency (the old name of zero_load_latency, docs/mappers.md).
nlohmann::ordered_json map_json(const std::string& mapper, const MappingRun& run, int tasks, size_t edges);

}  // namespace mapsim
