#include "sim/simulate.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/replay.h"
#include "support/error.h"

namespace mapsim {

std::string parse_model(const std::string& name) { return sim::model_registry().at(name).name; }

bool model_carries_circuits(const std::string& model) {
  return sim::model_registry().at(model).factory.carries_circuits;
}

std::vector<ComponentInfo> model_infos() { return sim::model_registry().infos(); }

FlowSolver parse_flow_solver(const std::string& name) {
  if (name == "mapsim") return FlowSolver::Mapsim;
  if (name == "simgrid") return FlowSolver::SimGrid;
  throw Error("unknown flow solver '" + name + "': expected mapsim or simgrid");
}

namespace sim {

ModelRegistry& model_registry() {
  static ModelRegistry registry("model");
  return registry;
}

void at(double date, std::function<void()> callback) {
  simgrid::kernel::timer::Timer::set(date, std::move(callback));
}

double now() { return simgrid::s4u::Engine::get_clock(); }

}  // namespace sim

namespace {

using nlohmann::json;

json to_json(const LatencyStats& s) { return {s.count, s.mean, s.p50, s.p99, s.max}; }
LatencyStats latency_from(const json& j) { return {j[0], j[1], j[2], j[3], j[4]}; }
json to_json(const std::vector<PortLoad>& loads) {
  json out = json::array();
  for (const PortLoad& l : loads) out.push_back({l.bytes, l.messages, l.busy});
  return out;
}
std::vector<PortLoad> loads_from(const json& j) {
  std::vector<PortLoad> out;
  for (const auto& l : j) out.push_back({l[0], l[1], l[2]});
  return out;
}

// The result crosses from the simulating child to the parent as MessagePack.
std::vector<uint8_t> pack(const SimResult& r) {
  json log = json::array();
  for (const MessageRecord& m : r.message_log)
    log.push_back({m.src, m.dst, m.tag, m.bytes, m.posted, m.started, m.delivered, m.hops, m.distant, m.collective});
  json j{{"model", r.model}, {"makespan", r.makespan}, {"rank_finish", r.rank_finish}, {"messages", r.messages},
         {"bytes", r.bytes}, {"latency", to_json(r.latency)}, {"neighbour", to_json(r.neighbour_latency)},
         {"distant", to_json(r.distant_latency)}, {"zero_load", r.avg_zero_load_latency},
         {"channels", to_json(r.channels)}, {"node_out", to_json(r.node_out)}, {"node_in", to_json(r.node_in)},
         {"switch_bytes", r.switch_bytes}, {"max_link_load", r.max_link_load},
         {"max_link_utilisation", r.max_link_utilisation}, {"events", r.events}, {"wall", r.wall_seconds},
         {"memory", r.peak_memory_kb}, {"log", log}, {"circuits", r.circuits}, {"circuit_loads", to_json(r.circuit_loads)},
         {"circuit_bandwidth", r.circuit_bandwidth},
         {"optical", r.optical_messages}, {"setup_wait", r.setup_wait}};
  return json::to_msgpack(j);
}

SimResult unpack(const std::vector<uint8_t>& bytes) {
  json j = json::from_msgpack(bytes);
  SimResult r;
  r.model = j["model"];
  r.makespan = j["makespan"];
  r.rank_finish = j["rank_finish"].get<std::vector<double>>();
  r.messages = j["messages"];
  r.bytes = j["bytes"];
  r.latency = latency_from(j["latency"]);
  r.neighbour_latency = latency_from(j["neighbour"]);
  r.distant_latency = latency_from(j["distant"]);
  r.avg_zero_load_latency = j["zero_load"];
  r.channels = loads_from(j["channels"]);
  r.node_out = loads_from(j["node_out"]);
  r.node_in = loads_from(j["node_in"]);
  r.switch_bytes = j["switch_bytes"].get<std::vector<double>>();
  r.max_link_load = j["max_link_load"];
  r.max_link_utilisation = j["max_link_utilisation"];
  r.events = j["events"];
  r.wall_seconds = j["wall"];
  r.peak_memory_kb = j["memory"];
  r.circuits = j["circuits"].get<std::vector<std::pair<int, int>>>();
  r.circuit_loads = loads_from(j["circuit_loads"]);
  r.circuit_bandwidth = j["circuit_bandwidth"];
  r.optical_messages = j["optical"];
  r.setup_wait = j["setup_wait"];
  for (const auto& m : j["log"])
    r.message_log.push_back({m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9]});
  return r;
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Child side: run SimGrid once, send back 'R' + result or 'E' + error text.
[[noreturn]] void run_child(int fd, const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                            const SimOptions& options) {
  std::vector<uint8_t> payload;
  char kind = 'R';
  try {
    auto start = std::chrono::steady_clock::now();
    int argc = 2;
    char arg0[] = "mapsim", arg1[] = "--log=root.thres:critical";
    char* argv[] = {arg0, arg1, nullptr};
    simgrid::s4u::Engine engine(&argc, argv);
    // Exact fluid model (see docs/simulation.md): no correction factors, no TCP window, 1e-12 s.
    for (const char* cfg : {"network/model:CM02", "network/crosstraffic:0", "network/TCP-gamma:1e300",
                            "surf/precision:1e-12", "network/optim:Full"})
      simgrid::s4u::Engine::set_config(cfg);
    sim::Replay replay(routed, placement, trace, options);
    replay.run();
    SimResult result = replay.result(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    result.peak_memory_kb = usage.ru_maxrss;
    payload = pack(result);
  } catch (const std::exception& e) {
    kind = 'E';
    payload.assign(e.what(), e.what() + std::strlen(e.what()));
  }
  const uint64_t size = payload.size();
  bool ok = write_all(fd, &kind, 1) && write_all(fd, &size, sizeof size) && write_all(fd, payload.data(), size);
  ::close(fd);
  std::fflush(nullptr);
  _exit(ok ? 0 : 4);
}

}  // namespace

namespace {

SimResult simulate_once(const RoutedNetwork& routed, const Placement& placement, const Trace& trace,
                        const SimOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot fork the simulation: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], routed, placement, trace, options);
  }
  ::close(fds[1]);
  std::vector<uint8_t> data;
  uint8_t buffer[1 << 16];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    data.insert(data.end(), buffer, buffer + n);
  }
  ::close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  constexpr size_t header = 1 + sizeof(uint64_t);
  if (data.size() < header) {
    if (WIFSIGNALED(status))
      throw Error(std::string("the simulation engine died (") + strsignal(WTERMSIG(status)) + ")");
    throw Error("the simulation engine ended without a result (exit status " + std::to_string(WEXITSTATUS(status)) + ")");
  }
  uint64_t size;
  std::memcpy(&size, data.data() + 1, sizeof size);
  if (data.size() != header + size) throw Error("the simulation engine sent a truncated result");
  std::vector<uint8_t> payload(data.begin() + header, data.end());
  if (data[0] == 'E') throw Error(std::string(payload.begin(), payload.end()));
  return unpack(payload);
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
  if (!(options.mtu > 0) || !(options.flops > 0) || !(options.intra_node_bandwidth > 0) || options.eager_threshold < 0 ||
      options.envelope < 0)
    throw Error("simulation parameters: mtu, flops and intra-node bandwidth must be positive, eager threshold and envelope not negative");

  if (options.ocs && !model_carries_circuits(options.model))
    throw Error("optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)");

  SimResult result = simulate_once(routed, placement, trace, options);
  if (options.ocs) {  // the same run on the EPS alone, for the relative run time
    SimOptions eps = options;
    eps.ocs.reset();
    eps.record_messages = false;
    result.eps_only_makespan = simulate_once(routed, placement, trace, eps).makespan;
  }
  return result;
}

}  // namespace mapsim
