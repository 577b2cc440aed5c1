#include "sim/simulate.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/internal/replay.h"
#include "support/error.h"
#include "support/interrupt.h"
#include "support/spec.h"
#include "topologies/routing.h"

namespace mapsim {

std::string parse_model(const std::string& name) { return sim::model_registry().at(name).name; }

bool model_carries_circuits(const std::string& model) {
  return sim::model_registry().at(model).factory.carries_circuits;
}

std::vector<ComponentInfo> model_infos() { return sim::model_registry().infos(); }

std::vector<Param> model_params(const std::string& name) {
  const auto* entry = sim::model_registry().find(name);
  return entry ? entry->params : std::vector<Param>{};
}

Spec model_spec(const SimOptions& options) {
  std::string text = options.model;
  for (const auto& [key, value] : options.model_options)
    text += (text == options.model ? ":" : ",") + key + "=" + value;
  Spec spec = Spec::parse(text);
  const auto& entry = sim::model_registry().at(options.model);
  spec.declare(entry.params);
  for (const Param& p : entry.params) {  // every value given is checked against its declaration
    if (!spec.has(p.name)) continue;
    if (p.type == ParamType::Text) spec.get_string(p.name);
    else spec.find_number(p.name);
  }
  spec.finish();
  return spec;
}

FlowSolver parse_flow_solver(const std::string& name) {
  if (name == "mapsim") return FlowSolver::Mapsim;
  if (name == "simgrid") return FlowSolver::SimGrid;
  throw Error("unknown flow solver '" + name + "': expected mapsim or simgrid");
}

PathSelection parse_path_selection(const std::string& name) {
  for (PathSelection s : {PathSelection::Deterministic, PathSelection::Ecmp, PathSelection::Spray, PathSelection::Adaptive})
    if (name == path_selection_name(s)) return s;
  throw Error("unknown path selection '" + name + "': expected deterministic, ecmp, spray or adaptive");
}

namespace {
[[noreturn]] void needs_queues(const std::string& what, const std::string& model) {
  throw Error(what + " chooses paths per packet from queue state: use the store-and-forward or packet model, not " + model);
}
}  // namespace

void check_path_selection(PathSelection selection, const std::string& model) {
  if ((selection == PathSelection::Spray || selection == PathSelection::Adaptive) && !sim::model_registry().at(model).factory.walks_packets)
    needs_queues("path selection " + path_selection_name(selection), model);
}

void check_routing_choice(const std::string& routing, const std::string& model) {
  const auto* entry = routing_registry().find(Spec::parse(routing).name());
  if (entry && entry->factory.per_packet && !sim::model_registry().at(model).factory.walks_packets)
    needs_queues(entry->name + " routing", model);
}

std::string path_selection_name(PathSelection selection) {
  switch (selection) {
    case PathSelection::Deterministic: return "deterministic";
    case PathSelection::Ecmp: return "ecmp";
    case PathSelection::Spray: return "spray";
    case PathSelection::Adaptive: return "adaptive";
  }
  return "";
}

namespace sim {

ModelRegistry& model_registry() {
  static ModelRegistry registry("model");
  return registry;
}

void use_event_queue_only() { simgrid::s4u::create_full_zone("mapsim")->seal(); }

void at(double date, std::function<void()> callback) {
  simgrid::kernel::timer::Timer::set(date, std::move(callback));
}

double now() { return simgrid::s4u::Engine::get_clock(); }

}  // namespace sim

namespace {

using nlohmann::json;

// The result crosses from the simulating child to the parent as MessagePack of its field table
// (the NLOHMANN_DEFINE_TYPE declarations beside SimResult).
std::vector<uint8_t> pack(const SimResult& r) { return json::to_msgpack(json(r)); }
SimResult unpack(const std::vector<uint8_t>& bytes) { return json::from_msgpack(bytes).get<SimResult>(); }

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
[[noreturn]] void run_child(int fd, const std::function<std::vector<uint8_t>()>& work) {
  std::vector<uint8_t> payload;
  char kind = 'R';
  try {
    int argc = 2;
    char arg0[] = "mapsim", arg1[] = "--log=root.thres:critical";
    char* argv[] = {arg0, arg1, nullptr};
    simgrid::s4u::Engine engine(&argc, argv);
    // Exact fluid model (see docs/simulation.md): no correction factors, no TCP window, 1e-12 s.
    for (const char* cfg : {"network/model:CM02", "network/crosstraffic:0", "network/TCP-gamma:1e300",
                            "surf/precision:1e-12", "network/optim:Full"})
      simgrid::s4u::Engine::set_config(cfg);
    payload = work();
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

namespace sim {

std::vector<uint8_t> run_isolated(const std::function<std::vector<uint8_t>()>& work) {
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot fork the simulation: ") + std::strerror(errno));
  if (pid == 0) {
    restore_default_interrupts();  // Ctrl-C ends the simulation; the parent decides what to keep
    ::close(fds[0]);
    run_child(fds[1], work);
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
  return payload;
}

}  // namespace sim

namespace {

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

long sim::peak_memory_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

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
  if (!(options.mtu >= 1)) throw Error("simulation parameters: the mtu must be at least 1 byte");
  if (!(options.mtu > 0) || !(options.flops > 0) || !(options.intra_node_bandwidth > 0) || options.eager_threshold < 0 ||
      options.envelope < 0 || !(options.test_time >= 0) || !std::isfinite(options.test_time))
    throw Error("simulation parameters: mtu, flops and intra-node bandwidth must be positive, eager threshold, envelope "
                "and test time not negative");

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
