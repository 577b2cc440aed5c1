// The engine's outputs, as files and as a short table: summary.json (makespan, messages,
// avg_latency, max_link_load, events, wall_seconds, ...), links.csv (one row per directed
// switch-to-switch channel and node link), messages.csv (one row per message, on request).
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include <mapsim/mapping.h>  // LinkLoad
#include "sim/simulation.h"

namespace mapsim {

nlohmann::ordered_json summary_json(const SimResult& result, const RoutedNetwork& routed);
void write_links_csv(const SimResult& result, const RoutedNetwork& routed, std::ostream& out);
// links.csv in pieces, for files that hold the links of several runs: the header's columns and
// the rows, each row led by `prefix` (e.g. "0,switch,").
extern const char* const kLinksCsvColumns;
// links.csv's rows as values: switch channels, then each node's injection and ejection links, then circuits.
std::vector<LinkLoad> link_loads(const SimResult& result, const RoutedNetwork& routed);
void write_links_rows(const SimResult& result, const RoutedNetwork& routed, const std::string& prefix, std::ostream& out);
void write_messages_csv(const SimResult& result, std::ostream& out);
void print_summary(const SimResult& result, std::ostream& out);
// "t=1.52ms simulated, 3.4e+06 events, 12288 messages": the detail of a progress line.
std::string progress_detail(const SimProgress& progress);

}  // namespace mapsim
