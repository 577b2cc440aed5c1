#include "scenario/jobs_run.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "mappers/allocation.h"
#include "sim/background.h"
#include "support/message.h"

namespace mapsim {
namespace {

// One job of one replicate: its mapping and alone run, and its workload.
struct JobRun {
  MappingRun run;
  const TraceSource* trace = nullptr;
};

// The jobs `members` together: their traces one after another, each its own world, started as the
// scenario says (`after` kept only between members), and the background, if any, from time 0. The
// jobs' traces stream as a single job's does (none is held whole). Returns each member's makespan.
std::vector<double> simulate_together(const Scenario& s, const RoutedNetwork& routed, const SimOptions& options,
                                      const std::vector<JobRun>& runs, const std::vector<int>& members,
                                      const BackgroundTraffic* background = nullptr) {
  std::vector<const TraceSource*> traces;
  Placement placement;
  std::vector<JobSpan> spans;
  int ranks = 0;
  for (int j : members) {
    const ScenarioJob& job = s.jobs[j];
    const auto after = std::find(members.begin(), members.end(), job.after);
    spans.push_back({ranks, runs[j].trace->num_ranks(), job.start,
                     after == members.end() ? -1 : static_cast<int>(after - members.begin())});
    ranks += runs[j].trace->num_ranks();
    traces.push_back(runs[j].trace);
    placement.insert(placement.end(), runs[j].run.placement.begin(), runs[j].run.placement.end());
  }
  const std::optional<TraceView> background_trace =
      background && background->trace.num_ranks() > 0 ? std::optional<TraceView>(background->trace) : std::nullopt;
  if (background_trace) {
    spans.push_back({ranks, background->trace.num_ranks(), 0, -1});
    traces.push_back(&*background_trace);
    placement.insert(placement.end(), background->placement.begin(), background->placement.end());
  }
  const JoinedSources trace(traces);
  SimOptions o = options;
  o.record_messages = o.record_timeline = false;
  o.progress = nullptr;
  const SimResult result = simulate(routed, placement, trace, o, spans);
  std::vector<double> makespans;
  for (size_t m = 0; m < members.size(); ++m) {
    const auto first = result.rank_finish.begin() + spans[m].first_rank;
    makespans.push_back(*std::max_element(first, first + spans[m].ranks) - result.job_start[m]);
  }
  return makespans;
}

// simulate_together, each member's makespan counted from its own start: the engine's clock is absolute,
// and a job starting at 999999 s would have its microseconds rounded at that magnitude (slowdowns of
// 1.00006 for jobs alone in their time). The members fall into groups whose run times overlap; a group
// starting after time 0 is simulated again on its own, from 0 (members outside it are not running
// then). With background traffic (running from time 0) every member is left as simulated.
std::vector<double> simulate_from_own_starts(const Scenario& s, const RoutedNetwork& routed, const SimOptions& options,
                                             const std::vector<JobRun>& runs, const std::vector<int>& members,
                                             const BackgroundTraffic* background = nullptr) {
  std::vector<double> makespans = simulate_together(s, routed, options, runs, members, background);
  if (background && background->trace.num_ranks() > 0) return makespans;
  const size_t n = members.size();
  auto member_of = [&](int job) { return static_cast<size_t>(std::find(members.begin(), members.end(), job) - members.begin()); };
  std::vector<double> start(n, -1);  // as simulated: a start, or the end of the member waited for plus the delay
  for (size_t left = n; left > 0;)
    for (size_t m = 0; m < n; ++m) {
      if (start[m] >= 0) continue;
      const ScenarioJob& job = s.jobs[members[m]];
      const size_t after = member_of(job.after);
      if (after == n) start[m] = job.start;
      else if (start[after] >= 0) start[m] = start[after] + makespans[after] + job.start;
      else continue;
      --left;
    }
  std::vector<int> group(n, -1);  // members whose run times overlap, through others too
  int groups = 0;
  for (size_t m = 0; m < n; ++m) {
    if (group[m] >= 0) continue;
    std::vector<size_t> reach{m};
    group[m] = groups;
    for (size_t at = 0; at < reach.size(); ++at)
      for (size_t k = 0; k < n; ++k)
        if (group[k] < 0 && start[k] < start[reach[at]] + makespans[reach[at]] && start[reach[at]] < start[k] + makespans[k])
          group[k] = groups, reach.push_back(k);
    ++groups;
  }
  for (int g = 0; g < groups; ++g) {
    double origin = HUGE_VAL;
    for (size_t m = 0; m < n; ++m)
      if (group[m] == g) origin = std::min(origin, start[m]);
    if (origin == 0) continue;
    Scenario shifted = s;  // the group's own timeline: waits inside it kept, other starts counted from its first
    std::vector<int> inside;
    for (size_t m = 0; m < n; ++m) {
      if (group[m] != g) continue;
      inside.push_back(members[m]);
      ScenarioJob& job = shifted.jobs[members[m]];
      const size_t after = member_of(job.after);
      if (after == n || group[after] != g) job.start = start[m] - origin, job.after = -1;
    }
    const std::vector<double> own = simulate_together(shifted, routed, options, runs, inside);
    for (size_t i = 0; i < inside.size(); ++i) makespans[member_of(inside[i])] = own[i];
  }
  return makespans;
}

// Bytes each job's alone run puts on switch channels that another job's alone run uses too.
std::vector<double> shared_link_bytes(const std::vector<JobRun>& runs) {
  std::vector<double> shared(runs.size(), 0);
  const size_t channels = runs.front().run.simulated->channels.size();
  for (size_t c = 0; c < channels; ++c) {
    int users = 0;
    for (const JobRun& job : runs) users += job.run.simulated->channels[c].bytes > 0;
    if (users < 2) continue;
    for (size_t j = 0; j < runs.size(); ++j) shared[j] += runs[j].run.simulated->channels[c].bytes;
  }
  return shared;
}

}  // namespace

std::vector<RunRow> run_jobs(const Scenario& s, const RunOptions& options) {
  std::vector<std::unique_ptr<RunPipeline>> pipelines;
  for (const ScenarioJob& job : s.jobs) pipelines.push_back(std::make_unique<RunPipeline>(job.scenario));
  auto stopped = [&] { return options.stop && options.stop(); };
  const int jobs = static_cast<int>(s.jobs.size());
  const int total = (s.replicates - static_cast<int>(options.skip_replicates.size())) * jobs;
  int done = 0;
  if (options.progress) options.progress(0, total);
  std::vector<RunRow> rows;
  for (int r = 0; r < s.replicates && !stopped(); ++r) {
    if (options.skip_replicates.count(r)) continue;
    std::vector<RunRow> replicate_rows;
    std::vector<RunFailure> failures;
    std::vector<JobRun> runs(jobs);
    std::vector<ReplicateParts> parts;
    // Each job's parts, then its nodes from those the jobs before it left free: errors here are the
    // scenario's and end the run.
    for (int j = 0; j < jobs; ++j) {
      if (j > 0) pipelines[j]->share_network(*pipelines.front());  // one machine: built and routed once
      parts.push_back(pipelines[j]->replicate(r));
      // Simultaneous events in the order they were scheduled: jobs that share no port then run
      // exactly as alone (one job keeps the single-job order, so that its numbers are the same).
      parts.back().sim.fifo_ties = jobs > 1;
    }
    const RoutedNetwork& routed = *parts.front().routed;
    std::vector<char> taken(routed.network().num_nodes(), 0);
    std::vector<int> owner(taken.size(), -1);
    for (int j = 0; j < jobs; ++j) {
      const Scenario& js = s.jobs[j].scenario;
      const int needed = (parts[j].graph->num_tasks() + js.slots - 1) / js.slots;
      const std::string key = "jobs." + std::to_string(j);
      at_key(s, s.document["jobs"][j]["allocation"] ? key + ".allocation" : key, [&] {
        parts[j].problem.nodes = allocate_nodes(routed, js.allocation, needed, taken, parts[j].seed);
        for (int node : parts[j].problem.nodes)  // `list` and `all` name their nodes whatever is free
          if (taken[node]) throw Error("node " + routed.network().node(node).name + " is taken by job " + s.jobs[owner[node]].name);
      });
      for (int node : parts[j].problem.nodes) taken[node] = 1, owner[node] = j;
      parts[j].problem.slots.assign(parts[j].problem.nodes.size(), js.slots);
    }
    if (const long free = std::count(taken.begin(), taken.end(), 0); !s.background.empty() && free < 2)
      at_key(s, "background", [&] {  // its messages go between free nodes: none would be sent
        throw Error("needs at least 2 nodes that no job holds; the jobs leave " + std::to_string(free) + " of the " +
                    std::to_string(taken.size()) + " free");
      });
    int at = 0;  // the job mapped, for a failure
    try {
      for (int j = 0; j < jobs && !stopped(); ++j) {
        at = j;
        const Scenario& js = s.jobs[j].scenario;
        runs[j].run = pipelines[j]->run(parts[j], js.mappers.front());
        runs[j].trace = parts[j].trace;
        if (options.progress) options.progress(++done, total);
      }
      if (stopped()) break;
      std::vector<double> together, shared(jobs, 0);
      std::vector<int> all(jobs);
      for (int j = 0; j < jobs; ++j) all[j] = j;
      std::optional<BackgroundTraffic> background;
      if (!s.background.empty()) {
        double duration = s.background_duration;  // default: the jobs one after another, as long as alone
        for (int j = 0; j < jobs && s.background_duration == 0; ++j) duration += s.jobs[j].start + runs[j].run.simulated->makespan;
        at_key(s, "background", [&] {
          background = background_traffic(routed.network(), taken, parse_traffic(s.background), duration, parts.front().sim.mtu,
                                          parts.front().seed);
        });
      }
      if (s.simulate) {
        together = simulate_from_own_starts(s, routed, parts.front().sim, runs, all, background ? &*background : nullptr);
        shared = shared_link_bytes(runs);
      }
      std::vector<std::vector<double>> slowdown;  // [i][k]: job i next to job k
      if (s.simulate && s.interference_pairs && jobs <= kMaxPairedJobs) {
        slowdown.assign(jobs, std::vector<double>(jobs, 1));
        for (int i = 0; i < jobs && !stopped(); ++i)
          for (int k = i + 1; k < jobs; ++k) {
            const std::vector<double> pair = jobs == 2 && !background ? together : simulate_from_own_starts(s, routed, parts.front().sim, runs, {i, k});
            slowdown[i][k] = pair[0] / runs[i].run.simulated->makespan;
            slowdown[k][i] = pair[1] / runs[k].run.simulated->makespan;
          }
      }
      for (int j = 0; j < jobs; ++j) {
        RunRow row;
        row.replicate = r;
        row.seed = parts[j].seed;
        row.job = s.jobs[j].name;
        row.mapper = runs[j].run.mapper;
        row.map_seconds = runs[j].run.map_seconds;
        row.sim_seconds = runs[j].run.sim_seconds;
        for (const auto& value : runs[j].run.values)  // the mapping metrics; the job's simulated numbers follow
          if (value.first.rfind("sim_", 0) != 0) row.values.push_back(value);
        if (s.simulate) {
          const double alone = runs[j].run.simulated->makespan;
          row.values.insert(row.values.end(), {{"sim_makespan", together[j]},
                                               {"sim_alone_makespan", alone},
                                               {"sim_slowdown", together[j] / alone},
                                               {"sim_bytes", runs[j].run.simulated->bytes},
                                               {"sim_shared_link_bytes", shared[j]}});
          for (int k = 0; k < static_cast<int>(slowdown.size()); ++k)
            row.values.emplace_back("sim_slowdown_with_" + s.jobs[k].name, slowdown[j][k]);
        }
        row.placement = runs[j].run.placement;
        replicate_rows.push_back(std::move(row));
      }
    } catch (const Error& e) {
      if (stopped()) break;
      if (!options.failures || dynamic_cast<const NotApplicable*>(&e)) throw;
      for (const ScenarioJob& job : s.jobs)  // the replicate's jobs ran together: none has a row
        failures.push_back({r, job.name, printable(job.name == s.jobs[at].name ? e.what() : "not run: job " + s.jobs[at].name + " failed")});
      replicate_rows.clear();
    }
    if (stopped()) break;
    if (options.replicate_done) options.replicate_done(r, replicate_rows, failures);
    if (options.failures) options.failures->insert(options.failures->end(), failures.begin(), failures.end());
    for (RunRow& row : replicate_rows) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace mapsim
