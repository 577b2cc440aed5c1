#include "scenario/sweep_runner.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "mappers/result_columns.h"
#include "scenario/run.h"
#include "scenario/run_checkpoint.h"
#include "support/statistics.h"
#include "support/atomic_file.h"
#include "support/consumer_quoting.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/units.h"
#include "support/json_text.h"
#include "support/message.h"
#include "support/spec.h"

namespace mapsim {
namespace {

using Json = nlohmann::ordered_json;
using Outcomes = std::map<int, Json>;  // point index -> its point file

std::string points_folder(const Sweep& sweep) { return (std::filesystem::path(sweep.output) / "points").string(); }

std::string point_path(const Sweep& sweep, const SweepPoint& point) {
  return (std::filesystem::path(points_folder(sweep)) / (point.hash + ".json")).string();
}

Json point_header(const SweepPoint& point) {
  Json values = Json::object();
  for (const auto& [key, value] : point.values) values[key] = value;
  return Json{{"index", point.index}, {"hash", point.hash}, {"values", values}};
}

void write_point(const Sweep& sweep, const SweepPoint& point, const Json& outcome) {
  write_file_atomically(point_path(sweep, point), [&](std::ostream& out) { out << json_text(outcome) << "\n"; });
}

Json failed_point(const SweepPoint& point, const std::string& error) {
  Json j = point_header(point);
  j["status"] = "error";
  j["error"] = printable(error);
  return j;
}

// Why `j` is not the results of `point` (empty when it is): another point's, or rows that cannot be
// the point's scenario's (a mapper not in it, a row too many or missing, columns that do not fit).
std::string outcome_mismatch(const Json& j, const SweepPoint& point, const Scenario& scenario) {
  if (!j.is_object() || !j.contains("hash") || !j.contains("status")) return "not a point file";
  if (j["hash"] != point.hash) return "holds point " + printable(j["hash"].dump()) + ", not " + point.hash;
  if (j["status"] == "error") return j.at("error").is_string() ? "" : "its error is not text";
  if (j["status"] != "ok") return "its status is neither ok nor error";
  const std::vector<std::string> columns = j.at("columns").get<std::vector<std::string>>();
  if (std::string why = columns_mismatch(columns); !why.empty()) return why;
  std::vector<RowKey> keys;
  for (const Json& row : j.at("rows")) {
    if (!row.is_array() || row.size() != 3 + columns.size())
      return "a row has " + std::to_string(row.size()) + " cells, not " + std::to_string(3 + columns.size());
    if (!row[0].is_number_integer() || !row[1].is_number_unsigned() || !row[2].is_string())
      return "a row does not start with replicate, seed and mapper";
    for (size_t k = 3; k < row.size(); ++k)
      if (!row[k].is_number() && !row[k].is_null()) return "a row holds a value that is not a number or null";
    keys.push_back({row[0].get<long>(), row[1].get<uint64_t>(), row[2].get<std::string>(), false});
  }
  if (keys.empty()) return "it has no rows";  // a point where no mapper ran is an error
  for (const Json& f : j.at("failed")) {
    if (!f.is_array() || f.size() != 3 || !f[0].is_number_integer() || !f[1].is_string() || !f[2].is_string())
      return "a failure is not replicate, mapper and error";
    keys.push_back({f[0].get<long>(), 0, f[1].get<std::string>(), true});
  }
  return rows_mismatch(scenario, keys);
}

// Whether the point's file is there; a folder or a device in its place is an Error.
bool point_file_exists(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return false;
  if (!std::filesystem::is_regular_file(status))
    throw Error(path + ": is " + (std::filesystem::is_directory(status) ? "a folder" : "a device or pipe") +
                "; expected a point file (remove it to run the point again)");
  return true;
}

enum class PointFile { missing, damaged, read };

// The point's file: missing; damaged (it does not parse, or is not this point's: `why` says how); or
// read into `outcome`, which then carries the point's index and values in this sweep (a point
// shared with an older version of the sweep may have had others).
PointFile read_point(const Sweep& sweep, const SweepPoint& point, const Scenario& scenario, Json& outcome, std::string& why) {
  const std::string path = point_path(sweep, point);
  if (!point_file_exists(path)) return PointFile::missing;
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the point file (" + std::strerror(errno) + ")");
  try {
    outcome = Json::parse(in);
    why = outcome_mismatch(outcome, point, scenario);
  } catch (const Json::parse_error&) {
    why = "does not parse (truncated?)";
  } catch (const Json::exception&) {
    why = "lacks a field, or has one of the wrong type";
  }
  if (!why.empty()) {
    why = path + ": " + why;
    return PointFile::damaged;
  }
  const Json header = point_header(point);
  outcome["index"] = header["index"];
  outcome["values"] = header["values"];
  return PointFile::read;
}

// Damaged point files are said once on stderr (the first, and how many more), not one line each.
struct Damaged {
  std::string first;
  int more = 0;
  void add(const std::string& why) {
    if (first.empty()) first = why;
    else ++more;
  }
  void warn(const std::string& what_happens) const {
    if (!first.empty())
      spdlog::warn("{}; {}{}", first, what_happens,
                   more ? " (and " + std::to_string(more) + " more damaged point files)" : std::string());
  }
};

// summary.json: the unit of each results.csv column that has one (KEY_si, and the run's columns as
// mapsim run's summary.json names them); aggregate.csv's METRIC_mean, _sd and _ci95 have their metric's.
void write_units(const Sweep& sweep, const std::vector<std::string>& columns, const std::filesystem::path& dir) {
  const bool workload_bytes = sweep.scenario(sweep.point(0)).workload_bytes();
  Json units = Json::object();
  for (const std::string& key : sweep.varied_keys)
    if (sweep.si_keys.count(key)) units[key + "_si"] = sweep.si_keys.at(key);
  for (const std::string& c : columns)
    if (const ResultColumn* declared = find_result_column(c))
      if (const std::string unit = result_unit(*declared, workload_bytes); !unit.empty()) units[c] = unit;
  write_file_atomically((dir / "summary.json").string(), [&](std::ostream& out) { out << json_text(Json{{"units", units}}, 2) << "\n"; });
}

// results.csv, aggregate.csv, failed.csv and summary.json (units) from the outcomes at hand (in point order).
void write_tables(const Sweep& sweep, const Outcomes& outcomes) {
  std::vector<std::string> columns;
  for (const auto& [index, j] : outcomes)
    if (j["status"] == "ok")
      for (const auto& column : j["columns"])
        if (std::find(columns.begin(), columns.end(), column.get<std::string>()) == columns.end()) columns.push_back(column);
  // Where each of a point's own columns sits among all the sweep's columns.
  auto positions = [&](const Json& j) {
    std::vector<size_t> position;
    for (const auto& c : j["columns"]) position.push_back(std::find(columns.begin(), columns.end(), c) - columns.begin());
    return position;
  };
  // results.csv has a seed column per replicate: a varied `seed` (replicate 0's seed) is not repeated there.
  auto varied = [&](std::ostream& out, const Json& j, bool with_seed) {
    out << j["index"].get<int>();
    for (const std::string& key : sweep.varied_keys) {
      if (key == "seed" && !with_seed) continue;
      const std::string text = j["values"].value(key, "");
      out << "," << csv_field(text);
      double value = 0;
      std::string kind;
      if (sweep.si_keys.count(key)) out << "," << (parse_quantity(text, value, kind) ? format_exact(value) : "");
    }
  };
  const std::string label = sweep.scenario(sweep.point(0)).jobs.empty() ? "mapper" : "job";  // what a row stands for
  auto header = [&](bool with_seed) {
    std::string text = "point";
    for (const std::string& key : sweep.varied_keys)
      if (key != "seed" || with_seed)
        text += "," + csv_field(key) + (sweep.si_keys.count(key) ? "," + csv_field(key + "_si") : "");
    return text;
  };
  const std::filesystem::path dir = sweep.output;
  write_file_atomically((dir / "results.csv").string(), [&](std::ostream& out) {
    out << header(false) << ",replicate,seed," << label;
    for (const std::string& c : columns) out << "," << c;
    out << "\n";
    for (const auto& [index, j] : outcomes) {
      if (j["status"] != "ok") continue;
      const std::vector<size_t> position = positions(j);
      for (const auto& row : j["rows"]) {
        varied(out, j, false);
        out << "," << row[0].get<int>() << "," << row[1].get<uint64_t>() << "," << csv_field(row[2].get<std::string>());
        std::vector<std::string> cells(columns.size());
        for (size_t k = 0; k < position.size(); ++k) cells[position[k]] = csv_number(number_or_nan(row[3 + k]));
        for (const std::string& cell : cells) out << "," << cell;
        out << "\n";
      }
    }
  });
  write_file_atomically((dir / "aggregate.csv").string(), [&](std::ostream& out) {
    out << header(true) << "," << label << ",n";
    for (const std::string& c : columns) out << "," << c << "_mean," << c << "_sd," << c << "_ci95";
    out << "\n";
    for (const auto& [index, j] : outcomes) {
      if (j["status"] != "ok") continue;
      const std::vector<size_t> position = positions(j);
      std::vector<std::string> mappers;
      for (const auto& row : j["rows"])
        if (std::find(mappers.begin(), mappers.end(), row[2].get<std::string>()) == mappers.end()) mappers.push_back(row[2]);
      for (const std::string& mapper : mappers) {
        varied(out, j, true);
        std::vector<std::vector<double>> values(columns.size());
        long n = 0;
        for (const auto& row : j["rows"]) {
          if (row[2].get<std::string>() != mapper) continue;
          ++n;
          for (size_t k = 0; k < position.size(); ++k) values[position[k]].push_back(number_or_nan(row[3 + k]));
        }
        out << "," << csv_field(mapper) << "," << n;
        for (const auto& v : values) {
          const Statistics st = summarise(v);
          if (st.n == 0) {  // no such result at this point, or none that applies
            out << ",,,";
            continue;
          }
          out << "," << format_exact(st.mean) << "," << format_exact(st.sd) << "," << format_exact(st.ci95);
        }
        out << "\n";
      }
    }
  });
  write_units(sweep, columns, dir);
  // Whole points that failed (no replicate, no mapper), and single mappers of points that ran.
  write_file_atomically((dir / "failed.csv").string(), [&](std::ostream& out) {
    out << header(true) << ",hash,replicate,mapper,error\n";
    for (const auto& [index, j] : outcomes) {
      const std::string hash = j["hash"].get<std::string>();
      if (j["status"] != "ok") {
        varied(out, j, true);
        out << "," << hash << ",,," << csv_field(j["error"].get<std::string>()) << "\n";
        continue;
      }
      for (const auto& f : j.value("failed", Json::array())) {
        varied(out, j, true);
        out << "," << hash << "," << f[0].get<int>() << "," << csv_field(f[1].get<std::string>()) << ","
            << csv_field(f[2].get<std::string>()) << "\n";
      }
    }
  });
}

void count(const Json& outcome, SweepStatus& status) {
  if (outcome["status"] == "ok") ++status.done;
  else ++status.failed;
  status.mapper_failures += static_cast<int>(outcome.value("failed", Json::array()).size());
}

// "0-3,7,9-10" for Slurm's --array.
std::string index_ranges(const std::vector<int>& indexes) {
  std::string text;
  for (size_t i = 0; i < indexes.size();) {
    size_t j = i;
    while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(indexes[i]) + (j > i ? "-" + std::to_string(indexes[j]) : "");
    i = j + 1;
  }
  return text;
}

}  // namespace

bool run_point(const Sweep& sweep, const SweepPoint& point) {
  make_output_folder(sweep.output, "the sweep's results");
  make_output_folder(points_folder(sweep), "the sweep's point files");
  Json outcome = point_header(point);
  try {
    const Scenario scenario = sweep.scenario(point);
    RunOptions options;
    options.links = false;
    std::vector<RunFailure> failures;
    options.failures = &failures;
    const std::vector<RunRow> rows = run_scenario(scenario, options);
    if (rows.empty()) throw Error(failures.front().mapper + ": " + failures.front().error);
    Json failed = Json::array();
    for (const RunFailure& f : failures) failed.push_back({f.replicate, f.mapper, f.error});
    Json columns = Json::array(), table = Json::array(), timings = Json::array();
    for (const auto& [key, value] : rows.front().values) columns.push_back(key);
    for (const RunRow& row : rows) {
      Json cells{row.replicate, row.seed, row_label(row)};  // a multi-job scenario's rows: its jobs
      for (const auto& [key, value] : row.values) cells.push_back(value);
      table.push_back(cells);
      timings.push_back({row.map_seconds, row.sim_seconds});
    }
    outcome["status"] = "ok";
    outcome["columns"] = columns;
    outcome["rows"] = table;
    outcome["timings"] = timings;
    outcome["failed"] = failed;
  } catch (const std::exception& e) {
    outcome = failed_point(point, e.what());
  }
  write_point(sweep, point, outcome);
  return outcome["status"] == "ok";
}

SweepStatus run_sweep(const Sweep& sweep, const SweepOptions& options) {
  check_output_folder(sweep.output, "the sweep's results");
  check_output_folder(points_folder(sweep), "the sweep's point files");
  SweepStatus status;
  status.total = static_cast<int>(sweep.size);
  Outcomes outcomes;
  std::vector<size_t> pending;
  Damaged damaged;
  for_each_point(sweep, [&](const SweepPoint& point, const Scenario& scenario) {  // every point is checked before any runs
    Json outcome;
    std::string why;
    PointFile file = PointFile::missing;
    if (options.resume) file = read_point(sweep, point, scenario, outcome, why);
    else point_file_exists(point_path(sweep, point));  // a folder in its place is refused before any point runs
    if (file == PointFile::read && outcome["status"] == "ok") {
      outcomes[point.index] = outcome;
      ++status.skipped;
      ++status.done;
      return;
    }
    if (file == PointFile::damaged) damaged.add(why);
    pending.push_back(point.index);
  });
  damaged.warn("the point runs again");
  make_output_folder(points_folder(sweep), "the sweep's point files");
  const InterruptGuard interrupts;

  std::map<pid_t, SweepPoint> running;
  size_t next = 0;
  bool stopping = false;
  auto last_write = std::chrono::steady_clock::now();
  if (options.progress) options.progress(status);
  auto note_interrupt = [&] {  // a Ctrl-C or SIGTERM: start no point, end the running ones
    if (!InterruptGuard::interrupted() || stopping) return;
    stopping = true;
    status.interrupted = true;
    for (const auto& [pid, point] : running) kill(pid, SIGTERM);
  };
  while (next < pending.size() || !running.empty()) {
    note_interrupt();
    while (!stopping && next < pending.size() && static_cast<int>(running.size()) < std::max(1, options.jobs)) {
      SweepPoint point = sweep.point(pending[next++]);
      const pid_t parent = getpid();
      const pid_t pid = fork();
      if (pid < 0) throw Error(std::string("sweep: cannot fork a point process (") + std::strerror(errno) + ")");
      if (pid == 0) {
        restore_default_interrupts();
        prctl(PR_SET_PDEATHSIG, SIGTERM);  // a sweep killed outright (SIGKILL, OOM) leaves no point running
        if (getppid() != parent) _exit(1);
        bool ok = false;
        try {  // never back into the parent's code
          ok = run_point(sweep, point);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "mapsim: error: %s\n", printable(e.what()).c_str());
        }
        _exit(ok ? 0 : 1);
      }
      running[pid] = std::move(point);
    }
    if (running.empty()) break;
    int wait_status = 0;
    const pid_t pid = waitpid(-1, &wait_status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error("sweep: waitpid failed");
    }
    // A Ctrl-C to the group ends the point at once: its death can be reaped before the flag was seen.
    note_interrupt();
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint point = std::move(it->second);
    running.erase(it);
    Json outcome;
    std::string why;
    if (read_point(sweep, point, sweep.scenario(point), outcome, why) != PointFile::read) {
      if (stopping) continue;  // cut short by the interrupt: not done, not failed
      outcome = failed_point(point, WIFSIGNALED(wait_status)
                                        ? "the point's process died of signal " + std::to_string(WTERMSIG(wait_status))
                                        : "the point's process ended without writing its result" + (why.empty() ? "" : " (" + why + ")"));
      write_point(sweep, point, outcome);
    }
    count(outcome, status);
    outcomes[point.index] = outcome;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_write > std::chrono::seconds(1)) {
      write_tables(sweep, outcomes);
      last_write = now;
    }
    if (options.progress) options.progress(status);
  }
  write_tables(sweep, outcomes);
  return status;
}

SweepStatus merge_sweep(const Sweep& sweep) {
  check_output_folder(sweep.output, "the sweep's results");
  check_output_folder(points_folder(sweep), "the sweep's point files");
  SweepStatus status;
  status.total = static_cast<int>(sweep.size);
  Outcomes outcomes;
  Damaged damaged;
  for_each_point(sweep, [&](const SweepPoint& point, const Scenario& scenario) {
    Json outcome;
    std::string why;
    const PointFile file = read_point(sweep, point, scenario, outcome, why);
    if (file == PointFile::damaged) damaged.add(why);
    if (file != PointFile::read) return;
    count(outcome, status);
    outcomes[point.index] = outcome;
  });
  damaged.warn("not merged: its point counts as not run (run it again with --point or --resume)");
  make_output_folder(sweep.output, "the sweep's results");
  write_tables(sweep, outcomes);
  return status;
}

std::string emit_sweep_jobs(const Sweep& sweep, const std::string& format, const std::string& mapsim,
                            const std::vector<std::string>& assignments, bool resume) {
  one_of("--emit", format, {"slurm", "parallel"});
  check_output_folder(sweep.output, "the sweep's results");
  if (resume) check_output_folder(points_folder(sweep), "the sweep's point files");
  std::vector<int> indexes;
  Damaged damaged;
  for_each_point(sweep, [&](const SweepPoint& point, const Scenario& scenario) {
    Json outcome;
    std::string why;
    const PointFile file = resume ? read_point(sweep, point, scenario, outcome, why) : PointFile::missing;
    if (file == PointFile::damaged) damaged.add(why);
    if (!(file == PointFile::read && outcome["status"] == "ok")) indexes.push_back(point.index);
  });
  damaged.warn("its point is in the job list again");
  // Every text from input enters the script through its consumer's quoting (support/consumer_quoting.h).
  const std::string cwd = bash_word(std::filesystem::current_path().string(), "the working folder");
  const std::filesystem::path dir = std::filesystem::absolute(sweep.output);
  std::string command = bash_word(mapsim, "mapsim's path") + " sweep " +
                        bash_word(std::filesystem::absolute(sweep.source).string(), "the sweep file's path");
  command += " -o " + bash_word(dir.string(), "the sweep's output folder");
  for (const std::string& a : assignments) command += " --set " + bash_word(a, "--set");
  const std::string path = (dir / (format == "slurm" ? "sweep.slurm" : "jobs.txt")).string();
  std::string text;
  if (format == "parallel") {
    for (int i : indexes) text += parallel_job("cd " + cwd + " && " + command + " --point " + std::to_string(i));
  } else {
    const std::string logs = sbatch_filename(dir.string(), "the sweep's output folder") + "/logs/point-%a.log";
    text = "#!/bin/bash\n# mapsim sweep " + bash_word(sweep.name, "the sweep's name") + ": " + std::to_string(indexes.size()) +
           " of " + std::to_string(sweep.size) + " points, one per array task.\n# Submit: sbatch " + bash_word(path, "the script's path") +
           "\n# Then:   " + command + " --merge\n" + sbatch_directive("job-name", "mapsim-" + sweep.name, "the sweep's name") +
           "\n#SBATCH --array=" + (indexes.empty() ? "0" : index_ranges(indexes)) + "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n" +
           sbatch_directive("output", logs, "the sweep's output folder") + "\nset -euo pipefail\ncd " + cwd + "\nexec " + command +
           " --point \"$SLURM_ARRAY_TASK_ID\"\n";
  }
  make_output_folder((dir / "logs").string(), "the job array's logs");
  write_file_atomically(path, [&](std::ostream& out) { out << text; });
  return path;
}

}  // namespace mapsim
