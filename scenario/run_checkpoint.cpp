#include "scenario/run_checkpoint.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "scenario/checkpoint_rows.h"
#include "sim/report.h"
#include "sim/timeline.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/json_text.h"
#include "support/message.h"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

fs::path partial_dir(const std::string& dir) { return fs::path(dir) / "partial"; }

std::string kind_of(const fs::file_status& status) {
  return fs::is_regular_file(status) ? "a file" : fs::is_directory(status) ? "a folder" : "a device or pipe";
}

Json row_json(const RunRow& row) {
  Json j{{"replicate", row.replicate}, {"seed", row.seed},         {"mapper", row.mapper},
         {"values", row.values},       {"map_seconds", row.map_seconds}, {"sim_seconds", row.sim_seconds},
         {"placement", row.placement}, {"links_csv", row.links_csv}, {"timeline_csv", row.timeline_csv}};
  if (!row.job.empty()) j["job"] = row.job;
  if (!row.cores.empty()) j["cores"] = row.cores;
  return j;
}

RunRow json_row(const Json& j) {
  RunRow row;
  row.replicate = j.at("replicate");
  row.seed = j.at("seed");
  row.mapper = j.at("mapper");
  row.job = j.value("job", "");
  for (const Json& value : j.at("values"))  // [name, number], or [name, null] where it does not apply
    row.values.emplace_back(value.at(0).get<std::string>(), number_or_nan(value.at(1)));
  row.map_seconds = j.at("map_seconds");
  row.sim_seconds = j.at("sim_seconds");
  row.placement = j.at("placement").get<Placement>();
  row.links_csv = j.at("links_csv");
  row.timeline_csv = j.at("timeline_csv");  // (cores and pictures are made again: CheckpointRows)
  return row;
}

std::vector<std::string> value_names(const RunRow& row) {
  std::vector<std::string> names;
  for (const auto& [name, value] : row.values) names.push_back(name);
  return names;
}

// Whether each line of `text` (a row's links.csv or timeline.csv lines) has the fields of `header`, unquoted.
bool lines_fit(const std::string& text, const std::string& header) {
  const long fields = std::count(header.begin(), header.end(), ',');
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) return false;
    if (std::count(text.begin() + start, text.begin() + end, ',') != fields ||
        text.find_first_of("\"\r", start) < end)
      return false;
    start = end + 1;
  }
  return true;
}

// Why checkpoint `j` cannot be replicate r of the scenario (empty when it can); `columns` are the
// value names of the checkpoints accepted before (empty: none yet).
std::string checkpoint_mismatch(const Json& j, const Scenario& scenario, int r, RunCheckpoint& out,
                                std::vector<std::string>& columns, std::set<std::string>& dropped, CheckpointRows& fields) {
  if (j.at("replicate") != r) return "holds replicate " + j.at("replicate").dump() + ", not " + std::to_string(r);
  std::vector<RunRow> rows;
  std::vector<RunFailure> failures;
  std::vector<RowKey> keys;
  for (const Json& row : j.at("rows")) {
    rows.push_back(json_row(row));
    keys.push_back({rows.back().replicate, rows.back().seed, row_label(rows.back()), false});
    if (rows.back().replicate != r) return "holds a row of replicate " + std::to_string(rows.back().replicate);
    if (!lines_fit(rows.back().links_csv, kLinksCsvColumns) || !lines_fit(rows.back().timeline_csv, kTimelineCsvColumns))
      return "a row's links or timeline lines do not have their columns";
  }
  for (const Json& f : j.at("failures")) {
    failures.push_back({r, f.at("mapper"), printable(f.at("error").get<std::string>())});
    keys.push_back({r, 0, failures.back().mapper, true});
  }
  if (std::string why = rows_mismatch(scenario, keys, r, dropped); !why.empty()) return why;
  if (!rows.empty()) {
    const std::vector<std::string> names = value_names(rows.front());
    if (std::string why = columns_mismatch(names); !why.empty()) return why;
    for (const RunRow& row : rows)
      if (value_names(row) != names || (!columns.empty() && names != columns)) return "its rows' columns differ";
    columns = names;
  }
  if (std::string why = fields.check(r, rows); !why.empty()) return why;
  for (RunRow& row : rows) out.rows.push_back(std::move(row));
  for (const RunFailure& f : failures) dropped.insert(f.mapper);  // may be left out of the next replicates
  out.failures.insert(out.failures.end(), failures.begin(), failures.end());
  out.replicates.insert(r);
  return "";
}

}  // namespace

void save_replicate(const std::string& dir, const Scenario& scenario, int replicate, const std::vector<RunRow>& rows,
                    const std::vector<RunFailure>& failures) {
  make_output_folder(partial_dir(dir).string(), "the checkpoints of the run's finished replicates");
  Json j{{"hash", document_hash(scenario.document)}, {"replicate", replicate}, {"rows", Json::array()}, {"failures", Json::array()}};
  for (const RunRow& row : rows) j["rows"].push_back(row_json(row));
  for (const RunFailure& f : failures) j["failures"].push_back({{"mapper", f.mapper}, {"error", f.error}});
  const std::string path = (partial_dir(dir) / ("replicate-" + std::to_string(replicate) + ".json")).string();
  write_file_atomically(path, [&](std::ostream& out) { out << json_text(j) << "\n"; });
}

RunCheckpoint load_checkpoint(const std::string& dir, const Scenario& scenario, const RunOptions& options) {
  RunCheckpoint checkpoint;
  std::error_code ec;
  if (!fs::exists(fs::status(partial_dir(dir), ec))) return checkpoint;
  check_output_folder(partial_dir(dir).string(), "the checkpoints of an interrupted run (remove it, or run without --resume)");
  const std::string hash = document_hash(scenario.document);
  std::vector<std::string> columns;
  std::set<std::string> dropped;  // mappers that failed in a replicate kept
  std::string damaged;  // the first checkpoint that is run again, and why
  int more = 0;
  std::unique_ptr<CheckpointRows> fields;  // built for the first checkpoint of this scenario
  for (int r = 0; r < scenario.replicates; ++r) {
    const std::string path = (partial_dir(dir) / ("replicate-" + std::to_string(r) + ".json")).string();
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) continue;
    if (!fs::is_regular_file(status))
      throw Error(path + ": is " + kind_of(status) + "; expected a checkpoint file (remove it to run replicate " +
                  std::to_string(r) + " again)");
    std::ifstream in(path);
    if (!in) throw Error(path + ": cannot read the checkpoint (" + std::strerror(errno) + ")");
    std::string why;
    try {
      const Json j = Json::parse(in);
      if (j.at("hash") != hash) continue;  // another scenario's: run again
      if (!fields) fields = std::make_unique<CheckpointRows>(scenario, options);
      why = checkpoint_mismatch(j, scenario, r, checkpoint, columns, dropped, *fields);
    } catch (const Json::parse_error&) {
      why = "does not parse (truncated?)";
    } catch (const Json::exception&) {
      why = "lacks a field, or has one of the wrong type";
    }
    if (why.empty()) continue;
    if (damaged.empty()) damaged = path + ": " + why + "; replicate " + std::to_string(r) + " runs again";
    else ++more;
  }
  if (!damaged.empty())  // once, not per file
    spdlog::warn("{}{}", damaged, more ? " (and " + std::to_string(more) + " more with damaged checkpoints)" : "");
  return checkpoint;
}

void remove_checkpoint(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(partial_dir(dir), ec);
  if (ec && ec != std::errc::not_a_directory)  // under a file: no checkpoints to remove
    throw Error(partial_dir(dir).string() + ": cannot remove the checkpoints (" + ec.message() + ")");
}

void check_output_folder(const std::string& dir, const std::string& for_what) {
  if (dir.empty()) throw Error("expected a folder for " + for_what + ", got an empty name");
  fs::path path = fs::path(dir).lexically_normal();
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();  // "out/"
  std::error_code ec;
  for (fs::path at = path; !at.empty(); at = at.parent_path()) {
    const fs::file_status status = fs::status(at, ec);
    if (fs::is_directory(status)) return;
    if (fs::exists(status))
      throw Error(dir + ": " + (at == path ? "" : at.string() + " ") + "is " + kind_of(status) +
                  ", not a folder; expected a folder for " + for_what);
    if (at == at.parent_path()) break;
  }
}

void make_output_folder(const std::string& dir, const std::string& for_what) {
  check_output_folder(dir, for_what);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(dir + ": cannot make the folder (" + ec.message() + "); expected a folder for " + for_what);
}

std::string rows_mismatch(const Scenario& s, const std::vector<RowKey>& rows, long replicate,
                          const std::set<std::string>& dropped) {
  const std::vector<std::string> labels = row_labels(s);  // the mappers, or a multi-job scenario's jobs
  std::map<std::pair<long, size_t>, bool> taken;  // (replicate, index in labels) -> it failed
  std::pair<long, size_t> last{-1, 0};
  // Failures name the mapper asked for; a row the mapper that ran (optical circuits' CP policy runs default as metis).
  for (const bool failures : {true, false})
    for (const RowKey& row : rows) {
      if (row.failure != failures) continue;
      const std::string which = "replicate " + std::to_string(row.replicate);
      if (row.replicate < 0 || row.replicate >= s.replicates)
        return which + " is not one of the scenario's 0.." + std::to_string(s.replicates - 1);
      if (!row.failure && row.seed != s.replicate_seed(static_cast<int>(row.replicate)))
        return which + " has seed " + std::to_string(row.seed) + ", not " +
               std::to_string(s.replicate_seed(static_cast<int>(row.replicate)));
      bool known = false, placed = false;
      for (size_t m = 0; m < labels.size() && !placed; ++m) {
        const std::string& mapper = labels[m];
        if (mapper != row.mapper && !(!row.failure && !s.ocs.empty() && mapper == "default" && row.mapper == "metis")) continue;
        known = true;
        if (taken.count({row.replicate, m})) continue;
        if (!row.failure && std::make_pair(row.replicate, m) < last) return which + ": its rows are out of order";
        taken[{row.replicate, m}] = row.failure;
        if (!row.failure) last = {row.replicate, m};
        placed = true;
      }
      if (!known) return "mapper '" + row.mapper + "' is not one of the scenario's";
      if (!placed) return "mapper '" + row.mapper + "' is in " + which + " twice";
    }
  if (replicate >= 0) {
    for (size_t m = 0; m < labels.size(); ++m)
      if (!taken.count({replicate, m}) && !dropped.count(labels[m]))
        return "mapper '" + labels[m] + "' has no row in replicate " + std::to_string(replicate);
    return "";
  }
  for (size_t m = 0; m < labels.size(); ++m) {
    long r = 0;
    while (r < s.replicates && taken.count({r, m})) ++r;
    const bool dropped = r > 0 && r < s.replicates && taken[{r - 1, m}];  // failed, then left out
    for (long later = r; later < s.replicates; ++later)
      if (!dropped || taken.count({later, m}))
        return "mapper '" + labels[m] + "' has no row in replicate " + std::to_string(r);
  }
  return "";
}

std::string columns_mismatch(const std::vector<std::string>& columns) {
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c];
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
                            std::string::npos)
      return "column " + std::to_string(c) + " is not a metric's name";
    if (std::find(columns.begin(), columns.begin() + c, name) != columns.begin() + c)
      return "column '" + name + "' is given twice";
  }
  return "";
}

}  // namespace mapsim
