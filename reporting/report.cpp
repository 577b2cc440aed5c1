#include "reporting/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "mappers/result_columns.h"
#include "reporting/csv_table.h"
#include "reporting/plot.h"
#include "support/statistics.h"
#include "sim/timeline.h"
#include "routing/export.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"
#include "support/units.h"
#include "support/json_text.h"
#include "topologies/network_factory.h"

namespace mapsim {
namespace {

namespace fs = std::filesystem;


std::string gp(const std::string& text) { return gnuplot_quote(text); }

// The <svg> element of a tool's output, without its XML prologue.
std::string svg_element(const std::string& svg) {
  const size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

// A column of the report's tables and figures (mappers/result_columns.h: those with a report position).
struct Metric {
  std::string key, label;
  bool time;  // seconds, shown in one time unit per figure or column
};

std::vector<Metric> report_metrics() {
  std::vector<Metric> metrics;
  for (const ResultColumn* c : table_columns(&ResultColumn::report)) metrics.push_back({c->name, c->label, c->unit == "s"});
  return metrics;
}

using Json = nlohmann::ordered_json;

// A results.csv column's words, for the rank-correlation table.
std::string metric_label(const std::string& key) {
  const ResultColumn* c = find_result_column(key);
  return c ? c->label : key;
}

// Objectives in seconds (shown in one time unit per table); `latency` (Gamma_C) weighs times by volumes.
bool time_objective(const std::string& key) { return key == "congestion" || key == "congestion_bound"; }

std::string kind_of(const Json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "text";
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  if (v.is_boolean()) return "true or false";
  return "null";
}

// summary.json as mapsim run writes it: every field the report reads has its type, so that a damaged
// or foreign file is one line naming the field, not a half-made page.
class SummaryCheck {
 public:
  explicit SummaryCheck(std::string path) : path_(std::move(path)) {}

  void check(const Json& s, bool run) const {
    if (!s.is_object()) throw Error(path_ + ": expected a JSON object (mapsim run's summary), got " + kind_of(s));
    for (const char* key : {"name", "source", "hash", "model"}) text(s, key, "");
    for (const char* key : {"replicates", "seed"}) whole(s, key, "");
    const std::string group = s.contains("jobs") ? "jobs" : "mappers";  // a multi-job run's rows are its jobs
    if (s.contains(group)) {
      const Json& mappers = s[group];
      expect(mappers.is_object(), group, "an object (" + group.substr(0, group.size() - 1) + " -> metrics)", mappers);
      for (const auto& [mapper, metrics] : mappers.items()) {
        const std::string where = group + "." + mapper;
        expect(metrics.is_object(), where, "an object (metric -> statistics)", metrics);
        for (const auto& [metric, st] : metrics.items()) {
          expect(st.is_object(), where + "." + metric, "an object (n, mean, sd, ci95)", st);
          for (const auto& [field, v] : st.items()) expect(v.is_number() || v.is_null(), where + "." + metric + "." + field, "a number", v);
        }
      }
    } else if (run) {
      throw Error(path_ + ": no \"mappers\" object; expected mapsim run's summary");
    }
    if (s.contains("rank_correlation")) {
      const Json& rho = s["rank_correlation"];
      expect(rho.is_object(), "rank_correlation", "an object (metric -> correlation or null)", rho);
      for (const auto& [metric, v] : rho.items())
        expect(v.is_null() || (v.is_number() && v.get<double>() >= -1 - 1e-9 && v.get<double>() <= 1 + 1e-9),
               "rank_correlation." + metric, "a correlation from -1 to 1, or null", v);
    }
    if (s.contains("portfolio")) {
      const Json& portfolio = s["portfolio"];
      expect(portfolio.is_object(), "portfolio", "an object (mapper -> list of replicates)", portfolio);
      for (const auto& [mapper, entries] : portfolio.items()) {
        expect(entries.is_array(), "portfolio." + mapper, "a list (one entry per replicate)", entries);
        for (size_t i = 0; i < entries.size(); ++i) {
          const std::string where = "portfolio." + mapper + "[" + std::to_string(i) + "]";
          const Json& e = entries[i];
          expect(e.is_object(), where, "an object (replicate, objective, chosen, ...)", e);
          for (const char* key : {"replicate", "objective", "chosen"})
            if (!e.contains(key)) throw Error(path_ + ": " + where + ": no \"" + key + "\"; expected mapsim run's summary");
          whole(e, "replicate", where + ".");
          whole(e, "candidates", where + ".");
          whole(e, "simulated", where + ".");
          text(e, "objective", where + ".");
          text(e, "chosen", where + ".");
          if (e.contains("first_choice_slowdown"))
            expect(e["first_choice_slowdown"].is_number(), where + ".first_choice_slowdown", "a number", e["first_choice_slowdown"]);
        }
      }
    }
    if (s.contains("failed")) {
      const Json& failed = s["failed"];
      expect(failed.is_array(), "failed", "a list", failed);
      for (size_t i = 0; i < failed.size(); ++i) {
        const std::string where = "failed[" + std::to_string(i) + "]";
        expect(failed[i].is_object(), where, "an object (replicate, mapper, error)", failed[i]);
        whole(failed[i], "replicate", where + ".");
        text(failed[i], "mapper", where + ".");
        text(failed[i], "error", where + ".");
      }
    }
  }

 private:
  void expect(bool ok, const std::string& where, const std::string& expected, const Json& got) const {
    if (!ok) throw Error(path_ + ": \"" + where + "\": expected " + expected + ", got " + kind_of(got));
  }
  void text(const Json& object, const char* key, const std::string& prefix) const {
    if (object.contains(key)) expect(object[key].is_string(), prefix + key, "text", object[key]);
  }
  void whole(const Json& object, const char* key, const std::string& prefix) const {
    if (object.contains(key)) expect(object[key].is_number_integer(), prefix + key, "a whole number", object[key]);
  }

  std::string path_;
};

// summary.json read whole: nesting beyond any summary's is refused as the parser meets it (a file of
// 50000 '[' is one line, not a deep recursion later).
Json read_summary(const std::string& path) {
  std::ifstream in = open_input(path, "summary file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(path + ": empty file; expected a JSON object (mapsim run's summary)");
  constexpr int kMaxDepth = 64;
  const auto depth_limit = [&](int depth, nlohmann::json::parse_event_t, Json&) {
    if (depth > kMaxDepth)
      throw Error(path + ": nested more than " + std::to_string(kMaxDepth) + " levels deep; expected mapsim run's summary");
    return true;
  };
  try {
    return Json::parse(text, depth_limit);
  } catch (const nlohmann::json::exception& e) {
    throw Error(path + ": not JSON" + json_parse_problem(e.what()));
  }
}

// A number cell of a table the report reads: the whole text (a NUL byte or trailing junk refused).
double number_cell(const CsvTable& table, size_t row, int column, bool finite = true) {
  const std::string& text = table.rows[row][column];
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || (finite && !std::isfinite(value)))
    throw Error(table.path + ":" + std::to_string(row + 2) + ": " + table.header[column] + " is " + excerpt(text) +
                "; expected a " + (finite ? "finite " : "") + "number");
  return value;
}

// The columns a table the report reads must have, else one line naming the file and them all.
void require_columns(const CsvTable& table, const std::vector<std::string>& names, const std::string& what) {
  for (const std::string& name : names)
    if (table.column(name) < 0) {
      std::string list;
      for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
      throw Error(table.path + ": no column '" + name + "'; expected " + what + " with the columns " + list);
    }
}

std::string cell(const Statistics& st, double scale) {
  std::string text = format_number(st.mean * scale, 4);
  if (st.n > 1) text += " ± " + format_number(st.ci95 * scale, 2);
  return text;
}

class Report {
 public:
  Report(std::string dir, const SvgRenderer& render) : dir_(std::move(dir)), render_(render) {}

  std::string build() {
    const fs::path dir = dir_;
    const bool sweep = fs::exists(dir / "aggregate.csv");
    if (!sweep && !(fs::exists(dir / "results.csv") && fs::exists(dir / "summary.json")))
      throw Error(dir_ + ": not a run or sweep directory (expected results.csv and summary.json, or aggregate.csv)");
    results_ = read_csv((dir / "results.csv").string());
    if (!sweep) require_columns(results_, {"replicate", "mapper"}, "mapsim run's results");
    if (fs::exists(dir / "summary.json")) {
      const std::string path = (dir / "summary.json").string();
      summary_ = read_summary(path);
      SummaryCheck(path).check(summary_, !sweep);
    }
    // Every table is read and checked before the page is made: a damaged one is an error, not a gap.
    std::optional<CsvTable> links, timeline, portfolio;
    if (fs::exists(dir / "links.csv")) links = read_links((dir / "links.csv").string());
    if (fs::exists(dir / "timeline.csv")) timeline = read_timeline((dir / "timeline.csv").string());
    if (!sweep && fs::exists(dir / "portfolio.csv")) portfolio = read_portfolio((dir / "portfolio.csv").string());
    name_ = summary_.value("name", dir.filename().string().empty() ? dir.parent_path().filename().string() : dir.filename().string());
    std::ostringstream body;
    body << "<h1>" << html_escape(name_) << "</h1>\n";
    if (sweep) sweep_sections(body);
    else run_sections(body, portfolio);
    if (links) load_sections(body, *links);
    if (timeline) timeline_section(body, *timeline);
    std::ostringstream page;
    page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mapsim report: " << html_escape(name_)
         << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em auto;padding:0 1em;max-width:1100px;color:#222}\n"
            "table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
            "th,td{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eef}\n"
            "td:first-child,th:first-child{text-align:left}\n"
            "figure{margin:1.5em 0;border:1px solid #ddd;padding:8px}figcaption{font-weight:bold;margin-bottom:6px}\n"
            "figure svg{max-width:100%;height:auto}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:85%}\n"
            ".tables{display:flex;flex-wrap:wrap;gap:0 2em}.tables table{margin:0.5em 0}caption{font-weight:bold;text-align:left;padding:4px 0}\n"
            "tr.chosen td{background:#dff3d8;font-weight:bold}th.t,td.t{text-align:left}td.c{font-family:monospace;text-align:left}\n"
            ".wide{overflow-x:auto;max-width:100%}.wide table{margin:0.5em 0}.wide td{white-space:nowrap}\n"
            "</style>\n</head>\n<body>\n"
         << body.str() << "<p><small>made by mapsim report from " << html_escape(dir_) << "; " << figures_
         << " figures</small></p>\n</body>\n</html>\n";
    return page.str();
  }

 private:
  void figure(std::ostream& out, const std::string& id, const std::string& caption, const std::string& program,
              const std::vector<std::string>& args, const std::string& script) {
    out << "<figure id=\"" << id << "\"><figcaption>" << html_escape(caption) << "</figcaption>\n"
        << svg_element(render_(program, args, script)) << "\n</figure>\n";
    ++figures_;
  }

  static std::string gnuplot_head(const std::string& title, int width = 720, int height = 380) {
    return "set terminal svg size " + std::to_string(width) + "," + std::to_string(height) +
           " dynamic noenhanced font 'Helvetica,11' background '#ffffff'\nset output\nset title " + gp(title) +
           "\nset grid\n";
  }

  // What a row stands for: its job in a multi-job run, else its mapper.
  static int label_column(const CsvTable& table) {
    return table.column("job") >= 0 ? table.column("job") : table.column("mapper");
  }

  std::vector<std::string> mappers(const CsvTable& table) const {
    std::vector<std::string> names;
    const int m = label_column(table);
    if (m >= 0)
      for (const auto& row : table.rows)
        if (std::find(names.begin(), names.end(), row[m]) == names.end()) names.push_back(row[m]);
    return names;
  }

  std::vector<const Metric*> present(const CsvTable& table, const std::string& suffix) const {
    std::vector<const Metric*> out;
    for (const Metric& m : metrics_)
      if (table.column(m.key + suffix) >= 0) out.push_back(&m);
    return out;
  }

  // Values of `column` per mapper (rows that have one).
  std::map<std::string, std::vector<double>> by_mapper(const CsvTable& table, int column) const {
    std::map<std::string, std::vector<double>> values;
    const int m = label_column(table);
    for (const auto& row : table.rows) {
      char* end = nullptr;
      const double v = std::strtod(row[column].c_str(), &end);
      if (!row[column].empty() && end == row[column].c_str() + row[column].size() && std::isfinite(v)) values[row[m]].push_back(v);
    }
    return values;
  }

  static CsvTable read_links(const std::string& path) {
    CsvTable links = read_csv(path);
    require_columns(links, {"replicate", "mapper", "kind", "from", "to", "bytes"}, "mapsim run's link loads");
    const int bytes = links.column("bytes");
    for (size_t r = 0; r < links.rows.size(); ++r)
      if (number_cell(links, r, bytes) < 0) throw Error(path + ":" + std::to_string(r + 2) + ": bytes is negative");
    return links;
  }

  static CsvTable read_timeline(const std::string& path) {
    CsvTable timeline = read_csv(path);
    require_columns(timeline, {"mapper", "rank", "state", "start", "end"}, "mapsim run --timeline's intervals");
    const int rank = timeline.column("rank"), start = timeline.column("start"), end = timeline.column("end");
    for (size_t r = 0; r < timeline.rows.size(); ++r) {
      const double value = number_cell(timeline, r, rank);
      if (value < 0 || value != std::floor(value) || value > 1e9)
        throw Error(path + ":" + std::to_string(r + 2) + ": rank is " + excerpt(timeline.rows[r][rank]) + "; expected a rank number");
      number_cell(timeline, r, start);
      number_cell(timeline, r, end);
    }
    return timeline;
  }

  static CsvTable read_portfolio(const std::string& path) {
    CsvTable portfolio = read_csv(path);
    require_columns(portfolio, {"replicate", "mapper", "candidate", "objective", "score", "sim_makespan", "chosen"},
                    "the candidates best tried");
    const int replicate = portfolio.column("replicate"), score = portfolio.column("score"),
              makespan = portfolio.column("sim_makespan"), chosen = portfolio.column("chosen");
    for (size_t r = 0; r < portfolio.rows.size(); ++r) {
      const auto& row = portfolio.rows[r];
      const double rep = number_cell(portfolio, r, replicate);
      if (rep < 0 || rep != std::floor(rep) || rep > 1e9)
        throw Error(path + ":" + std::to_string(r + 2) + ": replicate is " + excerpt(row[replicate]) + "; expected a replicate number");
      number_cell(portfolio, r, score, false);  // a candidate that cannot run may score inf
      if (!row[makespan].empty() && number_cell(portfolio, r, makespan) < 0)
        throw Error(path + ":" + std::to_string(r + 2) + ": sim_makespan is negative");
      if (row[chosen] != "0" && row[chosen] != "1")
        throw Error(path + ":" + std::to_string(r + 2) + ": chosen is " + excerpt(row[chosen]) + "; expected 0 or 1");
    }
    return portfolio;
  }

  // summary.json's rank_correlation: how well each static metric orders the placements as their
  // simulated run times do.
  void correlation_section(std::ostream& out) const {
    if (!summary_.contains("rank_correlation") || summary_["rank_correlation"].empty()) return;
    out << "<h2 id=\"rank-correlation\">How well each static metric ranks placements by simulated run time</h2>\n"
        << "<p>Spearman's rank correlation of each metric with the simulated makespan across the placements of a "
           "replicate, averaged over the replicates: 1, the metric orders the placements as their run times do; 0, "
           "no relation; below 0, the reverse order.</p>\n"
        << "<div class=\"wide\"><table id=\"rank-correlation-table\"><tr><th>static metric</th><th class=\"t\">column</th><th>rank correlation</th></tr>\n";
    for (const auto& [key, rho] : summary_["rank_correlation"].items())
      out << "<tr><td>" << html_escape(metric_label(key)) << "</td><td class=\"c\">" << html_escape(key) << "</td><td>"
          << (rho.is_null() ? std::string("n/a: equal for every placement") : format_number(rho.get<double>(), 3)) << "</td></tr>\n";
    out << "</table></div>\n";
  }

  // What `best` tried: summary.json's portfolio (per replicate: objective, choice, candidates,
  // simulated) and portfolio.csv's candidates ranked by the objective, with their simulated makespans.
  void portfolio_section(std::ostream& out, const std::optional<CsvTable>& candidates) const {
    const bool summary = summary_.contains("portfolio") && !summary_["portfolio"].empty();
    if (!summary && (!candidates || candidates->rows.empty())) return;
    out << "<h2 id=\"portfolio\">What best tried</h2>\n<p>A portfolio mapper ranks its candidate placements by an objective "
           "computed without simulation, simulates the first few on the workload and keeps the fastest.</p>\n";
    if (summary) {
      out << "<div class=\"wide\"><table id=\"portfolio-summary\"><tr><th>mapper</th><th>replicate</th><th class=\"t\">objective</th><th>candidates</th>"
             "<th>simulated</th><th class=\"t\">chosen</th><th>first choice's run time / chosen's</th></tr>\n";
      for (const auto& [mapper, entries] : summary_["portfolio"].items())
        for (const Json& e : entries) {
          out << "<tr><td>" << html_escape(mapper) << "</td><td>" << e["replicate"].get<long long>() << "</td><td class=\"t\">"
              << html_escape(e["objective"].get<std::string>()) << "</td><td>"
              << (e.contains("candidates") ? std::to_string(e["candidates"].get<long long>()) : "") << "</td><td>"
              << (e.contains("simulated") ? std::to_string(e["simulated"].get<long long>()) : "") << "</td>"
              << "<td class=\"t\">" << html_escape(e["chosen"].get<std::string>()) << "</td><td>"
              << (e.contains("first_choice_slowdown") ? format_number(e["first_choice_slowdown"].get<double>(), 4) : "") << "</td></tr>\n";
        }
      out << "</table></div>\n";
    }
    if (!candidates || candidates->rows.empty()) return;
    const CsvTable& t = *candidates;
    const int replicate = t.column("replicate"), mapper = t.column("mapper"), name = t.column("candidate"),
              objective = t.column("objective"), score = t.column("score"), makespan = t.column("sim_makespan"),
              chosen = t.column("chosen");
    std::vector<std::pair<std::string, std::string>> groups;  // (mapper, replicate) in file order
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> rows;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::pair<std::string, std::string> key{t.rows[r][mapper], t.rows[r][replicate]};
      if (!rows.count(key)) groups.push_back(key);
      rows[key].push_back(r);
    }
    constexpr int kShown = 4;  // replicates per mapper in full
    out << "<p>The candidates of each replicate in the order of the objective (score: lower is better), with the "
           "simulated makespan of those simulated (blank: not simulated); the chosen one is highlighted.</p>\n<div class=\"tables\">\n";
    std::map<std::string, int> shown, hidden;
    for (const auto& key : groups) {
      if (shown[key.first]++ >= kShown) {
        ++hidden[key.first];
        continue;
      }
      std::vector<size_t> order = rows[key];
      const auto rank_key = [&](size_t r) {  // nan last, like inf
        const double v = std::strtod(t.rows[r][score].c_str(), nullptr);
        return std::isnan(v) ? HUGE_VAL : v;
      };
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank_key(a) < rank_key(b); });
      const std::string obj = t.rows[order.front()][objective];
      double largest_score = 0, largest_time = 0;
      for (size_t r : order) {
        const double v = std::strtod(t.rows[r][score].c_str(), nullptr);
        if (std::isfinite(v)) largest_score = std::max(largest_score, std::abs(v));
        if (!t.rows[r][makespan].empty()) largest_time = std::max(largest_time, std::strtod(t.rows[r][makespan].c_str(), nullptr));
      }
      const auto score_unit = time_objective(obj) ? time_unit(largest_score) : std::pair<const char*, double>{"", 1};
      const auto time = time_unit(largest_time);
      out << "<table class=\"portfolio-candidates\"><caption>" << html_escape(key.first) << ", replicate " << html_escape(key.second)
          << "</caption>\n<tr><th>#</th><th class=\"t\">candidate</th><th>" << html_escape(obj) << (time_objective(obj) ? std::string(" (") + score_unit.first + ")" : "")
          << "</th><th>makespan (" << time.first << ")</th><th></th></tr>\n";
      for (size_t i = 0; i < order.size(); ++i) {
        const auto& row = t.rows[order[i]];
        const double v = std::strtod(row[score].c_str(), nullptr);
        const bool is_chosen = row[chosen] == "1";
        out << "<tr" << (is_chosen ? " class=\"chosen\"" : "") << "><td>" << i + 1 << "</td><td class=\"t\">" << html_escape(row[name]) << "</td><td>"
            << (std::isfinite(v) ? format_number(v * score_unit.second, 4) : html_escape(row[score])) << "</td><td>"
            << (row[makespan].empty() ? "" : format_number(std::strtod(row[makespan].c_str(), nullptr) * time.second, 4)) << "</td><td>"
            << (is_chosen ? "chosen" : "") << "</td></tr>\n";
      }
      out << "</table>\n";
    }
    out << "</div>\n";
    for (const auto& [m, count] : hidden)
      out << "<p>" << html_escape(m) << ": " << count << " more replicate(s) in portfolio.csv.</p>\n";
  }

  void run_sections(std::ostream& out, const std::optional<CsvTable>& portfolio) {
    out << "<h2>Scenario</h2>\n<p>" << html_escape(summary_.value("source", "")) << ": " << summary_.value("replicates", 0)
        << " replicate(s), seed " << summary_.value("seed", 0) << ", model " << html_escape(summary_.value("model", "")) << "</p>\n";
    if (summary_.contains("scenario")) out << "<pre>" << html_escape(json_text(summary_["scenario"], 2)) << "</pre>\n";
    if (summary_.contains("failed") && !summary_["failed"].empty()) {
      out << "<p>Failed:</p><ul>";
      for (const auto& f : summary_["failed"])
        out << "<li>" << html_escape(f.value("mapper", "")) << " (replicate " << f.value("replicate", 0) << "): "
            << html_escape(f.value("error", "")) << "</li>";
      out << "</ul>\n";
    }
    const std::vector<std::string> names = mappers(results_);
    const std::vector<const Metric*> metrics = present(results_, "");
    const std::string per = results_.column("job") >= 0 ? "job" : "mapper";  // several jobs: a row per job
    out << "<h2>Results per " << per << "</h2>\n<p>Mean ± half-width of the 95 % confidence interval over the replicates.</p>\n"
        << "<div class=\"wide\"><table id=\"mappers\"><tr><th>" << per << "</th><th>n</th>";
    std::vector<std::map<std::string, Statistics>> stats;
    std::vector<std::pair<const char*, double>> units;
    for (const Metric* m : metrics) {
      std::map<std::string, Statistics> per;
      double largest = 0;
      for (const auto& [mapper, values] : by_mapper(results_, results_.column(m->key))) {
        per[mapper] = summarise(values);
        largest = std::max(largest, std::abs(per[mapper].mean));
      }
      units.push_back(m->time ? time_unit(largest) : std::pair<const char*, double>{"", 1});
      stats.push_back(per);
      out << "<th>" << html_escape(m->label) << (m->time ? std::string(" (") + units.back().first + ")" : "") << "</th>";
    }
    out << "</tr>\n";
    for (const std::string& mapper : names) {
      out << "<tr><td>" << html_escape(mapper) << "</td><td>" << (stats.empty() ? 0 : stats.front()[mapper].n) << "</td>";
      for (size_t k = 0; k < metrics.size(); ++k) out << "<td>" << cell(stats[k][mapper], units[k].second) << "</td>";
      out << "</tr>\n";
    }
    out << "</table></div>\n";
    correlation_section(out);
    out << "<h2>Figures</h2>\n";
    const bool simulated = results_.column("sim_makespan") >= 0;
    const bool traffic = results_.column("traffic_accepted") >= 0;
    const std::vector<std::string> shown = traffic     ? std::vector<std::string>{"traffic_accepted", "traffic_latency_mean"}
                                           : simulated ? std::vector<std::string>{"sim_makespan", "sim_avg_latency"}
                                                       : std::vector<std::string>{"weighted_cardinality", "max_link_load"};
    for (size_t k = 0; k < metrics.size(); ++k) {
      if (std::find(shown.begin(), shown.end(), metrics[k]->key) == shown.end()) continue;
      const std::string unit = metrics[k]->time ? std::string(" (") + units[k].first + ")" : "";
      std::ostringstream s;
      s << gnuplot_head(std::string(metrics[k]->label) + " per " + per) << "set ylabel " << gp(metrics[k]->label + unit)
        << "\nset style fill solid 0.6 border -1\nset boxwidth 0.6\nset yrange [0:*]\nset xrange [-0.6:" << names.size() - 0.4
        << "]\nset xtics rotate by -30 (";
      for (size_t i = 0; i < names.size(); ++i) s << (i ? ", " : "") << gp(names[i]) << " " << i;
      s << ")\n$D << EOD\n";
      for (size_t i = 0; i < names.size(); ++i) {
        const Statistics& st = stats[k][names[i]];
        s << i << " " << format_exact(st.mean * units[k].second) << " " << format_exact(st.ci95 * units[k].second) << "\n";
      }
      s << "EOD\nplot $D using 1:2:3 with boxerrorbars linecolor rgb '#4a7bd0' notitle\n";
      figure(out, std::string("fig-") + metrics[k]->key, std::string(metrics[k]->label) + " per " + per + " (mean, 95 % CI)",
             "gnuplot", {}, s.str());
    }
    portfolio_section(out, portfolio);
  }

  void sweep_sections(std::ostream& out) {
    const fs::path dir = dir_;
    const CsvTable aggregate = read_csv((dir / "aggregate.csv").string());
    if (aggregate.header.front() != "point")
      throw Error(aggregate.path + ":1: starts with " + excerpt(aggregate.header.front()) +
                  "; expected mapsim sweep's aggregate table (point, the varied keys, mapper, n, METRIC_mean, ...)");
    const std::string label = aggregate.column("job") >= 0 ? "job" : "mapper";  // several jobs: a row per job
    require_columns(aggregate, {"point", label, "n"}, "mapsim sweep's aggregate table");
    // The varied keys sit between "point" and "mapper" (their _si companions left out).
    std::vector<std::string> keys;
    for (size_t c = 1; c < aggregate.header.size() && aggregate.header[c] != label; ++c)
      if (aggregate.header[c].size() < 3 || aggregate.header[c].compare(aggregate.header[c].size() - 3, 3, "_si") != 0)
        keys.push_back(aggregate.header[c]);
    std::map<std::string, std::vector<std::string>> values;
    for (const std::string& key : keys)
      for (const auto& row : aggregate.rows) {
        auto& list = values[key];
        const std::string& v = row[aggregate.column(key)];
        if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
      }
    out << "<h2>Sweep</h2>\n<p>" << aggregate.rows.size() << " point x mapper rows; varied:</p><ul>";
    for (const std::string& key : keys) {
      out << "<li>" << html_escape(key) << ": ";
      for (size_t i = 0; i < values[key].size(); ++i) out << (i ? ", " : "") << html_escape(values[key][i]);
      out << "</li>";
    }
    out << "</ul>\n";
    const std::vector<const Metric*> metrics = present(aggregate, "_mean");
    for (size_t r = 0; r < aggregate.rows.size(); ++r) {  // every number shown is one
      const double n = number_cell(aggregate, r, aggregate.column("n"));
      if (n < 0 || n != std::floor(n))
        throw Error(aggregate.path + ":" + std::to_string(r + 2) + ": n is " + excerpt(aggregate.rows[r][aggregate.column("n")]) +
                    "; expected a count");
      for (const Metric* m : metrics)
        for (const char* suffix : {"_mean", "_ci95"}) {
          const int c = aggregate.column(m->key + std::string(suffix));
          if (c >= 0 && !aggregate.rows[r][c].empty()) number_cell(aggregate, r, c, false);
        }
    }
    out << "<h2>Results per point and " << label << "</h2>\n<p>Mean ± half-width of the 95 % confidence interval.</p>\n"
        << "<div class=\"wide\"><table id=\"points\"><tr><th>point</th>";
    for (const std::string& key : keys) out << "<th>" << html_escape(key) << "</th>";
    out << "<th>" << label << "</th><th>n</th>";
    // One unit per time column, from the largest mean in it, named in the header (as the run table does).
    std::vector<std::pair<const char*, double>> units;
    for (const Metric* m : metrics) {
      double largest = 0;
      const int c = aggregate.column(m->key + std::string("_mean"));
      for (const auto& row : aggregate.rows)
        if (!row[c].empty()) largest = std::max(largest, std::abs(std::strtod(row[c].c_str(), nullptr)));
      units.push_back(m->time ? time_unit(largest) : std::pair<const char*, double>{"", 1});
      out << "<th>" << html_escape(m->label) << (m->time ? std::string(" (") + units.back().first + ")" : "") << "</th>";
    }
    out << "</tr>\n";
    for (const auto& row : aggregate.rows) {
      out << "<tr><td>" << html_escape(row[0]) << "</td>";
      for (const std::string& key : keys) out << "<td>" << html_escape(row[aggregate.column(key)]) << "</td>";
      out << "<td>" << html_escape(row[aggregate.column(label)]) << "</td><td>" << html_escape(row[aggregate.column("n")]) << "</td>";
      for (size_t k = 0; k < metrics.size(); ++k) {
        const Metric* m = metrics[k];
        const std::string& mean = row[aggregate.column(m->key + std::string("_mean"))];
        const int ci = aggregate.column(m->key + std::string("_ci95"));
        if (mean.empty()) {  // no such result at this point
          out << "<td></td>";
          continue;
        }
        Statistics st;
        st.mean = std::strtod(mean.c_str(), nullptr);
        st.ci95 = ci >= 0 ? std::strtod(row[ci].c_str(), nullptr) : 0;
        st.n = std::strtol(row[aggregate.column("n")].c_str(), nullptr, 10);
        out << "<td>" << cell(st, units[k].second) << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</table></div>\n<h2>Figures</h2>\n";
    const std::string y = aggregate.column("sim_makespan_mean") >= 0 ? "sim_makespan" : "weighted_cardinality";
    for (const std::string& key : keys) {
      if (values[key].size() < 2) continue;
      PlotOptions o;
      o.x = key;
      o.y = y;
      o.by = label;
      for (const std::string& other : keys)
        if (other != key) o.where.push_back(other + "=" + values[other].front());
      const PlotData data = collect_plot((dir / "aggregate.csv").string(), o);
      std::string caption = y + " against " + key + " per " + label;
      for (const std::string& w : o.where) caption += ", " + w;
      figure(out, "fig-sweep-" + std::to_string(figures_), caption, "gnuplot", {}, gnuplot_script(data, o, "report.svg"));
    }
  }

  // Link loads of replicate 0: CDFs per switch level and a picture per mapper on one scale.
  void load_sections(std::ostream& out, const CsvTable& links) {
    const int rep = links.column("replicate"), mapper = links.column("mapper"), kind = links.column("kind"),
              from = links.column("from"), to = links.column("to"), bytes = links.column("bytes");
    if (rep < 0 || mapper < 0 || kind < 0 || from < 0 || to < 0 || bytes < 0) return;
    // Switch levels: 0 for switches with compute nodes, then hops away from the nearest of them.
    std::map<std::string, int> level;
    std::map<std::string, std::set<std::string>> adjacent;
    std::vector<std::string> frontier;
    for (const auto& row : links.rows) {
      if (row[rep] != "0") continue;
      if (row[kind] == "nic-out" && level.emplace(row[to], 0).second) frontier.push_back(row[to]);
      if (row[kind] == "link") adjacent[row[from]].insert(row[to]), adjacent[row[to]].insert(row[from]);
    }
    for (size_t i = 0; i < frontier.size(); ++i)
      for (const std::string& next : adjacent[frontier[i]])
        if (level.emplace(next, level[frontier[i]] + 1).second) frontier.push_back(next);
    std::map<std::string, std::map<std::string, std::vector<double>>> loads;  // level name -> mapper -> bytes per channel
    std::map<std::string, std::map<std::pair<std::string, std::string>, double>> link_load;  // mapper -> switch pair -> busier direction
    double largest = 0;
    for (const auto& row : links.rows) {
      if (row[rep] != "0") continue;
      const double b = std::strtod(row[bytes].c_str(), nullptr);
      std::string name = "node links";
      if (row[kind] == "link") {
        const int low = std::min(level.count(row[from]) ? level[row[from]] : 99, level.count(row[to]) ? level[row[to]] : 99);
        const int high = std::max(level.count(row[from]) ? level[row[from]] : 99, level.count(row[to]) ? level[row[to]] : 99);
        name = "switch links, levels " + std::to_string(low) + "-" + std::to_string(high);
        auto key = std::minmax(row[from], row[to]);
        double& l = link_load[row[mapper]][{key.first, key.second}];
        l = std::max(l, b);
        largest = std::max(largest, b);
      }
      loads[name][row[mapper]].push_back(b);
    }
    const bool simulated = results_.column("sim_makespan") >= 0;
    const std::string unit = simulated ? "bytes" : "routed volume";
    out << "<h2>Link loads (replicate 0)</h2>\n<p>Per directed channel: " << unit
        << ". Switch levels count hops from the switches that hold compute nodes.</p>\n";
    for (const auto& [name, per_mapper] : loads) {
      // Curves often coincide (mappers that load a level alike): each has its own colour, dash pattern,
      // width (the first widest, drawn underneath) and markers at staggered points, and its legend
      // entry names the curve it equals.
      double top = 0;
      for (const auto& entry : per_mapper)
        for (double v : entry.second) top = std::max(top, v);
      const auto [load_unit_name, factor] = load_unit(top, simulated);
      std::ostringstream s;
      s << gnuplot_head("link loads: " + name + " (CDF)") << "set xlabel "
        << gp(simulated ? std::string("bytes per channel (") + load_unit_name + ")" : unit + " per channel")
        << "\nset ylabel 'fraction of channels'\nset yrange [0:1.05]\nset key bottom right\n";
      std::vector<std::pair<std::string, std::vector<double>>> curves;
      for (const auto& [m, values] : per_mapper) {
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        curves.emplace_back(m, std::move(sorted));
      }
      const size_t count = curves.size();
      for (size_t k = 0; k < count; ++k) {
        const std::vector<double>& sorted = curves[k].second;
        const size_t step = std::max<size_t>(1, sorted.size() / 8), phase = k * step / count;
        s << "$S" << k << " << EOD\n";
        for (size_t i = 0; i < sorted.size(); ++i)
          s << format_exact(sorted[i] * factor) << " " << format_exact(static_cast<double>(i + 1) / sorted.size()) << "\n";
        s << "EOD\n$P" << k << " << EOD\n";
        for (size_t i = phase; i < sorted.size(); i += step)
          s << format_exact(sorted[i] * factor) << " " << format_exact(static_cast<double>(i + 1) / sorted.size()) << "\n";
        s << "EOD\n";
      }
      s << "plot ";
      for (size_t k = 0; k < count; ++k) {
        std::string title = curves[k].first;
        for (size_t e = 0; e < k; ++e)
          if (curves[e].second == curves[k].second) {
            title += " (= " + curves[e].first + ")";
            break;
          }
        const std::string style = "linecolor " + std::to_string(k % 8 + 1) + " dashtype " + std::to_string(k % 5 + 1);
        const std::string width = format_number(std::min(6.0, 1.5 + 1.5 * (count - 1 - k)), 3);
        s << (k ? ", " : "") << "$S" << k << " using 1:2 with steps linewidth " << width << " " << style << " notitle, $P" << k
          << " using 1:2 with points pointtype " << (k % 6 + 4) << " pointsize 1.2 " << style << " notitle, NaN with linespoints linewidth "
          << width << " pointtype " << (k % 6 + 4) << " pointsize 1.2 " << style << " title " << gp(title);
      }
      s << "\n";
      figure(out, "fig-load-" + std::to_string(figures_), "Link-load distribution: " + name, "gnuplot", {}, s.str());
    }
    if (link_load.empty() || link_load.begin()->second.size() > 2000) return;  // a picture of that many links says little
    const std::optional<Network> network = network_of(links);
    for (const auto& [m, per_link] : link_load) {
      std::ostringstream dot;
      if (network) {  // drawn as mapsim run --draw draws it: tiers, groups or a grid, one scale, the same unit
        std::vector<double> load(network->num_channels(), 0);
        for (const auto& row : links.rows)
          if (row[rep] == "0" && row[mapper] == m && row[kind] == "link")
            load[std::strtol(row[links.column("id")].c_str(), nullptr, 10)] = std::strtod(row[bytes].c_str(), nullptr);
        LoadPicture picture;
        picture.title = m;
        picture.bytes = simulated;
        picture.scale = largest;
        picture.per_switch = true;
        export_load_dot(*network, load, {}, picture, dot);
      } else {
        dot << "graph loads {\n  graph [layout=neato, overlap=false, fontname=\"sans\"];\n"
            << "  node [shape=box, style=filled, fillcolor=lightsteelblue, fontname=\"sans\", fontsize=9];\n";
        for (const auto& [pair, load] : per_link) {
          const double x = largest > 0 ? load / largest : 0;
          dot << "  " << graphviz_quote(pair.first) << " -- " << graphviz_quote(pair.second) << " [color=\"" << (x > 0 ? load_colour(x) : "gray80")
              << "\", penwidth=" << format_number(1 + 7 * x, 3) << ", tooltip=" << graphviz_quote(format_load(load, simulated)) << "];\n";
        }
        dot << "}\n";
      }
      figure(out, "fig-network-" + std::to_string(figures_),
             m + ": switch links coloured green (idle) to red and widened by the " + unit + " of their busier direction, "
             "on one scale for every mapper (red: " + format_load(largest, simulated) + ")",
             "dot", {"-Tsvg"}, dot.str());
    }
  }

  // The network of the run, rebuilt from summary.json's network spec when it is a generator's (not a
  // file) and its switch names and channels are those of links.csv; none otherwise.
  std::optional<Network> network_of(const CsvTable& links) const {
    if (!summary_.contains("scenario") || !summary_["scenario"].is_object()) return std::nullopt;
    const auto& scenario = summary_["scenario"];
    if (!scenario.contains("network") || !scenario["network"].is_string()) return std::nullopt;
    const std::string spec = scenario["network"].get<std::string>();
    if (spec.rfind("file:", 0) == 0 || spec.rfind("ibnet:", 0) == 0) return std::nullopt;
    const int rep = links.column("replicate"), kind = links.column("kind"), id = links.column("id"), from = links.column("from"),
              to = links.column("to");
    if (id < 0) return std::nullopt;
    try {
      Network net = make_network(spec);
      for (const auto& row : links.rows) {
        if (row[rep] != "0" || row[kind] != "link") continue;
        char* end = nullptr;
        const long c = std::strtol(row[id].c_str(), &end, 10);
        if (row[id].empty() || *end || c < 0 || c >= net.num_channels() || net.switch_at(net.channel_source(static_cast<int>(c))).name != row[from] ||
            net.switch_at(net.channel_target(static_cast<int>(c))).name != row[to])
          return std::nullopt;
      }
      return net;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  // Compute (green), point-to-point waits (red) and collective waits (blue) of up to 64 ranks.
  void timeline_section(std::ostream& out, const CsvTable& timeline) {
    const int mapper = timeline.column("mapper"), rank = timeline.column("rank"), state = timeline.column("state"),
              start = timeline.column("start"), end = timeline.column("end");
    if (mapper < 0 || rank < 0 || state < 0 || start < 0 || end < 0) return;
    out << "<h2>Per-rank timeline (replicate 0)</h2>\n";
    for (const std::string& m : mappers(timeline)) {
      double last = 0;
      std::ostringstream data[3];
      long shown = 0, highest = 0;
      for (const auto& row : timeline.rows) {
        const long r = std::strtol(row[rank].c_str(), nullptr, 10);
        if (row[mapper] != m || r < 0 || r >= 64 || shown >= 20000) continue;
        const double a = std::strtod(row[start].c_str(), nullptr), b = std::strtod(row[end].c_str(), nullptr);
        last = std::max(last, b);
        const StateKind kind = state_kind(row[state]);
        if (kind == StateKind::Other) continue;
        const int k = kind == StateKind::Compute ? 0 : kind == StateKind::PointToPointWait ? 1 : 2;
        data[k] << format_exact((a + b) / 2) << " " << r << " " << format_exact((b - a) / 2) << " 0.4\n";
        highest = std::max(highest, r);
        ++shown;
      }
      if (data[0].str().empty() && data[1].str().empty() && data[2].str().empty()) continue;  // none of its first 64 ranks
      const auto [unit, scale] = time_unit(last);
      long tick = 1;  // whole ranks from 0 (at the top), at most 16 ticks
      while (highest / tick > 16) tick *= 2;
      std::ostringstream s;
      s << gnuplot_head(m + ": what each rank does", 900, 420) << "set xlabel " << gp(std::string("simulated time (") + unit + ")")
        << "\nset ylabel 'rank'\nset yrange [" << format_number(highest + 0.5) << ":-0.5]\nset ytics 0," << tick << ","
        << highest << "\nset format y '%.0f'\nset mytics 1\nset key outside top center horizontal\n";
      const char* names[] = {"compute", "point-to-point wait", "collective wait"};
      const char* colours[] = {"#33b233", "#d94d4d", "#4d66d9"};
      for (int k = 0; k < 3; ++k) s << "$S" << k << " << EOD\n" << data[k].str() << "EOD\n";
      s << "plot ";
      bool first = true;
      for (int k = 0; k < 3; ++k)
        if (!data[k].str().empty())
          s << (std::exchange(first, false) ? "" : ", ") << "$S" << k << " using ($1*" << format_exact(scale) << "):2:($3*" << format_exact(scale)
          << "):4 with boxxyerror fillstyle solid 0.8 noborder linecolor rgb '" << colours[k] << "' title " << gp(names[k]);
      s << "\n";
      figure(out, "fig-timeline-" + std::to_string(figures_), m + ": per-rank timeline (first 64 ranks)", "gnuplot", {}, s.str());
    }
  }

  std::string dir_;
  const SvgRenderer& render_;
  CsvTable results_;
  nlohmann::ordered_json summary_ = nlohmann::ordered_json::object();
  const std::vector<Metric> metrics_ = report_metrics();
  std::string name_;
  int figures_ = 0;
};

}  // namespace

std::string html_report(const std::string& dir, const SvgRenderer& render) { return Report(dir, render).build(); }

}  // namespace mapsim
