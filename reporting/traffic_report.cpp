#include "reporting/traffic_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/error.h"
#include "support/spec.h"
#include "support/json_text.h"
#include "support/units.h"

namespace mapsim {
namespace {

struct TimeColumn {
  std::string name;
  std::pair<const char*, double> unit;  // name, factor from seconds
  std::vector<double> values;  // seconds
};

// Four significant digits, fixed point: 20.77, 0.02394, 1235.
std::string four_digits(double value) {
  if (value == 0 || !std::isfinite(value)) return value == 0 ? "0" : format_number(value);
  const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(std::abs(value)))), 0, 9);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace

TrafficFormat parse_traffic_format(const std::string& text) {
  return static_cast<TrafficFormat>(one_of("--format", text, {"table", "csv", "json"}));  // TrafficFormat's order
}

void write_traffic_rows(const TrafficLabels& o, const std::vector<TrafficResult>& rows, TrafficFormat format,
                        std::ostream& out) {
  if (format == TrafficFormat::Json) {
    nlohmann::json j = {
        {"network", o.network}, {"routing", o.routing}, {"model", o.model}, {"path_selection", o.path_selection},
        {"pattern", o.pattern}, {"seed", o.seed},       {"results", rows}};
    out << json_text(j, 2) << "\n";
    return;
  }
  if (format == TrafficFormat::Csv) {
    out << "network,routing,model,path_selection,pattern,offered,accepted,latency_mean,latency_p50,latency_p99,"
           "latency_max,zero_load_latency,avg_hops,messages,events\n";
    const std::string run = csv_field(o.network) + "," + csv_field(o.routing) + "," + csv_field(o.model) + "," +
                            csv_field(o.path_selection) + ",";
    for (const TrafficResult& r : rows)
      out << run << csv_field(r.pattern) << "," << format_exact(r.offered) << "," << format_exact(r.accepted) << ","
          << format_exact(r.latency.mean) << "," << format_exact(r.latency.p50) << "," << format_exact(r.latency.p99)
          << "," << format_exact(r.latency.max) << "," << format_exact(r.zero_load_latency) << ","
          << format_exact(r.avg_hops) << "," << r.messages << "," << r.events << "\n";
    return;
  }
  // One unit per latency column, that of its largest value, named in the header.
  const auto column = [&](const char* name, double (*of)(const TrafficResult&)) {
    TimeColumn c;
    c.name = name;
    double largest = 0;
    for (const TrafficResult& r : rows) {
      c.values.push_back(of(r));
      largest = std::max(largest, std::abs(c.values.back()));
    }
    c.unit = time_unit(largest);
    return c;
  };
  const TimeColumn columns[] = {
      column("latency mean", [](const TrafficResult& r) { return r.latency.mean; }),
      column("p99", [](const TrafficResult& r) { return r.latency.p99; }),
      column("zero-load", [](const TrafficResult& r) { return r.zero_load_latency; })};
  out << "traffic on " << o.network << ": routing " << o.routing << ", pattern " << o.pattern << ", model " << o.model
      << ", path selection " << o.path_selection << ", seed " << o.seed << "\n";
  std::vector<std::string> header = {"offered", "accepted"};
  for (const TimeColumn& c : columns) header.push_back(c.name + " (" + c.unit.first + ")");
  header.push_back("hops");
  std::vector<std::vector<std::string>> cells;
  for (size_t i = 0; i < rows.size(); ++i) {
    char text[32];
    std::vector<std::string> line;
    std::snprintf(text, sizeof text, "%.3f", rows[i].offered);
    line.push_back(text);
    std::snprintf(text, sizeof text, "%.3f", rows[i].accepted);
    line.push_back(text);
    for (const TimeColumn& c : columns) line.push_back(four_digits(c.values[i] * c.unit.second));
    std::snprintf(text, sizeof text, "%.2f", rows[i].avg_hops);
    line.push_back(text);
    cells.push_back(line);
  }
  std::vector<size_t> width(header.size());
  for (size_t k = 0; k < header.size(); ++k) {
    width[k] = header[k].size();
    for (const auto& line : cells) width[k] = std::max(width[k], line[k].size());
  }
  const auto print = [&](const std::vector<std::string>& line, bool left) {
    for (size_t k = 0; k < line.size(); ++k) {
      const std::string pad(width[k] - line[k].size(), ' ');
      out << (k ? "  " : "") << (left ? line[k] + (k + 1 < line.size() ? pad : "") : pad + line[k]);
    }
    out << "\n";
  };
  print(header, true);
  for (const auto& line : cells) print(line, false);
}

}  // namespace mapsim
