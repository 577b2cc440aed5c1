#include "scenario/sweep_runner.h"

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "scenario/run.h"
#include "scenario/statistics.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/units.h"
#include "support/json_text.h"
#include "support/message.h"

namespace mapsim {
namespace {

using Json = nlohmann::ordered_json;
using Outcomes = std::map<int, Json>;  // point index -> its point file

std::string point_path(const Sweep& sweep, const SweepPoint& point) {
  return (std::filesystem::path(sweep.output) / "points" / (point.hash + ".json")).string();
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

// The point's file if it exists and belongs to this point.
bool load_point(const Sweep& sweep, const SweepPoint& point, Json& outcome) {
  std::ifstream in(point_path(sweep, point));
  if (!in) return false;
  try {
    outcome = Json::parse(in);
  } catch (const Json::exception&) {
    return false;  // not ours or damaged: the point runs again
  }
  return outcome.value("hash", "") == point.hash && outcome.contains("status");
}

// results.csv, aggregate.csv and failed.csv from the outcomes at hand (in point order).
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
  auto header = [&](bool with_seed) {
    std::string text = "point";
    for (const std::string& key : sweep.varied_keys)
      if (key != "seed" || with_seed)
        text += "," + csv_field(key) + (sweep.si_keys.count(key) ? "," + csv_field(key + "_si") : "");
    return text;
  };
  const std::filesystem::path dir = sweep.output;
  write_file_atomically((dir / "results.csv").string(), [&](std::ostream& out) {
    out << header(false) << ",replicate,seed,mapper";
    for (const std::string& c : columns) out << "," << c;
    out << "\n";
    for (const auto& [index, j] : outcomes) {
      if (j["status"] != "ok") continue;
      const std::vector<size_t> position = positions(j);
      for (const auto& row : j["rows"]) {
        varied(out, j, false);
        out << "," << row[0].get<int>() << "," << row[1].get<uint64_t>() << "," << csv_field(row[2].get<std::string>());
        std::vector<std::string> cells(columns.size());
        for (size_t k = 0; k < position.size(); ++k) cells[position[k]] = format_exact(row[3 + k].get<double>());
        for (const std::string& cell : cells) out << "," << cell;
        out << "\n";
      }
    }
  });
  write_file_atomically((dir / "aggregate.csv").string(), [&](std::ostream& out) {
    out << header(true) << ",mapper,n";
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
          for (size_t k = 0; k < position.size(); ++k) values[position[k]].push_back(row[3 + k].get<double>());
        }
        out << "," << csv_field(mapper) << "," << n;
        for (const auto& v : values) {
          if (v.empty()) {
            out << ",,,";
            continue;
          }
          const Statistics st = summarise(v);
          out << "," << format_exact(st.mean) << "," << format_exact(st.sd) << "," << format_exact(st.ci95);
        }
        out << "\n";
      }
    }
  });
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

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
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
  std::filesystem::create_directories(std::filesystem::path(sweep.output) / "points");
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
      Json cells{row.replicate, row.seed, row.mapper};
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
  std::filesystem::create_directories(std::filesystem::path(sweep.output) / "points");
  SweepStatus status;
  status.total = static_cast<int>(sweep.points.size());
  Outcomes outcomes;
  std::vector<const SweepPoint*> pending;
  for (const SweepPoint& point : sweep.points) {
    Json outcome;
    if (options.resume && load_point(sweep, point, outcome) && outcome["status"] == "ok") {
      outcomes[point.index] = outcome;
      ++status.skipped;
      ++status.done;
    } else {
      pending.push_back(&point);
    }
  }
  const InterruptGuard interrupts;

  std::map<pid_t, const SweepPoint*> running;
  size_t next = 0;
  bool stopping = false;
  auto last_write = std::chrono::steady_clock::now();
  if (options.progress) options.progress(status);
  while (next < pending.size() || !running.empty()) {
    if (InterruptGuard::interrupted() && !stopping) {
      stopping = true;
      status.interrupted = true;
      for (const auto& [pid, point] : running) kill(pid, SIGTERM);
    }
    while (!stopping && next < pending.size() && static_cast<int>(running.size()) < std::max(1, options.jobs)) {
      const SweepPoint* point = pending[next++];
      const pid_t pid = fork();
      if (pid < 0) throw Error("sweep: cannot fork a point process");
      if (pid == 0) {
        restore_default_interrupts();
        _exit(run_point(sweep, *point) ? 0 : 1);
      }
      running[pid] = point;
    }
    if (running.empty()) break;
    int wait_status = 0;
    const pid_t pid = waitpid(-1, &wait_status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error("sweep: waitpid failed");
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint& point = *it->second;
    running.erase(it);
    Json outcome;
    if (!load_point(sweep, point, outcome)) {
      if (stopping) continue;  // cut short by the interrupt: not done, not failed
      outcome = failed_point(point, WIFSIGNALED(wait_status)
                                        ? "the point's process died of signal " + std::to_string(WTERMSIG(wait_status))
                                        : "the point's process ended without writing its result");
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
  SweepStatus status;
  status.total = static_cast<int>(sweep.points.size());
  Outcomes outcomes;
  for (const SweepPoint& point : sweep.points) {
    Json outcome;
    if (!load_point(sweep, point, outcome)) continue;
    count(outcome, status);
    outcomes[point.index] = outcome;
  }
  std::filesystem::create_directories(sweep.output);
  write_tables(sweep, outcomes);
  return status;
}

std::string emit_sweep_jobs(const Sweep& sweep, const std::string& format, const std::string& mapsim,
                            const std::vector<std::string>& assignments, bool resume) {
  if (format != "slurm" && format != "parallel") throw Error("--emit: expected slurm or parallel, got '" + format + "'");
  std::vector<int> indexes;
  for (const SweepPoint& point : sweep.points) {
    Json outcome;
    if (!(resume && load_point(sweep, point, outcome) && outcome["status"] == "ok")) indexes.push_back(point.index);
  }
  const std::string cwd = std::filesystem::current_path().string();
  std::string command = shell_quote(mapsim) + " sweep " + shell_quote(std::filesystem::absolute(sweep.source).string());
  const std::filesystem::path dir = std::filesystem::absolute(sweep.output);
  command += " -o " + shell_quote(dir.string());
  for (const std::string& a : assignments) command += " --set " + shell_quote(a);
  std::filesystem::create_directories(dir / "logs");
  const std::string path = (dir / (format == "slurm" ? "sweep.slurm" : "jobs.txt")).string();
  write_file_atomically(path, [&](std::ostream& out) {
    if (format == "parallel") {
      for (int i : indexes) out << "cd " << shell_quote(cwd) << " && " << command << " --point " << i << "\n";
      return;
    }
    out << "#!/bin/bash\n# mapsim sweep '" << sweep.name << "': " << indexes.size() << " of " << sweep.points.size()
        << " points, one per array task.\n# Submit: sbatch " << path << "\n# Then:   " << command << " --merge\n"
        << "#SBATCH --job-name=mapsim-" << sweep.name << "\n#SBATCH --array=" << (indexes.empty() ? "0" : index_ranges(indexes))
        << "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=" << (dir / "logs" / "point-%a.log").string()
        << "\nset -euo pipefail\ncd " << shell_quote(cwd) << "\nexec " << command << " --point \"$SLURM_ARRAY_TASK_ID\"\n";
  });
  return path;
}

}  // namespace mapsim
