#include "scenario/checkpoint_rows.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "mappers/core_placement.h"
#include "mappers/mapping.h"
#include "sim/report.h"
#include "support/error.h"
#include "support/units.h"

namespace mapsim {
namespace {

// `text`'s lines, each ended by '\n' (run_checkpoint.cpp has checked that, and the field counts).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

bool finite_number(const std::string& text, double* value = nullptr) {
  if (text.empty() || text.find_first_of(" \t") != std::string::npos) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v)) return false;
  if (value) *value = v;
  return true;
}

// Why a row's links.csv lines are not those of `routed`'s links (their kind, id, ends and bandwidth,
// then numbers), and, with optical circuits, circuits between its nodes after them; `channel_bytes`
// gets each switch channel's bytes.
std::string links_mismatch(const std::string& field, const std::string& text, const RoutedNetwork& routed, bool circuits,
                           std::vector<double>& channel_bytes) {
  const Network& net = routed.network();
  SimResult none;  // the lines' first five fields, as the run writes them
  none.channels.resize(net.num_channels());
  none.node_out.resize(net.num_nodes());
  none.node_in.resize(net.num_nodes());
  std::ostringstream expected_text;
  write_links_rows(none, routed, "", expected_text);
  const std::vector<std::string> expected = lines_of(expected_text.str()), given = lines_of(text);
  std::set<std::string> node_names;
  for (int n = 0; n < net.num_nodes(); ++n) node_names.insert(csv_field(net.node(n).name));
  if (given.size() < expected.size() || (!circuits && given.size() > expected.size()))
    return field + ": " + std::to_string(given.size()) + " lines; the network's links give " + std::to_string(expected.size());
  channel_bytes.assign(net.num_channels(), 0);
  for (size_t i = 0; i < given.size(); ++i) {
    const std::string at = field + " line " + std::to_string(i + 1);
    const std::vector<std::string> f = fields_of(given[i]);
    if (i < expected.size()) {
      const std::vector<std::string> e = fields_of(expected[i]);
      for (size_t k = 0; k < 5; ++k)
        if (f[k] != e[k]) return at + ": expected the link " + e[0] + "," + e[1] + "," + e[2] + "," + e[3] + "," + e[4] + " there";
    } else if (f[0] != "circuit" || f[1] != std::to_string(i - expected.size()) || !node_names.count(f[2]) ||
               !node_names.count(f[3])) {
      return at + ": expected a circuit between two of the network's nodes";
    }
    for (size_t k = i < expected.size() ? 5 : 4; k < f.size(); ++k)
      if (!finite_number(f[k], k == 5 && i < channel_bytes.size() ? &channel_bytes[i] : nullptr))
        return at + ": field " + std::to_string(k + 1) + " is not a number";
  }
  return "";
}

// Why a row's timeline.csv lines are not intervals of `ranks` ranks: rank, state (a word), start <= end.
std::string timeline_mismatch(const std::string& field, const std::string& text, int ranks) {
  const std::vector<std::string> lines = lines_of(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string> f = fields_of(lines[i]);
    const std::string at = field + " line " + std::to_string(i + 1);
    double rank = -1, start = 0, end = 0;
    if (!finite_number(f[0], &rank) || rank != std::floor(rank) || rank < 0 || rank >= ranks)
      return at + ": rank " + f[0] + " is not one of the job's 0.." + std::to_string(ranks - 1);
    if (f[1].empty() || f[1].find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789") != std::string::npos)
      return at + ": the state is not an action's name";
    if (!finite_number(f[2], &start) || !finite_number(f[3], &end) || end < start)
      return at + ": expected a start and an end time, in order";
  }
  return "";
}

// Why a row's numbers read back are not ones a run writes (JSON has no inf: a run's values are finite, or
// NaN -- null -- where a column does not apply).
std::string numbers_mismatch(const std::string& field, const RunRow& row) {
  for (const auto& [name, value] : row.values)
    if (std::isinf(value)) return field + ".values." + name + ": not a finite number";
  if (!(row.map_seconds >= 0) || !(row.sim_seconds >= 0) || !std::isfinite(row.map_seconds + row.sim_seconds))
    return field + ": map_seconds and sim_seconds must be times >= 0";
  return "";
}

std::unique_ptr<Scenario> mapping_only(const Scenario& s) {
  auto copy = std::make_unique<Scenario>(s);
  copy->simulate = copy->pattern_given = false;  // the mappers' view: no workload built
  copy->ocs.clear();
  copy->background.clear();
  return copy;
}

}  // namespace

CheckpointRows::CheckpointRows(const Scenario& scenario, const RunOptions& options) : scenario_(scenario), options_(options) {
  if (!scenario.traffic.empty()) return;  // rows without a placement: nothing to build
  if (scenario.jobs.empty()) mapping_only_.push_back(mapping_only(scenario));
  for (const ScenarioJob& job : scenario.jobs) mapping_only_.push_back(mapping_only(job.scenario));
  for (const auto& s : mapping_only_) pipelines_.push_back(std::make_unique<RunPipeline>(*s));
}

CheckpointRows::~CheckpointRows() = default;

std::string CheckpointRows::check(int replicate, std::vector<RunRow>& rows) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (std::string why = numbers_mismatch("rows." + std::to_string(i), rows[i]); !why.empty()) return why;
  if (scenario_.traffic.empty()) return scenario_.jobs.empty() ? check_single(replicate, rows) : check_jobs(replicate, rows);
  for (size_t i = 0; i < rows.size(); ++i)
    if (!rows[i].placement.empty() || !rows[i].cores.empty() || !rows[i].links_csv.empty() || !rows[i].timeline_csv.empty())
      return "rows." + std::to_string(i) + ": open-loop traffic places no ranks and writes no link or timeline lines";
  return "";
}

std::string CheckpointRows::check_single(int replicate, std::vector<RunRow>& rows) {
  const ReplicateParts& parts = pipelines_.front()->replicate(replicate);
  const RoutedNetwork& routed = *parts.routed;
  std::vector<std::vector<double>> loads(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    RunRow& row = rows[i];
    const std::string field = "rows." + std::to_string(i);
    try {
      check_placement(parts.problem, row.placement);
    } catch (const Error& e) {
      return field + ".placement: " + e.what();
    }
    row.cores = routed.network().node_insides.empty() ? std::vector<int>() : place_on_cores(parts.problem, row.placement);
    if (std::string why = links_mismatch(field + ".links_csv", row.links_csv, routed, !scenario_.ocs.empty(), loads[i]);
        !why.empty())
      return why;
    if (std::string why = timeline_mismatch(field + ".timeline_csv", row.timeline_csv, parts.graph->num_tasks()); !why.empty())
      return why;
  }
  if (options_.draw && replicate == 0) draw_rows(scenario_, parts, options_, rows, loads);
  return "";
}

std::string CheckpointRows::check_jobs(int replicate, std::vector<RunRow>& rows) {
  std::vector<int> ranks;
  for (size_t j = 0; j < pipelines_.size(); ++j) {
    if (j > 0) pipelines_[j]->share_network(*pipelines_.front());  // one machine, as run_jobs builds it
    ranks.push_back(pipelines_[j]->replicate(replicate).graph->num_tasks());
  }
  const Network& net = pipelines_.front()->replicate(replicate).routed->network();
  std::map<int, std::pair<size_t, int>> held;  // node -> (its job, ranks on it)
  for (size_t i = 0; i < rows.size(); ++i) {
    const RunRow& row = rows[i];
    const std::string field = "rows." + std::to_string(i);
    size_t j = 0;
    while (j < scenario_.jobs.size() && scenario_.jobs[j].name != row.job) ++j;
    if (j == scenario_.jobs.size()) return field + ".job: '" + row.job + "' is not one of the scenario's jobs";
    if (static_cast<int>(row.placement.size()) != ranks[j])
      return field + ".placement: " + std::to_string(row.placement.size()) + " ranks; job " + row.job + " has " +
             std::to_string(ranks[j]);
    for (size_t t = 0; t < row.placement.size(); ++t) {
      const int node = row.placement[t];
      const std::string at = field + ".placement." + std::to_string(t) + ": node " + std::to_string(node);
      if (node < 0 || node >= net.num_nodes()) return at + " is not one of the network's 0.." + std::to_string(net.num_nodes() - 1);
      const auto it = held.emplace(node, std::make_pair(j, 0)).first;
      if (it->second.first != j) return at + " is job " + scenario_.jobs[it->second.first].name + "'s";
      if (++it->second.second > scenario_.jobs[j].scenario.slots) return at + " holds more ranks than its slots";
    }
    if (!row.cores.empty() || !row.links_csv.empty() || !row.timeline_csv.empty())
      return field + ": a job's row has no cores, link or timeline lines";
  }
  return "";
}

}  // namespace mapsim
