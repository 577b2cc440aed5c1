#include "sim/simulate.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/internal/replay.h"
#include "support/error.h"

namespace mapsim {

namespace {

using nlohmann::json;

// The result crosses from the simulating child to the parent as MessagePack of its field table
// (the NLOHMANN_DEFINE_TYPE declarations beside SimResult).
std::vector<uint8_t> pack(const SimResult& r) { return json::to_msgpack(json(r)); }
SimResult unpack(const std::vector<uint8_t>& bytes) { return json::from_msgpack(bytes).get<SimResult>(); }

SimResult simulate_once(const RoutedNetwork& routed, const Placement& placement, const TraceSource& trace,
                        const SimOptions& options, const std::vector<JobSpan>& jobs) {
  return unpack(sim::run_isolated([&] {
    auto start = std::chrono::steady_clock::now();
    sim::Replay replay(routed, placement, trace, options, jobs);
    replay.run();
    SimResult result = replay.result(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    result.peak_memory_kb = sim::peak_memory_kb();
    return pack(result);
  }));
}

}  // namespace

void check_job_spans(const std::vector<JobSpan>& jobs, int ranks) {
  int next = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const JobSpan& job = jobs[j];
    const std::string name = "job " + std::to_string(j);
    if (job.first_rank != next || job.ranks < 1)
      throw Error(name + ": expected ranks " + std::to_string(next) + ".. (jobs are consecutive, non-empty rank ranges)");
    if (!std::isfinite(job.start) || job.start < 0) throw Error(name + ": the start time must be finite and >= 0");
    if (job.after >= static_cast<int>(jobs.size()) || job.after == static_cast<int>(j))
      throw Error(name + ": 'after' must name another job");
    next += job.ranks;
  }
  if (!jobs.empty() && next != ranks)
    throw Error("the jobs hold " + std::to_string(next) + " ranks but the trace has " + std::to_string(ranks));
  for (size_t j = 0; j < jobs.size(); ++j) {  // following `after` from any job must end within n steps
    int at = static_cast<int>(j);
    for (size_t steps = 0; at >= 0; ++steps, at = jobs[at].after)
      if (steps > jobs.size()) throw Error("job " + std::to_string(j) + ": its 'after' jobs wait for each other in a cycle");
  }
}

SimResult simulate(const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                   const SimOptions& options, const std::vector<JobSpan>& jobs) {
  return simulate(routed, placement, TraceView(trace), options, jobs);
}

SimResult simulate(const RoutedNetwork& routed, const Placement& placement, const TraceSource& trace,
                   const SimOptions& options, const std::vector<JobSpan>& jobs) {
  const Network& net = routed.network();
  if (static_cast<int>(placement.size()) != trace.num_ranks())
    throw Error("the trace has " + std::to_string(trace.num_ranks()) + " ranks but the placement places " +
                std::to_string(placement.size()));
  for (size_t r = 0; r < placement.size(); ++r)
    if (placement[r] < 0 || placement[r] >= net.num_nodes())
      throw Error("rank " + std::to_string(r) + " is placed on node " + std::to_string(placement[r]) +
                  ", which the network does not have");
  check_model_options(options);  // the declared ranges (builtin_model_options)
  check_job_spans(jobs, trace.num_ranks());
  if (!(options.envelope >= 0)) throw Error("simulation parameters: the envelope must not be negative");

  if (options.link_failure) {  // the new routes are whole paths chosen at injection, mapped onto this network's links
    const LinkFailure& f = *options.link_failure;
    if (!f.routed || f.original_link.size() != static_cast<size_t>(f.routed->network().num_links()))
      throw InternalError("link failure: the network left and its link map do not match");
    if (options.ocs || routed.routing().decides_at_injection() || options.path_selection == PathSelection::Spray ||
        options.path_selection == PathSelection::Adaptive)
      throw Error("links failing during the run need paths chosen from tables (deterministic or ecmp), without optical "
                  "circuits, Valiant or UGAL");
  }
  if (options.ocs && !model_carries_circuits(options.model))
    throw Error("optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)");

  SimResult result = simulate_once(routed, placement, trace, options, jobs);
  if (options.ocs) {  // the same run on the EPS alone, for the relative run time
    SimOptions eps = options;
    eps.ocs.reset();
    eps.record_messages = false;
    eps.record_timeline = false;
    result.eps_only_makespan = simulate_once(routed, placement, trace, eps, jobs).makespan;
  }
  return result;
}

}  // namespace mapsim
