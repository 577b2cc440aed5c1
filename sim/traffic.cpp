#include "sim/traffic.h"

#include <chrono>
#include <cmath>

#include "sim/internal/free_list.h"
#include "sim/internal/path_choice.h"
#include "sim/transport.h"
#include "support/error.h"
#include "support/units.h"

namespace mapsim {

TrafficRegistry& traffic_registry() {
  static TrafficRegistry registry("traffic pattern");
  return registry;
}

TrafficPattern make_traffic_pattern(const Network& network, const std::string& text) {
  Spec spec = parse_spec(traffic_registry(), text);
  TrafficPattern pattern = lookup(traffic_registry(), spec).factory(network, spec);
  spec.finish();
  return pattern;
}

void check_traffic_load(double load) {
  if (!(load > 0) || load > 1)
    throw Error("offered load must be in (0, 1] (a fraction of the node bandwidth), got " + format_number(load));
}

namespace {
void check_traffic(const TrafficOptions& traffic) {
  check_traffic_load(traffic.load);
  if (traffic.message && !(*traffic.message > 0))
    throw Error("traffic message size must be above 0 bytes (omit it for one packet)");
  if (traffic.measure && !(*traffic.measure > 0))
    throw Error("traffic measurement window must be above 0 s (omit it for 400 message times)");
  if (traffic.warmup && *traffic.warmup < 0) throw Error("traffic warm-up window must not be negative");
}
}  // namespace

TrafficOptions parse_traffic(const std::string& text) {
  Spec spec = Spec::parse(text);
  TrafficOptions options;
  std::string keys;
  for (const auto& [key, value] : spec.values()) {
    if (key == "load") options.load = spec.get_double("load", 0);
    else if (key == "message") options.message = spec.get_size("message", 0);
    else if (key == "warmup") options.warmup = spec.get_time("warmup", 0);
    else if (key == "measure") options.measure = spec.get_time("measure", 0);
    else keys += (keys.empty() ? "" : ",") + key + "=" + value;
  }
  if (spec.positional()) keys = *spec.positional() + (keys.empty() ? "" : ",") + keys;
  options.pattern = keys.empty() ? spec.name() : spec.name() + ":" + keys;
  check_traffic(options);
  return options;
}

namespace sim {
namespace {

// What one run injects: message size and windows, the defaults filled in and checked.
struct TrafficRun {
  double bytes, warmup, measure;
};

// The largest zero-load latency over up to 64 x 64 node pairs spread over the network.
double sampled_max_latency(const RoutedNetwork& routed) {
  const int n = routed.network().num_nodes(), k = std::min(n, 64);
  double largest = 0;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) {
      const int src = static_cast<int>(static_cast<long>(i) * n / k), dst = static_cast<int>(static_cast<long>(j) * n / k);
      if (src != dst) largest = std::max(largest, routed.latency(src, dst));
    }
  return largest;
}

TrafficRun plan_traffic(const RoutedNetwork& routed, const TrafficOptions& traffic, const SimOptions& options) {
  const Network& net = routed.network();
  TrafficRun run;
  run.bytes = traffic.message ? *traffic.message : options.mtu;
  double slowest = INFINITY, bandwidth = 0;
  for (const Node& n : net.nodes()) {
    slowest = std::min(slowest, n.bandwidth);
    bandwidth += n.bandwidth;
  }
  const double message_time = run.bytes / slowest, latency = sampled_max_latency(routed);
  if (traffic.measure && *traffic.measure < kWindowLatencies * latency)
    throw Error("traffic measurement window " + format_time(*traffic.measure) + " is shorter than " +
                format_number(kWindowLatencies) + " zero-load latencies (" + format_time(latency) +
                " each): it would count deliveries of almost nothing; lengthen it, or omit it for the default");
  run.warmup = traffic.warmup ? *traffic.warmup : std::max(200 * message_time, kWindowLatencies * latency);
  run.measure = traffic.measure ? *traffic.measure : std::max(400 * message_time, 2 * kWindowLatencies * latency);
  // Bounded up front, as workloads are by their action count: a 1 GB message or a 1000 s window
  // would otherwise run for hours.
  const double injected = run.warmup + 2 * run.measure, messages = traffic.load * bandwidth * injected / run.bytes;
  double per_message = 1;
  for (const Param& p : model_params(options.model))
    if (p.name == "mtu") per_message = std::ceil(run.bytes / options.mtu);
  if (messages * per_message > static_cast<double>(kMaxTrafficPackets))
    throw Error("open-loop traffic: about " + format_number(messages * per_message, 3) + " packets (" +
                format_number(messages, 3) + " messages of " + format_number(run.bytes) + " bytes in " +
                format_time(injected) + " of injection), above the limit of " + std::to_string(kMaxTrafficPackets) +
                ": shorten the warm-up and measurement windows or send smaller messages");
  return run;
}

class OpenLoopTraffic {
 public:
  OpenLoopTraffic(const RoutedNetwork& routed, const TrafficOptions& traffic, const TrafficRun& plan, const SimOptions& options)
      : routed_(routed),
        pattern_(make_traffic_pattern(routed.network(), traffic.pattern)),
        paths_(routed, options.path_selection, options.seed),
        rng_(options.seed ^ 0xD1B54A32D192ED03ull) {
    const Network& net = routed.network();
    bytes_ = plan.bytes;
    warmup_ = plan.warmup;
    measure_ = plan.measure;
    load_ = traffic.load;
    const auto& model = model_registry().at(options.model);
    paths_.check_model(model.name, model.factory.walks_packets, false);
    static const std::vector<Circuit> kNoCircuits;
    transport_ = model.factory.make(routed, options, kNoCircuits, messages_, [this](int id) { delivered(id); });
    taken_paths_ = dynamic_cast<const TakenPaths*>(transport_.get());
    sending_.assign(net.num_nodes(), false);
  }

  TrafficResult run(const std::string& pattern) {
    const auto start = std::chrono::steady_clock::now();
    const Network& net = routed_.network();
    for (int n = 0; n < net.num_nodes(); ++n) schedule(n, 0);
    run_events();
    TrafficResult r;
    r.pattern = pattern;
    double capacity = 0;
    for (int n = 0; n < net.num_nodes(); ++n)
      if (sending_[n]) capacity += net.node(n).bandwidth * measure_;
    r.offered = capacity > 0 ? load_ : 0;
    r.accepted = capacity > 0 ? window_bytes_ / capacity : 0;
    r.messages = generated_;
    if (!latencies_.empty()) {
      r.zero_load_latency = zero_load_sum_ / static_cast<double>(latencies_.size());
      r.avg_hops = hop_sum_ / static_cast<double>(latencies_.size());
    }
    r.latency = summarise(latencies_);
    r.events = events_ + transport_->events();
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

 private:
  // Next Poisson arrival at node n after `after`; none once the injection period is over.
  void schedule(int n, double after) {
    const double rate = load_ * routed_.network().node(n).bandwidth / bytes_;
    const double when = after - std::log1p(-rng_.uniform()) / rate;
    if (when >= warmup_ + 2 * measure_) return;
    at(when, [this, n] {
      ++events_;
      inject(n);
      schedule(n, now());
    });
  }

  void inject(int src) {
    const int dst = pattern_(src, rng_);
    if (dst < 0 || dst == src) return;
    sending_[src] = true;
    ++generated_;
    const int id = acquire(messages_, free_);
    Message& m = messages_[id];
    m = Message{};
    m.src_node = src;
    m.dst_node = dst;
    m.bytes = m.wire = bytes_;
    m.posted = m.started = now();
    path_.assign(1, paths_.leg(src, dst, 0));
    m.hops = static_cast<int>(path_.front().channels.size());
    const double latency = routed_.route_latency(src, dst, path_.front().channels);
    // A whole path (deterministic, ECMP, Valiant) is the one taken; a walked leg's channels are only
    // the routing's representative: its packets' own paths are counted at delivery.
    if (in_window(m.started) && !(path_.front().walked && taken_paths_)) {
      zero_load_sum_ += latency;
      hop_sum_ += m.hops;
    }
    transport_->start(id, m, path_, latency);
  }

  bool in_window(double t) const { return t >= warmup_ && t < warmup_ + measure_; }

  void delivered(int id) {
    const Message& m = messages_[id];
    if (in_window(now())) window_bytes_ += m.wire;
    if (in_window(m.started)) {
      latencies_.push_back(now() - m.started);
      if (m.walked && taken_paths_) {
        const TakenPath taken = taken_paths_->taken_path(id);
        zero_load_sum_ += taken.latency;
        hop_sum_ += taken.hops;
      }
    }
    free_.push_back(id);
  }

  const RoutedNetwork& routed_;
  TrafficPattern pattern_;
  PathChooser paths_;
  Rng rng_;
  double bytes_ = 0, warmup_ = 0, measure_ = 0, load_ = 0;
  std::unique_ptr<Transport> transport_;
  const TakenPaths* taken_paths_ = nullptr;  // the transport's walked paths, if it reports them
  std::vector<Message> messages_;
  std::vector<int> free_;
  std::vector<Leg> path_;
  std::vector<bool> sending_;
  std::vector<double> latencies_;
  double window_bytes_ = 0, zero_load_sum_ = 0, hop_sum_ = 0;
  long generated_ = 0, events_ = 0;
};

}  // namespace
}  // namespace sim

TrafficResult simulate_traffic(const RoutedNetwork& routed, const TrafficOptions& traffic, const SimOptions& options) {
  check_traffic(traffic);
  check_model_options(options);
  check_path_selection(options.path_selection, options.model);
  check_routing_choice(routed.routing().name(), options.model);
  make_traffic_pattern(routed.network(), traffic.pattern);  // a bad pattern fails here, not in the child
  const sim::TrafficRun plan = sim::plan_traffic(routed, traffic, options);
  const std::vector<uint8_t> bytes = sim::run_isolated([&] {
    sim::OpenLoopTraffic run(routed, traffic, plan, options);
    return nlohmann::json::to_msgpack(nlohmann::json(run.run(traffic.pattern)));
  });
  return nlohmann::json::from_msgpack(bytes).get<TrafficResult>();
}

}  // namespace mapsim
