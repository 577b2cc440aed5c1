#include "reporting/run_report.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "mappers/result_columns.h"
#include "reporting/launch_files.h"
#include "reporting/plot.h"
#include "sim/report.h"
#include "sim/timeline.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/json_text.h"
#include "support/message.h"
#include "support/statistics.h"
#include "support/units.h"

namespace mapsim {
namespace {

nlohmann::ordered_json yaml_to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& entry : node) object[entry.first.Scalar()] = yaml_to_json(entry.second);
    return object;
  }
  if (node.IsSequence()) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const auto& item : node) array.push_back(yaml_to_json(item));
    return array;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string& text = node.Scalar();
  char* end = nullptr;
  errno = 0;
  const long long whole = std::strtoll(text.c_str(), &end, 10);  // integers stay integers ("replicates": 5)
  if (!text.empty() && *end == '\0' && errno != ERANGE) return whole;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0') return number;
  return text;
}

// Each line of `text` (a row's links.csv or timeline.csv rows), led by `prefix`.
void write_prefixed_lines(const std::string& prefix, const std::string& text, std::ostream& out) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out << prefix << line << "\n";
}

}  // namespace

void write_run(const std::string& dir, const Scenario& s, const std::vector<RunRow>& rows,
               const std::vector<RunFailure>& failures) {
  if (rows.empty()) throw Error("no mapper ran: " + (failures.empty() ? std::string("none given") : failures.front().error));
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir;
  const bool jobs = !s.jobs.empty();
  std::filesystem::remove(path / "failed.csv");
  if (!failures.empty())
    write_file_atomically((path / "failed.csv").string(), [&](std::ostream& out) {
      out << "replicate," << (jobs ? "job" : "mapper") << ",error\n";
      for (const RunFailure& f : failures) out << f.replicate << "," << csv_field(f.mapper) << "," << csv_field(f.error) << "\n";
    });
  write_file_atomically((path / "results.csv").string(), [&](std::ostream& out) {
    out << "replicate,seed," << (jobs ? "job," : "") << "mapper";
    for (const auto& [key, value] : rows.front().values) out << "," << key;
    out << "\n";
    for (const RunRow& row : rows) {
      out << row.replicate << "," << row.seed << "," << (jobs ? csv_field(row.job) + "," : "") << csv_field(row.mapper);
      for (const auto& [key, value] : row.values) out << "," << csv_number(value);
      out << "\n";
    }
  });
  write_file_atomically((path / "links.csv").string(), [&](std::ostream& out) {
    out << "replicate,mapper," << kLinksCsvColumns << "\n";
    for (const RunRow& row : rows)
      write_prefixed_lines(std::to_string(row.replicate) + "," + csv_field(row.mapper) + ",", row.links_csv, out);
  });
  std::filesystem::remove(path / "timeline.csv");
  if (std::any_of(rows.begin(), rows.end(), [](const RunRow& row) { return !row.timeline_csv.empty(); }))
    write_file_atomically((path / "timeline.csv").string(), [&](std::ostream& out) {
      out << "mapper," << kTimelineCsvColumns << "\n";
      for (const RunRow& row : rows) write_prefixed_lines(csv_field(row.mapper) + ",", row.timeline_csv, out);
    });
  write_file_atomically((path / "timings.csv").string(), [&](std::ostream& out) {
    out << "replicate," << (jobs ? "job," : "") << "mapper,map_seconds,sim_seconds\n";
    for (const RunRow& row : rows)
      out << row.replicate << "," << (jobs ? csv_field(row.job) + "," : "") << csv_field(row.mapper) << "," << format_number(row.map_seconds) << ","
          << format_number(row.sim_seconds) << "\n";
  });
  nlohmann::ordered_json mappers = nlohmann::ordered_json::object();  // per mapper, or per job
  for (const std::string& mapper : row_labels(s)) {
    if (std::none_of(rows.begin(), rows.end(), [&](const RunRow& row) { return row_label(row) == mapper; })) continue;
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (size_t k = 0; k < rows.front().values.size(); ++k) {
      std::vector<double> values;
      for (const RunRow& row : rows)
        if (row_label(row) == mapper) values.push_back(row.values[k].second);
      const Statistics st = summarise(values);  // of the rows where the column applies; null for none
      const auto number = [&](double v) { return st.n > 0 ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); };
      metrics[rows.front().values[k].first] = {{"n", st.n}, {"mean", number(st.mean)}, {"sd", number(st.sd)}, {"ci95", number(st.ci95)}};
    }
    mappers[mapper] = metrics;
  }
  std::filesystem::remove(path / "portfolio.csv");
  nlohmann::ordered_json portfolio = nlohmann::ordered_json::object();
  if (std::any_of(rows.begin(), rows.end(), [](const RunRow& row) { return !row.portfolio.candidates.empty(); })) {
    write_file_atomically((path / "portfolio.csv").string(), [&](std::ostream& out) {
      out << "replicate,mapper,candidate,objective,score,sim_makespan,chosen\n";
      for (const RunRow& row : rows)
        for (const PortfolioCandidate& c : row.portfolio.candidates)
          out << row.replicate << "," << csv_field(row.mapper) << "," << csv_field(c.name) << "," << row.portfolio.objective << ","
              << format_exact(c.score) << "," << (c.makespan >= 0 ? format_exact(c.makespan) : "") << "," << c.chosen << "\n";
    });
    for (const RunRow& row : rows) {
      if (row.portfolio.candidates.empty()) continue;
      const auto& candidates = row.portfolio.candidates;
      const auto winner = std::find_if(candidates.begin(), candidates.end(), [](const PortfolioCandidate& c) { return c.chosen; });
      const long simulated = std::count_if(candidates.begin(), candidates.end(), [](const PortfolioCandidate& c) { return c.makespan >= 0; });
      nlohmann::ordered_json entry{{"replicate", row.replicate}, {"objective", row.portfolio.objective},
                                   {"chosen", winner->name}, {"candidates", candidates.size()}, {"simulated", simulated}};
      // How much longer the objective's own first choice runs than the chosen placement.
      if (simulated > 0 && winner->makespan > 0) entry["first_choice_slowdown"] = candidates.front().makespan / winner->makespan;
      portfolio[row.mapper].push_back(entry);
    }
  }
  nlohmann::ordered_json correlation = nlohmann::ordered_json::object();
  if (!jobs)  // jobs run different workloads: their rows are no placements of one workload to rank
    for (const auto& [key, rho] : metric_correlations(rows)) correlation[key] = json_number(rho);
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (const RunFailure& f : failures) failed.push_back({{"replicate", f.replicate}, {"mapper", f.mapper}, {"error", f.error}});
  // The unit of each results.csv column (mappers/result_columns.h).
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  for (const auto& [key, value] : rows.front().values)
    if (const std::string unit = column_unit(key, s.workload_bytes()); !unit.empty()) units[key] = unit;
  const nlohmann::ordered_json summary{{"name", s.name},
                                       {"source", s.source},
                                       {"hash", document_hash(s.document)},
                                       {"replicates", s.replicates},
                                       {"seed", s.seed},
                                       {"model", s.simulate ? s.sim.model : "none"},
                                       {jobs ? "jobs" : "mappers", mappers},
                                       {"rank_correlation", correlation},
                                       {"portfolio", portfolio},
                                       {"failed", failed},
                                       {"scenario", yaml_to_json(s.document)},
                                       {"units", units}};
  write_file_atomically((path / "summary.json").string(), [&](std::ostream& out) { out << json_text(summary, 2) << "\n"; });
}

std::string run_table(const std::vector<RunRow>& rows) {
  std::vector<std::string> mappers;  // row labels: mappers, or jobs
  for (const RunRow& row : rows)
    if (std::find(mappers.begin(), mappers.end(), row_label(row)) == mappers.end()) mappers.push_back(row_label(row));
  struct Column {
    size_t key;
    std::string title;
    double scale = 1;
    std::vector<Statistics> per_mapper;
  };
  std::vector<Column> columns;
  // The declared columns of the run table (mappers/result_columns.h), bytes and times with their unit.
  for (const ResultColumn* shown : table_columns(&ResultColumn::run_table))
    for (size_t k = 0; k < rows.front().values.size(); ++k) {
      if (rows.front().values[k].first != shown->name) continue;
      Column column{k, shown->short_label + (shown->unit.rfind("B", 0) == 0 ? " (B)" : ""), 1, {}};
      double largest = 0;
      for (const std::string& mapper : mappers) {
        std::vector<double> values;
        for (const RunRow& row : rows)
          if (row_label(row) == mapper) values.push_back(row.values[k].second);
        column.per_mapper.push_back(summarise(values));
        largest = std::max(largest, std::abs(column.per_mapper.back().mean));
      }
      if (shown->unit == "s") {  // one unit per column
        const auto [unit, scale] = time_unit(largest);
        column.title += std::string(" (") + unit + ")";
        column.scale = scale;
      }
      columns.push_back(std::move(column));
    }
  std::ostringstream out;
  char cell[96];
  std::snprintf(cell, sizeof cell, "%-20s", rows.front().job.empty() ? "mapper" : "job");
  out << cell;
  for (const Column& column : columns) {
    std::snprintf(cell, sizeof cell, " %22s", column.title.c_str());
    out << cell;
  }
  out << "\n";
  for (size_t m = 0; m < mappers.size(); ++m) {
    std::snprintf(cell, sizeof cell, "%-20s", mappers[m].c_str());
    out << cell;
    for (const Column& column : columns) {
      const Statistics& st = column.per_mapper[m];
      char value[64];
      if (st.n == 0) std::snprintf(value, sizeof value, "n/a");  // the column applies to none of its rows
      else std::snprintf(value, sizeof value, "%.4g (%.2g)", st.mean * column.scale, st.sd * column.scale);
      std::snprintf(cell, sizeof cell, " %22s", value);
      out << cell;
    }
    out << "\n";
  }
  // How far each static metric can be trusted to rank placements, and what `best` chose.
  std::string trust;
  bool defined = false;
  for (const auto& [key, rho] : metric_correlations(rows))
    if (const ResultColumn* c = find_result_column(key); c && c->correlation && rows.front().job.empty()) {  // (jobs are no placements of one workload)
      trust += (trust.empty() ? "" : ", ") + c->short_label + " " + (std::isnan(rho) ? std::string("n/a") : format_number(rho, 2));
      defined = defined || !std::isnan(rho);
    }
  if (defined) out << "rank correlation with the simulated makespan (Spearman, across placements): " << trust << "\n";
  for (const std::string& mapper : mappers) {
    std::map<std::string, int> chosen;
    size_t candidates = 0, simulated = 0;
    for (const RunRow& row : rows)
      if (row.mapper == mapper)
        for (const PortfolioCandidate& c : row.portfolio.candidates) {
          if (c.chosen) ++chosen[c.name];
          ++candidates;
          simulated += c.makespan >= 0;
        }
    if (chosen.empty()) continue;
    long replicates = 0;
    std::string names;
    for (const auto& [name, count] : chosen) names += (names.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")", replicates += count;
    out << mapper << " chose " << names << " of " << candidates / replicates << " candidates per replicate, "
        << simulated / replicates << " simulated\n";
  }
  return out.str();
}

std::vector<std::pair<std::string, double>> metric_correlations(const std::vector<RunRow>& rows) {
  std::vector<std::pair<std::string, double>> out;
  if (rows.empty()) return out;
  const auto& keys = rows.front().values;
  const auto makespan = std::find_if(keys.begin(), keys.end(), [](const auto& kv) { return kv.first == "sim_makespan"; });
  if (makespan == keys.end()) return out;
  const size_t m = makespan - keys.begin();
  std::set<int> replicates;
  for (const RunRow& row : rows) replicates.insert(row.replicate);
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].first.rfind("sim_", 0) == 0) continue;
    double sum = 0;
    int defined = 0;
    for (int r : replicates) {
      std::vector<double> metric, time;
      for (const RunRow& row : rows)
        if (row.replicate == r) metric.push_back(row.values[k].second), time.push_back(row.values[m].second);
      const double rho = spearman(metric, time);
      if (!std::isnan(rho)) sum += rho, ++defined;
    }
    out.emplace_back(keys[k].first, defined ? sum / defined : std::nan(""));
  }
  return out;
}

std::string launch_file_path(const std::string& dir, const std::string& label, const std::string& format) {
  std::string tag;
  for (char c : label) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return (std::filesystem::path(dir) / (tag + "." + format)).string();
}

std::vector<std::string> write_run_launch_files(const std::string& dir, const std::vector<RunRow>& rows, const Network& network,
                                                const std::vector<std::string>& formats, const std::vector<std::string>& labels) {
  std::vector<std::string> written;
  for (const RunRow& row : rows) {
    if (row.replicate != 0 || row.placement.empty()) continue;
    if (!labels.empty() && std::find(labels.begin(), labels.end(), row_label(row)) == labels.end()) continue;
    const RankSites sites = rank_sites(row.placement, network, row.cores);
    for (const std::string& format : formats) {
      written.push_back(launch_file_path(dir, row_label(row), format));
      write_file_atomically(written.back(), [&](std::ostream& out) { write_launch_file(format, sites, out, written.back()); });
    }
  }
  return written;
}

}  // namespace mapsim
