#include "sim/traffic.h"

#include <chrono>
#include <cmath>
#include <simgrid/s4u/Engine.hpp>

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
  if (!(options.load > 0) || options.load > 1)
    throw Error("offered load must be in (0, 1] (a fraction of the node bandwidth), got " + format_number(options.load));
  return options;
}

namespace sim {
namespace {

class OpenLoopTraffic {
 public:
  OpenLoopTraffic(const RoutedNetwork& routed, const TrafficOptions& traffic, const SimOptions& options)
      : routed_(routed),
        pattern_(make_traffic_pattern(routed.network(), traffic.pattern)),
        paths_(routed, options.path_selection, options.seed),
        rng_(options.seed ^ 0xD1B54A32D192ED03ull) {
    const Network& net = routed.network();
    bytes_ = traffic.message > 0 ? traffic.message : options.mtu;
    double slowest = INFINITY;
    for (const Node& n : net.nodes()) slowest = std::min(slowest, n.bandwidth);
    const double message_time = bytes_ / slowest;
    warmup_ = traffic.warmup > 0 ? traffic.warmup : 200 * message_time;
    measure_ = traffic.measure > 0 ? traffic.measure : 400 * message_time;
    load_ = traffic.load;
    const auto& model = model_registry().at(options.model);
    paths_.check_model(model.name, model.factory.walks_packets, false);
    static const std::vector<Circuit> kNoCircuits;
    transport_ = model.factory.make(routed, options, kNoCircuits, messages_, [this](int id) { delivered(id); });
    sending_.assign(net.num_nodes(), false);
  }

  TrafficResult run(const std::string& pattern) {
    const auto start = std::chrono::steady_clock::now();
    const Network& net = routed_.network();
    for (int n = 0; n < net.num_nodes(); ++n) schedule(n, 0);
    simgrid::s4u::Engine::get_instance()->run();
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
    if (in_window(m.started)) {
      zero_load_sum_ += latency;
      hop_sum_ += m.hops;
    }
    transport_->start(id, m, path_, latency);
  }

  bool in_window(double t) const { return t >= warmup_ && t < warmup_ + measure_; }

  void delivered(int id) {
    const Message& m = messages_[id];
    if (in_window(now())) window_bytes_ += m.wire;
    if (in_window(m.started)) latencies_.push_back(now() - m.started);
    free_.push_back(id);
  }

  const RoutedNetwork& routed_;
  TrafficPattern pattern_;
  PathChooser paths_;
  Rng rng_;
  double bytes_ = 0, warmup_ = 0, measure_ = 0, load_ = 0;
  std::unique_ptr<Transport> transport_;
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
  if (!(traffic.load > 0) || traffic.load > 1)
    throw Error("offered load must be in (0, 1] (a fraction of the node bandwidth), got " + format_number(traffic.load));
  if (traffic.message < 0 || traffic.warmup < 0 || traffic.measure < 0)
    throw Error("traffic message size, warm-up and measurement windows must not be negative");
  make_traffic_pattern(routed.network(), traffic.pattern);  // a bad pattern fails here, not in the child
  const std::vector<uint8_t> bytes = sim::run_isolated([&] {
    sim::OpenLoopTraffic run(routed, traffic, options);
    return nlohmann::json::to_msgpack(nlohmann::json(run.run(traffic.pattern)));
  });
  return nlohmann::json::from_msgpack(bytes).get<TrafficResult>();
}

}  // namespace mapsim
