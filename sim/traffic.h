// Open-loop synthetic traffic, as interconnect papers measure networks: every node injects messages
// at Poisson times at an offered load (a fraction of its link bandwidth) to destinations drawn from
// a pattern, independently of delivery. After a warm-up window, the messages created during the
// measurement window give the latency (creation to delivery, source queueing included) and the
// bytes delivered during it the accepted throughput. Injection goes on for one more window and the
// network then drains, so every measured message is delivered. Patterns are registered components:
// uniform, transpose, bit-reverse, tornado, shift, group-shift (a dragonfly's worst case).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sim/simulation.h"
#include "support/random.h"
#include "support/registry.h"

namespace mapsim {

// A destination for a message from `src`, or -1 when `src` sends nothing (a fixed point).
using TrafficPattern = std::function<int(int src, Rng& rng)>;
using TrafficRegistry = Registry<std::function<TrafficPattern(const Network&, Spec&)>>;
TrafficRegistry& traffic_registry();
TrafficPattern make_traffic_pattern(const Network& network, const std::string& spec);

// Windows shorter than a few zero-load latencies would count the deliveries of nothing (1-byte
// messages): the defaults are at least kWindowLatencies of them, and a shorter measure is refused.
constexpr double kWindowLatencies = 4;
// Packets (messages, on models without packets) one run may inject: about a minute of simulation.
constexpr long kMaxTrafficPackets = 1L << 26;

struct TrafficOptions {
  std::string pattern = "uniform";  // a traffic pattern spec
  double load = 0.5;       // offered load, fraction of each node's injection bandwidth, (0, 1]
  std::optional<double> message;  // bytes per message, > 0; none: one packet (SimOptions::mtu)
  std::optional<double> warmup;   // seconds, 0 for none; none: 200 message times at the slowest node's
                                  // bandwidth, and at least kWindowLatencies zero-load latencies
  std::optional<double> measure;  // seconds, > 0; none: 400 message times, at least 2 kWindowLatencies latencies
};

struct TrafficResult {
  std::string pattern;
  double offered = 0;      // load actually offered (sending nodes only), fraction of their bandwidth
  double accepted = 0;     // bytes delivered in the window / (sending nodes x bandwidth x window)
  LatencyStats latency;    // messages created in the window, seconds
  double zero_load_latency = 0;  // mean over the same messages, of the paths they took
  double avg_hops = 0;     // switch hops of the same messages' paths as taken (Valiant's detour, UGAL's and
                           // adaptive routing's choices; a message of several packets: their mean)
  long messages = 0;       // generated in all
  long events = 0;
  double wall_seconds = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TrafficResult, pattern, offered, accepted, latency, zero_load_latency, avg_hops, messages,
                                   events, wall_seconds)

// Throws Error unless `load` is an offered load in (0, 1].
void check_traffic_load(double load);

// A scenario's traffic spec: a pattern spec whose keys may also set the run's `load`, `message`
// (size), `warmup` and `measure` (times): "uniform:load=0.5", "group-shift:group=32,load=0.3".
TrafficOptions parse_traffic(const std::string& spec);

// Throws mapsim::Error for an unknown pattern, a load outside (0, 1], a message size or window that
// is not positive, a measurement window under kWindowLatencies zero-load latencies, a run of more than
// kMaxTrafficPackets packets, or a model that cannot run the routing's path choices (sim/simulate.h's rules).
TrafficResult simulate_traffic(const RoutedNetwork& routed, const TrafficOptions& traffic, const SimOptions& options);

}  // namespace mapsim
