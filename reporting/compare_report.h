// What `mapsim compare` prints: per mapper, the mean and standard deviation over the replicates of
// every value of its rows (the mapping metrics, then map_seconds), as CSV (every value) and as a
// text table (the headline metrics).
#pragma once
#include <ostream>
#include <string>
#include <vector>

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

}  // namespace mapsim
