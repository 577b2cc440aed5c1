#include "mappers/result_columns.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "support/error.h"

namespace mapsim {
namespace {

using A = Applies;
using B = Better;

// name, label, short label, unit, volume, description, better, applies, run table, compare, report, correlation.
std::vector<ResultColumn>& table() {
  static std::vector<ResultColumn> columns = {
      {"weighted_cardinality", "weighted cardinality", "weighted card.", "weight x hops", false, "edge weight x switch distance d, summed over the process graph's edges (moh2001)", B::lower, A::always, 10, 10, 10, true},
      {"cardinality", "cardinality", "cardinality", "hops", false, "mean switch distance d over the edges (moh2010; the mean Hamming distance on a hypercube)", B::lower, A::always, 20, 20, 20, false},
      {"hop_bytes", "hop-bytes", "hop-bytes", "B x links", true, "bytes x links crossed (node links included), summed over the messages", B::lower, A::always, 30, 30, 30, true},
      {"dilation", "dilation", "dilation", "hops", false, "the largest switch distance over the edges", B::lower, A::always, 0, 40, 0, false},
      {"max_link_load", "max link load (static)", "max link load", "B", true, "bytes routed over the busiest directed switch-to-switch link, without simulating", B::lower, A::always, 40, 50, 40, true},
      {"max_link_messages", "max link messages", "max link messages", "count", false, "edges routed over the busiest directed switch-to-switch link (OMARS' max link usage)", B::lower, A::always, 0, 0, 0, false},
      {"max_nic_load", "max NIC load", "max NIC load", "B", true, "bytes routed over the busiest node link (injection or ejection)", B::lower, A::always, 0, 0, 0, false},
      {"load_variance", "load variance", "load var.", "tasks^2", false, "variance of the tasks per allocated node (antonio1994)", B::lower, A::always, 0, 60, 0, false},
      {"total_communication", "total communication", "total communication", "weight", false, "the edge weights summed", B::neither, A::always, 0, 0, 0, false},
      {"network_traffic", "network traffic", "network traffic", "weight", false, "the weights of the edges whose tasks sit on different nodes", B::lower, A::always, 0, 0, 0, false},
      {"gamma_c", "Gamma_C", "Gamma_C", "weight x s", false, "edge weight x zero-load latency, summed (Kramer & Muhlenbein eq. 1)", B::lower, A::always, 0, 0, 0, false},
      {"gamma_l", "Gamma_L", "Gamma_L", "tasks^2", false, "variance of the processor loads (Kramer & Muhlenbein eq. 2)", B::lower, A::always, 0, 0, 0, false},
      {"zero_load_latency", "zero-load latency", "0-load lat.", "s", false, "t_s + d t_p + (d+1) t_r of the routes, no contention, averaged over the edges", B::lower, A::always, 60, 70, 50, true},
      {"congestion", "congestion", "congestion", "s", false, "the workload's phases, each timed by its busiest port, summed", B::lower, A::always, 0, 0, 0, true},
      {"congestion_bound", "congestion bound", "congestion bound", "s", false, "the busiest port's time over the job: a lower bound on the makespan", B::lower, A::always, 80, 80, 0, true},
      // The simulation's numbers (sim/report.cpp's summary, flattened with a sim_ prefix).
      {"sim_makespan", "makespan", "sim. makespan", "s", false, "simulated run time: until the last rank finished (several jobs: the job's, from its start)", B::lower, A::model, 90, 0, 60},
      {"sim_messages", "messages", "sim. messages", "count", false, "messages sent", B::neither, A::model},
      {"sim_bytes", "bytes", "sim. bytes", "B", false, "bytes sent (several jobs: by the job, in its alone run)", B::neither, A::model},
      {"sim_avg_latency", "mean message latency", "sim. latency", "s", false, "mean message latency, from the send to the data's delivery", B::lower, A::model, 70, 0, 90},
      {"sim_latency_p50", "median message latency", "sim. p50 latency", "s", false, "median message latency", B::lower, A::model},
      {"sim_latency_p99", "p99 message latency", "sim. p99 latency", "s", false, "99th percentile of the message latencies", B::lower, A::model, 0, 0, 100},
      {"sim_latency_max", "longest message latency", "sim. max latency", "s", false, "the longest message latency", B::lower, A::model},
      {"sim_neighbour_latency_mean", "neighbour latency", "neighbour lat.", "s", false, "mean latency of the messages to neighbour partners", B::lower, A::distant},
      {"sim_neighbour_latency_p50", "neighbour latency p50", "neighbour p50", "s", false, "median latency of the messages to neighbour partners", B::lower, A::distant},
      {"sim_neighbour_latency_p99", "neighbour latency p99", "neighbour p99", "s", false, "99th percentile of the neighbour messages' latencies", B::lower, A::distant},
      {"sim_neighbour_latency_max", "neighbour latency max", "neighbour max", "s", false, "the longest neighbour message latency", B::lower, A::distant},
      {"sim_distant_latency_mean", "distant latency", "distant lat.", "s", false, "mean latency of the messages to random distant partners", B::lower, A::distant},
      {"sim_distant_latency_p50", "distant latency p50", "distant p50", "s", false, "median latency of the messages to distant partners", B::lower, A::distant},
      {"sim_distant_latency_p99", "distant latency p99", "distant p99", "s", false, "99th percentile of the distant messages' latencies", B::lower, A::distant},
      {"sim_distant_latency_max", "distant latency max", "distant max", "s", false, "the longest distant message latency", B::lower, A::distant},
      {"sim_zero_load_latency", "zero-load latency (simulated messages)", "sim. 0-load lat.", "s", false, "mean t_s + d t_p + (d+1) t_r over the simulated messages", B::lower, A::model},
      {"sim_max_link_load", "max link load (simulated bytes)", "sim. max link load", "B", false, "bytes over the busiest directed switch-to-switch link", B::lower, A::model, 50, 0, 110},
      {"sim_max_link_utilisation", "max link utilisation", "sim. max link util.", "fraction", false, "the busiest link's busy time over the makespan", B::lower, A::model},
      {"sim_max_switch_load", "max switch load", "sim. max switch load", "B", false, "bytes received by the busiest switch", B::lower, A::model},
      {"sim_core_switch_load", "core switch load", "sim. core switch load", "B", false, "bytes received by the switches without nodes (spines, tree2's S0)", B::lower, A::model},
      {"sim_max_nic_load", "max NIC load (simulated)", "sim. max NIC load", "B", false, "bytes over the busiest node link", B::lower, A::model},
      {"sim_circuits", "optical circuits", "circuits", "count", false, "optical circuits set up", B::neither, A::ocs},
      {"sim_optical_messages", "optical messages", "optical msgs", "count", false, "messages that took a circuit", B::neither, A::ocs},
      {"sim_max_circuit_load", "max circuit load", "max circuit load", "B", false, "bytes over the busiest circuit", B::lower, A::ocs},
      {"sim_setup_wait", "circuit set-up wait", "set-up wait", "s", false, "waits for circuit set-up, summed", B::lower, A::ocs},
      {"sim_eps_only_makespan", "makespan on the EPS alone", "EPS-only makespan", "s", false, "the same run's makespan without the circuits", B::lower, A::ocs},
      {"sim_relative_makespan", "makespan relative to the EPS alone", "relative makespan", "fraction", false, "sim_makespan / sim_eps_only_makespan", B::lower, A::ocs},
      {"sim_events", "events", "sim. events", "count", false, "events the simulation handled", B::neither, A::model},
      {"sim_congestion_packets", "packets", "packets", "count", false, "packets the flit model moved", B::neither, A::flit},
      {"sim_congestion_queueing_latency", "packet queueing latency", "queueing lat.", "s", false, "mean time a packet waited at its source", B::lower, A::flit},
      {"sim_congestion_network_latency", "packet network latency", "network lat.", "s", false, "mean time a packet spent in the network", B::lower, A::flit},
      // Several jobs (scenario/jobs_run.cpp).
      {"sim_alone_makespan", "makespan alone (several jobs)", "sim. alone", "s", false, "the job's makespan alone on the same nodes", B::lower, A::jobs, 100, 0, 70},
      {"sim_slowdown", "slowdown next to the other jobs", "slowdown", "", false, "sim_makespan / sim_alone_makespan", B::lower, A::jobs, 110, 0, 80},
      {"sim_shared_link_bytes", "bytes on shared links", "shared link bytes", "B", false, "bytes the job's alone run puts on switch-to-switch channels another job's alone run uses too", B::lower, A::jobs},
      {"sim_slowdown_with_*", "slowdown next to job *", "slowdown with *", "", false, "the interference matrix: the job's makespan next to that job alone, over its alone makespan", B::lower, A::jobs},
      // Open-loop synthetic traffic (scenario/run.cpp).
      {"traffic_offered", "offered load", "offered load", "fraction", false, "offered load, of a node link's bandwidth", B::neither, A::traffic, 120},
      {"traffic_accepted", "accepted load", "accepted", "fraction", false, "accepted load, of a node link's bandwidth", B::higher, A::traffic, 130, 0, 120},
      {"traffic_latency_mean", "mean latency", "latency", "s", false, "mean message latency in the measured window", B::lower, A::traffic, 140, 0, 130},
      {"traffic_latency_p50", "median latency", "p50 latency", "s", false, "median message latency", B::lower, A::traffic},
      {"traffic_latency_p99", "p99 latency", "p99 latency", "s", false, "99th percentile of the message latencies", B::lower, A::traffic, 150},
      {"traffic_latency_max", "longest latency", "max latency", "s", false, "the longest message latency", B::lower, A::traffic},
      {"traffic_zero_load_latency", "zero-load latency (traffic)", "0-load lat.", "s", false, "mean zero-load latency of the messages", B::lower, A::traffic},
      {"traffic_avg_hops", "mean hops", "hops", "hops", false, "mean switch hops of the messages", B::lower, A::traffic},
      {"traffic_messages", "messages measured", "messages", "count", false, "messages in the measured window", B::neither, A::traffic},
  };
  return columns;
}

bool matches(const ResultColumn& c, const std::string& name) {
  if (!c.name.empty() && c.name.back() == '*')
    return name.size() >= c.name.size() && name.compare(0, c.name.size() - 1, c.name, 0, c.name.size() - 1) == 0;
  return c.name == name;
}

const char* applies_text(Applies a) {
  switch (a) {
    case Applies::always: return "always";
    case Applies::model: return "a model";
    case Applies::distant: return "distant partners";
    case Applies::ocs: return "optical circuits";
    case Applies::flit: return "the flit model";
    case Applies::jobs: return "several jobs";
    case Applies::traffic: return "open-loop traffic";
  }
  return "";
}

const char* better_text(Better b) { return b == Better::lower ? "lower" : b == Better::higher ? "higher" : ""; }

std::string unit_text(const ResultColumn& c) {
  if (c.unit.empty()) return "";
  return c.unit + (c.volume ? " (or " + result_unit(c, false) + ")" : "");
}

}  // namespace

const std::vector<ResultColumn>& result_columns() { return table(); }

const ResultColumn* find_result_column(const std::string& name) {
  for (const ResultColumn& c : table())
    if (matches(c, name)) return &c;
  return nullptr;
}

void add_result_column(ResultColumn column) {
  for (const ResultColumn& c : table())
    if (c.name == column.name) throw Error("result column " + column.name + " is declared twice");
  table().push_back(std::move(column));
}

void remove_result_column(const std::string& name) {
  auto& columns = table();
  columns.erase(std::remove_if(columns.begin(), columns.end(), [&](const ResultColumn& c) { return c.name == name; }), columns.end());
}

std::string result_unit(const ResultColumn& c, bool workload_bytes) {
  if (!c.volume || workload_bytes || c.unit.rfind("B", 0) != 0) return c.unit;
  return "weight" + c.unit.substr(1);
}

std::vector<const ResultColumn*> table_columns(int ResultColumn::*which) {
  std::vector<const ResultColumn*> out;
  for (const ResultColumn& c : table())
    if (c.*which > 0) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [&](const ResultColumn* a, const ResultColumn* b) { return a->*which < b->*which; });
  return out;
}

bool column_applies(const ResultColumn& c, const RunKind& run) {
  switch (c.applies) {
    case Applies::always: return true;
    case Applies::model: return run.simulated;
    case Applies::distant: return run.simulated && run.distant;
    case Applies::ocs: return run.simulated && run.ocs;
    case Applies::flit: return run.simulated && run.flit;
    case Applies::jobs: return run.jobs;
    case Applies::traffic: return run.traffic;
  }
  return true;
}

void blank_not_applicable(std::vector<std::pair<std::string, double>>& values, const RunKind& run) {
  for (auto& [name, value] : values)
    if (const ResultColumn* c = find_result_column(name); c && !column_applies(*c, run)) value = std::nan("");
}

std::string result_columns_markdown() {
  std::ostringstream out;
  out << "| column | unit | applies with | better | what it is |\n|---|---|---|---|---|\n";
  for (const ResultColumn& c : table())
    out << "| `" << c.name << "` | " << (c.unit.empty() ? "" : "`" + c.unit + "`" + (c.volume ? " (`" + result_unit(c, false) + "`)" : ""))
        << " | " << applies_text(c.applies) << " | " << better_text(c.better) << " | " << c.label << ": " << c.description << " |\n";
  return out.str();
}

std::string result_columns_text() {
  std::ostringstream out;
  for (const ResultColumn& c : table()) {
    out << c.name << "\n  " << c.label << ": " << c.description << "\n  unit " << (c.unit.empty() ? "none" : unit_text(c))
        << "; applies: " << applies_text(c.applies);
    if (c.better != Better::neither) out << "; " << better_text(c.better) << " is better";
    out << "\n";
  }
  return out.str();
}

}  // namespace mapsim
