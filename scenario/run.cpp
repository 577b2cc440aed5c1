#include "scenario/run.h"

#include "scenario/jobs_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "mappers/allocation.h"
#include "mappers/core_placement.h"
#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "mappers/result_columns.h"
#include "sim/report.h"
#include "sim/timeline.h"
#include "sim/traffic.h"
#include "sim/workload.h"
#include "routing/export.h"
#include "topologies/failures.h"
#include "topologies/port_layout.h"
#include "topologies/network_factory.h"
#include "support/units.h"
#include "support/message.h"

namespace mapsim {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The simulation's deterministic numbers from summary.json, flattened with a sim_ prefix
// (wall-clock and memory figures are left out: they differ between identical runs).
// Statistics of no messages (a count of 0) are no values: NaN, written empty, not 0.
void add_sim_values(const nlohmann::ordered_json& summary, Values& values) {
  const bool no_messages = summary.at("latency").at("count").get<long>() == 0;
  for (const auto& [key, value] : summary.items()) {
    if (key == "wall_seconds" || key == "events_per_second" || key == "peak_memory_mb" || key == "avg_zero_load_latency")
      continue;  // wall-clock figures, and an old name kept in summary.json
    if (value.is_number())
      values.emplace_back("sim_" + key, key == "avg_latency" && no_messages ? std::nan("") : value.get<double>());
    if (value.is_object()) {  // latency statistics; the counts and the overall mean are given already
      const bool none = value.contains("count") && value["count"] == 0;
      for (const auto& [sub, number] : value.items())
        if (number.is_number() && sub != "count" && !(key == "latency" && sub == "mean"))
          values.emplace_back("sim_" + key + "_" + sub, none ? std::nan("") : number.get<double>());
    }
  }
}

// What kind of run a replicate's rows come from, for the columns that apply only to some (mappers/result_columns.h).
RunKind run_kind(const Scenario& s, const ReplicateParts& parts) {
  RunKind kind;
  kind.simulated = s.simulate;
  kind.ocs = !s.ocs.empty();
  kind.flit = s.sim.model == "flit";
  kind.traffic = !s.traffic.empty();
  kind.jobs = !s.jobs.empty();
  if (parts.graph)
    kind.distant = std::any_of(parts.graph->edges().begin(), parts.graph->edges().end(), [](const ProcessEdge& e) { return e.distant; });
  return kind;
}

// Routed volumes in the engine's result layout, so that links.csv has one format.
SimResult static_loads(const LinkVolumes& loads, const Network& net) {
  const PortLayout layout(net);
  auto port = [&](int p) { return PortLoad{loads.volume[p], loads.messages[p], 0}; };
  SimResult r;
  for (int c = 0; c < net.num_channels(); ++c) r.channels.push_back(port(layout.channel(c)));
  for (int n = 0; n < net.num_nodes(); ++n) {
    r.node_out.push_back(port(layout.injection(n)));
    r.node_in.push_back(port(layout.ejection(n)));
  }
  return r;
}

// Whether `network` routes with `routing` (an error of the failures' making is said at the failures).
bool routes(Network network, const std::string& routing) {
  try {
    RoutedNetwork(std::move(network), routing);
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::vector<double> channel_bytes(const SimResult& r) {
  std::vector<double> load;
  for (const PortLoad& p : r.channels) load.push_back(p.bytes);
  return load;
}


}  // namespace

RunPipeline::RunPipeline(const Scenario& s) : scenario_(s) {
  check_scenario(s);
  if (!s.trace.empty()) {
    // Trace errors name the trace's own file and line: the first pass (the process graph) reads every
    // line, rank by rank, as reading the trace whole did; the simulations stream it again.
    trace_ = open_ti_trace(s.trace);
    graph_ = trace_process_graph(*trace_);
    traffic_ = workload_traffic(*trace_, s.sim.collectives);
  }
}

RunPipeline::~RunPipeline() = default;

const ReplicateParts& RunPipeline::replicate(int r) {
  const Scenario& s = scenario_;
  // Failed links are chosen by the replicate's seed unless failures.seed fixes them: part of what the
  // network of a replicate is.
  const std::string failures = s.failures_given ? "\nfailures seed " + std::to_string(s.failures_at(r).seed) : "";
  if (const std::string spec = s.network_spec(r); !routed_ || spec + failures != network_spec_) {
    network_spec_ = spec + failures;
    Network network;
    at_key(s, "network", [&] { network = make_network(spec, s.links); });
    // The fabric manager routes what is left (topologies/failures.h): before the routing, and so
    // before the mappers, which see the degraded network.
    if (s.failures_given && s.failures_time == 0) at_key(s, "failures", [&] { network = with_failures(network, s.failures_at(r)); });
    failed_.reset();
    if (s.failures_given && s.failures_time > 0)  // links that fail during the run: the fabric routed again without them
      at_key(s, "failures", [&] {
        LinkFailure failure{s.failures_time, nullptr, {}};
        Network left = with_failures(network, s.failures_at(r), &failure.original_link);
        failure.routed = std::make_shared<const RoutedNetwork>(std::move(left), s.routing);
        failed_ = std::move(failure);
      });
    std::string failures_broke;  // the routing's error when the network routes without the failures
    at_key(s, "routing", [&] {
      try {
        routed_ = std::make_shared<const RoutedNetwork>(std::move(network), s.routing);
      } catch (const NotApplicable& e) {
        if (!s.failures_given || s.failures_time > 0) throw;
        throw NotApplicable(std::string(e.what()) + " (with failures the network is routed as an irregular fabric: "
                                                    "use updn, minhop, updown or shortest)");
      } catch (const Error& e) {
        if (!s.failures_given || s.failures_time > 0 || !routes(make_network(spec, s.links), s.routing)) throw;
        failures_broke = e.what();
      }
    });
    if (!failures_broke.empty())  // the failures are the key to change, not the routing
      at_key(s, "failures", [&] { throw Error("the network left cannot be routed: " + failures_broke); });
  }
  parts_.replicate = r;
  parts_.seed = s.replicate_seed(r);
  parts_.routed = routed_.get();
  parts_.sim = s.sim;
  parts_.sim.seed = parts_.seed;
  parts_.sim.link_failure = failed_;
  if (!s.traffic.empty()) {  // open-loop traffic: the network is all it needs
    if (const int nodes = routed_->network().num_nodes(); nodes < 2)  // no message could be sent: accepted 0, not a result
      at_key(s, "network", [&] {
        throw Error("open-loop traffic needs a network of at least 2 nodes, got " + std::to_string(nodes));
      });
    at_key(s, "workload.traffic", [&] { make_traffic_pattern(routed_->network(), parse_traffic(s.traffic).pattern); });
    return parts_;
  }
  if (const std::string spec = s.process_spec(r); s.trace.empty() && spec != process_spec_) {
    process_spec_ = spec;
    at_key(s, "workload.process", [&] { graph_ = make_process_graph(spec); });
  }
  if (s.trace.empty() && (s.simulate || s.pattern_given))
    at_key(s, "workload.pattern", [&] {
      trace_ = make_workload_source(s.pattern_spec(r), graph_);
      traffic_ = workload_traffic(*trace_, s.sim.collectives);
    });
  parts_.graph = &graph_;
  parts_.trace = trace_.get();
  at_key(s, "allocation", [&] { parts_.problem = make_problem(*routed_, graph_, s.allocation_spec(r), s.slots, parts_.seed); });
  if (!s.ocs.empty()) at_key(s, "ocs", [&] { parts_.sim.ocs = parse_ocs(s.ocs, routed_->network()); });
  const Routing& routing = routed_->routing();
  parts_.problem.routes_fixed = !parts_.sim.ocs && !routing.decides_at_injection() &&
                                !(routing.multipath() && parts_.sim.path_selection != PathSelection::Deterministic);
  if (!routed_->network().node_insides.empty())  // ranks reach the cores the metrics cost them on
    parts_.sim.rank_cores = [this](const Placement& placement) {
      if (static_cast<int>(placement.size()) != graph_.num_tasks()) return cores_in_rank_order(placement);  // several jobs' ranks
      return place_on_cores(parts_.problem, placement);
    };
  if (trace_ && trace_->num_ranks() > 0) {  // a workload gives the bytes, their phases, and a run to verify placements by
    parts_.problem.traffic = &traffic_.traffic;
    parts_.problem.schedule = &traffic_.schedule;
    parts_.problem.simulate = [this, options = parts_.sim](const Placement& placement, const std::string& model) {
      SimOptions o = options;
      o.record_messages = o.record_timeline = false;
      o.progress = nullptr;
      if (!model.empty() || !scenario_.simulate) {
        o.model = model.empty() ? "store-and-forward" : model;
        o.model_options.clear();  // the run's model's own keys
      }
      return mapsim::simulate(*routed_, placement, *trace_, o).makespan;
    };
  }
  return parts_;
}

MappingRun RunPipeline::run(const ReplicateParts& parts, const std::string& requested) const {
  MappingRun out;
  if (!scenario_.traffic.empty()) {
    out.mapper = requested;
    const auto start = std::chrono::steady_clock::now();
    TrafficResult r;
    at_key(scenario_, "workload.traffic", [&] { r = simulate_traffic(*parts.routed, parse_traffic(scenario_.traffic), parts.sim); });
    out.sim_seconds = seconds_since(start);
    out.values = {{"traffic_offered", r.offered},           {"traffic_accepted", r.accepted},
                  {"traffic_latency_mean", r.latency.mean}, {"traffic_latency_p50", r.latency.p50},
                  {"traffic_latency_p99", r.latency.p99},   {"traffic_latency_max", r.latency.max},
                  {"traffic_zero_load_latency", r.zero_load_latency}, {"traffic_avg_hops", r.avg_hops},
                  {"traffic_messages", static_cast<double>(r.messages)}, {"sim_events", static_cast<double>(r.events)}};
    return out;
  }
  out.mapper = cp_mapper(parts.sim.ocs, requested);  // CP regroups the ranks itself
  auto start = std::chrono::steady_clock::now();
  MappingProblem problem = parts.problem;
  problem.portfolio = &out.portfolio;
  // `best` verifies candidates by the run's own simulation; the fastest is kept whole, so that the
  // placement it returns is not simulated a second time.
  struct Verified {
    Placement placement;
    std::optional<SimResult> result;
    double seconds = 0;
  } fastest;
  if (scenario_.simulate && problem.simulate)
    problem.simulate = [&, verify = problem.simulate](const Placement& placement, const std::string& model) {
      if (!model.empty()) return verify(placement, model);
      SimOptions options = parts.sim;
      options.progress = nullptr;
      const auto begin = std::chrono::steady_clock::now();
      SimResult result = simulate(*parts.routed, placement, *parts.trace, options);
      const double makespan = result.makespan;
      if (!fastest.result || makespan < fastest.result->makespan) fastest = {placement, std::move(result), seconds_since(begin)};
      return makespan;
    };
  at_key(scenario_, mapper_key(scenario_, requested), [&] { out.placement = make_mapper(out.mapper)->map(problem); });
  out.map_seconds = seconds_since(start);
  at_key(scenario_, mapper_key(scenario_, requested), [&] { check_placement(parts.problem, out.placement); });
  out.values = placement_metrics(parts.problem, out.placement);
  if (scenario_.simulate) {
    if (fastest.result && fastest.placement == out.placement) {
      out.simulated = std::move(fastest.result);
      out.sim_seconds = fastest.seconds;
    } else {
      start = std::chrono::steady_clock::now();
      out.simulated = simulate(*parts.routed, out.placement, *parts.trace, parts.sim);
      out.sim_seconds = seconds_since(start);
    }
    add_sim_values(summary_json(*out.simulated, *parts.routed), out.values);
  }
  blank_not_applicable(out.values, run_kind(scenario_, parts));
  return out;
}

void RunPipeline::check(const ReplicateParts& parts, const std::string& mapper) const {
  if (scenario_.traffic.empty())
    at_key(scenario_, mapper_key(scenario_, mapper), [&] { make_mapper(cp_mapper(parts.sim.ocs, mapper))->check(parts.problem); });
}

void RunPipeline::share_network(const RunPipeline& other) {
  routed_ = other.routed_;
  network_spec_ = other.network_spec_;
  failed_ = other.failed_;
}

bool RunPipeline::replicates_identical(const ReplicateParts& parts) const {
  const Scenario& s = scenario_;
  if (s.replicates < 2 || !s.traffic.empty() || !s.ocs.empty() || allocation_uses_seed(s.allocation)) return false;
  if (s.failures_given && s.failures.links > 0 && !s.failure_seed_given) return false;  // links drawn per replicate
  for (int r = 1; r < s.replicates; ++r)
    if (s.network_spec(r) != s.network_spec(0) || s.process_spec(r) != s.process_spec(0) || s.pattern_spec(r) != s.pattern_spec(0))
      return false;
  if (s.simulate && simulation_uses_seed(*parts.routed, parts.sim)) return false;
  return std::none_of(s.mappers.begin(), s.mappers.end(),
                      [&](const std::string& m) { return make_mapper(cp_mapper(parts.sim.ocs, m))->uses_seed(); });
}

namespace {

// One mapper on one replicate as a row of results; `channel_load` gets its switch channels' loads
// when pictures are drawn.
RunRow make_row(const Scenario& s, const ReplicateParts& parts, MappingRun run, const RunOptions& options,
                std::vector<double>& channel_load) {
  const RoutedNetwork& routed = *parts.routed;
  RunRow row;
  row.replicate = parts.replicate;
  row.seed = parts.seed;
  row.mapper = run.mapper;
  row.values = std::move(run.values);
  row.map_seconds = run.map_seconds;
  row.sim_seconds = run.sim_seconds;
  row.portfolio = std::move(run.portfolio);
  if (!s.traffic.empty()) return row;  // no placement, no per-link loads
  const SimResult loads = run.simulated ? *run.simulated
                                        : static_loads(link_volumes(parts.problem, run.placement), routed.network());
  if (options.links) {
    std::ostringstream out;
    write_links_rows(loads, routed, "", out);
    row.links_csv = out.str();
  }
  if (options.draw) channel_load = channel_bytes(loads);
  if (run.simulated && !run.simulated->timeline.empty()) {
    std::ostringstream out;
    write_timeline_rows(*run.simulated, "", out);
    row.timeline_csv = out.str();
  }
  row.placement = std::move(run.placement);
  if (!routed.network().node_insides.empty()) row.cores = place_on_cores(parts.problem, row.placement);
  return row;
}

}  // namespace

void draw_rows(const Scenario& s, const ReplicateParts& parts, const RunOptions& options, std::vector<RunRow>& rows,
               const std::vector<std::vector<double>>& loads) {
  const Network& net = parts.routed->network();
  LoadPicture picture;
  picture.bytes = s.simulate;
  picture.per_switch = options.draw_view == "switches" || (options.draw_view == "auto" && net.num_nodes() > 128);
  if (options.draw_shared_scale && rows.size() > 1)
    for (const std::vector<double>& load : loads)
      for (double l : load) picture.scale = std::max(picture.scale, l);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<int> ranks(net.num_nodes(), 0);
    for (int node : rows[i].placement) ++ranks[node];
    picture.title = s.name + ": " + rows[i].mapper + ", replicate " + std::to_string(parts.replicate);
    std::ostringstream out;
    export_load_dot(*parts.routed, loads[i], ranks, picture, out);
    rows[i].network_dot = out.str();
  }
}

std::vector<RunRow> run_scenario(const Scenario& s, const RunOptions& options) {
  if (!s.jobs.empty()) return run_jobs(s, options);
  RunPipeline pipeline(s);
  std::vector<RunRow> rows;
  std::vector<std::string> mappers = s.mappers;  // less those that do not fit
  auto stopped = [&] { return options.stop && options.stop(); };
  const int total = (s.replicates - static_cast<int>(options.skip_replicates.size())) * static_cast<int>(mappers.size());
  int done = 0;
  if (options.progress) options.progress(0, total);  // the total, before the first run ends
  bool identical = false;  // replicate 0 stands for all
  for (int r = 0; r < s.replicates && !stopped(); ++r) {
    if (options.skip_replicates.count(r)) continue;
    ReplicateParts parts = pipeline.replicate(r);  // every part is built before the mappings run
    parts.sim.record_timeline = options.timeline && r == 0;
    if (r == 0 && pipeline.replicates_identical(parts)) {
      identical = true;
      spdlog::warn("the {} replicates would be identical (nothing in the scenario depends on the seed: seeded or "
                   "fixed network and workload, deterministic mappers): ran replicate 0 once and copied it",
                   s.replicates);
    }
    std::vector<RunRow> replicate_rows;
    std::vector<std::vector<double>> loads;  // per row, for pictures
    std::vector<RunFailure> failures;
    auto drop = [&](const std::string& mapper, const std::string& error) {
      failures.push_back({r, mapper, printable(error)});
      mappers.erase(std::find(mappers.begin(), mappers.end(), mapper));
    };
    if (options.failures)  // every mapper's fit first: none runs in vain before another is refused
      for (const std::string& mapper : std::vector<std::string>(mappers)) try {
          pipeline.check(parts, mapper);
        } catch (const NotApplicable& e) {
          drop(mapper, std::string("not run: ") + e.what());
        }
    for (const std::string& mapper : std::vector<std::string>(mappers)) {
      if (stopped()) break;
      try {
        std::vector<double> load;
        replicate_rows.push_back(make_row(s, parts, pipeline.run(parts, mapper), options, load));
        loads.push_back(std::move(load));
      } catch (const Error& e) {
        if (stopped()) break;  // a simulation ended by the interrupt
        if (!options.failures) throw;
        if (dynamic_cast<const NotApplicable*>(&e)) drop(mapper, e.what());
        else failures.push_back({r, mapper, printable(e.what())});
      }
      if (options.progress) options.progress(++done, total);
    }
    if (stopped()) break;  // the interrupted replicate is not kept
    if (options.draw && r == 0 && s.traffic.empty()) draw_rows(s, parts, options, replicate_rows, loads);
    auto keep = [&](int replicate, std::vector<RunRow> kept, std::vector<RunFailure> failed) {
      if (options.replicate_done) options.replicate_done(replicate, kept, failed);
      if (options.failures) options.failures->insert(options.failures->end(), failed.begin(), failed.end());
      for (RunRow& row : kept) rows.push_back(std::move(row));
    };
    if (!identical) {
      keep(r, std::move(replicate_rows), std::move(failures));
      continue;
    }
    for (int copy = 1; copy < s.replicates; ++copy) {
      if (options.skip_replicates.count(copy)) continue;
      std::vector<RunRow> copied = replicate_rows;
      std::vector<RunFailure> copied_failures = failures;
      for (RunRow& row : copied) {
        row.replicate = copy;
        row.seed = s.replicate_seed(copy);
        row.map_seconds = row.sim_seconds = 0;  // not run
      }
      for (RunFailure& f : copied_failures) f.replicate = copy;
      keep(copy, std::move(copied), std::move(copied_failures));
    }
    keep(0, std::move(replicate_rows), std::move(failures));
    if (options.progress) options.progress(total, total);  // the copies are done too
    break;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const RunRow& a, const RunRow& b) { return a.replicate < b.replicate; });
  return rows;
}

}  // namespace mapsim
