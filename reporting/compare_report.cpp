#include "reporting/compare_report.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "mappers/result_columns.h"
#include "support/json_text.h"
#include "support/units.h"

namespace mapsim {
namespace {

// `text` padded with spaces to `width` characters on the left (printf's %Ns), or on the right for a
// negative width (%-Ns).
std::string padded(const std::string& text, int width) {
  const size_t size = static_cast<size_t>(width < 0 ? -width : width);
  if (text.size() >= size) return text;
  const std::string fill(size - text.size(), ' ');
  return width < 0 ? text + fill : fill + text;
}

}  // namespace

CompareSummary summarise_compare(const std::vector<std::string>& mappers, int replicates,
                                 const std::vector<RunRow>& rows) {
  CompareSummary summary;
  summary.mappers = mappers;
  summary.replicates = replicates;
  for (const auto& [key, value] : rows.front().values) summary.keys.push_back(key);
  summary.keys.push_back("map_seconds");
  const std::vector<std::string>& keys = summary.keys;
  // values[mapper][metric] over replicates
  std::vector<std::vector<std::vector<double>>> values(mappers.size(), std::vector<std::vector<double>>(keys.size()));
  for (size_t row = 0; row < rows.size(); ++row) {
    auto& cells = values[row % mappers.size()];
    for (size_t k = 0; k + 1 < keys.size(); ++k) cells[k].push_back(rows[row].values[k].second);
    cells.back().push_back(rows[row].map_seconds);
  }
  for (const auto& per_key : values) {
    summary.per_mapper.emplace_back();
    for (const auto& v : per_key) summary.per_mapper.back().push_back(summarise(v));
  }
  return summary;
}

void write_compare_csv(const CompareSummary& summary, std::ostream& out) {
  out << "mapper,replicates";
  for (const std::string& k : summary.keys) out << "," << k << "_mean," << k << "_sd";
  out << "\n";
  for (size_t i = 0; i < summary.mappers.size(); ++i) {
    out << csv_field(summary.mappers[i]) << "," << summary.replicates;
    for (const Statistics& st : summary.per_mapper[i])  // empty where the column applies to no row
      out << "," << (st.n ? format_number(st.mean) : "") << "," << (st.n ? format_number(st.sd) : "");
    out << "\n";
  }
}

void write_compare_table(const CompareSummary& summary, std::ostream& out) {
  // The headline metrics (every metric is in the CSV), declared in mappers/result_columns.h: times in
  // microseconds, the process graph's edge weights (compare has no workload) marked "vol.".
  const std::vector<std::string>& keys = summary.keys;
  std::vector<std::pair<size_t, std::string>> shown;  // (key, label)
  for (const ResultColumn* c : table_columns(&ResultColumn::compare_table)) {
    const size_t k = std::find(keys.begin(), keys.end(), c->name) - keys.begin();
    const std::string unit = c->unit == "s" ? " (us)" : result_unit(*c, false) == "weight" ? " (vol.)" : "";
    if (k < keys.size()) shown.emplace_back(k, c->short_label + unit);
  }
  out << summary.replicates << " replicate(s); mean (stddev)\n" << padded("mapper", -16);
  for (const auto& [k, label] : shown) out << " " << padded(label, 22);
  out << "\n";
  for (size_t i = 0; i < summary.mappers.size(); ++i) {
    out << padded(summary.mappers[i], -16);
    for (const auto& [k, label] : shown) {
      const Statistics& st = summary.per_mapper[i][k];
      const double scale = find_result_column(keys[k])->unit == "s" ? 1e6 : 1;
      char value[64];
      if (st.n == 0) std::snprintf(value, sizeof value, "n/a");
      else std::snprintf(value, sizeof value, "%.4g (%.3g)", st.mean * scale, st.sd * scale);
      out << " " << padded(value, 22);
    }
    out << "\n";
  }
}

nlohmann::ordered_json map_json(const std::string& mapper, const MappingRun& run, int tasks, size_t edges) {
  nlohmann::ordered_json j{{"mapper", mapper}};
  for (const auto& [key, value] : run.values) j[key] = json_number(value);
  j["tasks"] = tasks;
  j["edges"] = edges;
  j["map_seconds"] = run.map_seconds;
  j["avg_latency"] = j["zero_load_latency"];
  return j;
}

}  // namespace mapsim
