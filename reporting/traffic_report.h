// What `mapsim traffic` prints: one row per offered load (a load-latency curve), as a table, CSV or JSON.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/traffic.h"

namespace mapsim {

enum class TrafficFormat { Table, Csv, Json };
// "table", "csv" or "json"; otherwise throws Error naming --format.
TrafficFormat parse_traffic_format(const std::string& text);

// What the rows ran on, as given: each CSV row and the JSON object name it.
struct TrafficLabels {
  std::string network, routing, model, path_selection, pattern;
  uint64_t seed = 1;
};

void write_traffic_rows(const TrafficLabels& run, const std::vector<TrafficResult>& rows, TrafficFormat format,
                        std::ostream& out);

}  // namespace mapsim
