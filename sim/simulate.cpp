#include "sim/simulate.h"

#include <chrono>
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

SimResult simulate_once(const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                        const SimOptions& options) {
  return unpack(sim::run_isolated([&] {
    auto start = std::chrono::steady_clock::now();
    sim::Replay replay(routed, placement, trace, options);
    replay.run();
    SimResult result = replay.result(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    result.peak_memory_kb = sim::peak_memory_kb();
    return pack(result);
  }));
}

}  // namespace

SimResult simulate(const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                   const SimOptions& options) {
  const Network& net = routed.network();
  if (static_cast<int>(placement.size()) != trace.num_ranks())
    throw Error("the trace has " + std::to_string(trace.num_ranks()) + " ranks but the placement places " +
                std::to_string(placement.size()));
  for (size_t r = 0; r < placement.size(); ++r)
    if (placement[r] < 0 || placement[r] >= net.num_nodes())
      throw Error("rank " + std::to_string(r) + " is placed on node " + std::to_string(placement[r]) +
                  ", which the network does not have");
  check_model_options(options);  // the declared ranges (builtin_model_options)
  if (!(options.envelope >= 0)) throw Error("simulation parameters: the envelope must not be negative");

  if (options.ocs && !model_carries_circuits(options.model))
    throw Error("optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)");

  SimResult result = simulate_once(routed, placement, trace, options);
  if (options.ocs) {  // the same run on the EPS alone, for the relative run time
    SimOptions eps = options;
    eps.ocs.reset();
    eps.record_messages = false;
    eps.record_timeline = false;
    result.eps_only_makespan = simulate_once(routed, placement, trace, eps).makespan;
  }
  return result;
}

}  // namespace mapsim
