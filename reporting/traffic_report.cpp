#include "reporting/traffic_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/error.h"
#include "support/json_text.h"
#include "support/units.h"

namespace mapsim {

TrafficFormat parse_traffic_format(const std::string& text) {
  if (text == "table") return TrafficFormat::Table;
  if (text == "csv") return TrafficFormat::Csv;
  if (text == "json") return TrafficFormat::Json;
  throw Error("--format: expected table, csv or json, got '" + text + "'");
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
  out << "offered  accepted  latency mean     p99       (zero-load)  hops\n";
  for (const TrafficResult& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "%-8.3f %-9.3f %-16s %-9s %-12s %.2f\n", r.offered, r.accepted,
                  format_time(r.latency.mean).c_str(), format_time(r.latency.p99).c_str(),
                  format_time(r.zero_load_latency).c_str(), r.avg_hops);
    out << line;
  }
}

}  // namespace mapsim
