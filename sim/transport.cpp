// The model registry and the engine hooks of sim/transport.h, the model queries of sim/simulation.h, and
// run_isolated: one simulation in a child process (SimGrid allows one engine per process), stopped on Ctrl-C.
#include "sim/transport.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <simgrid/kernel/Timer.hpp>
#include <map>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "support/error.h"
#include "support/interrupt.h"
#include "support/spec.h"
#include "routing/routing.h"

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

namespace {

const Param* declared_option(const std::string& model, const std::string& name) {
  for (const Param& p : sim::model_registry().at(model).params)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

ParamValue model_option(const SimOptions& options, const std::string& name) {
  if (auto given = options.model_options.find(name); given != options.model_options.end()) return given->second;
  const Param* p = declared_option(options.model, name);
  if (!p) throw InternalError("model " + options.model + " reads an undeclared option '" + name + "'");
  return {p->number.value_or(0), p->text};
}

void set_model_option(SimOptions& options, const std::string& name, const std::string& text) {
  const Param* p = declared_option(options.model, name);
  if (!p) throw Error("unknown key '" + name + "' for model " + options.model);
  options.model_options[name] = read_param_text(*p, text);
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

namespace {
bool fifo_ties = false;
// SimGrid's timers (a transport with SimGrid comms). fifo_ties: the callbacks of each instant, in order.
std::map<double, std::vector<std::function<void()>>> due;

void run_due(double date) {
  auto& callbacks = due[date];
  for (size_t i = 0; i < callbacks.size(); ++i) {  // a callback may schedule more at this instant: they follow
    std::function<void()> callback = std::move(callbacks[i]);
    callback();
  }
  due.erase(date);
}
}  // namespace

// One queue per process: run_isolated gives each simulation a fresh child process.
void use_event_queue_only() {
  if (detail::event_queue) return;
  if (!due.empty() || simgrid::kernel::timer::Timer::next() >= 0)
    throw InternalError("use_event_queue_only after events were scheduled on SimGrid's timers");
  static EventQueue queue;
  queue.set_fifo_ties(fifo_ties);
  detail::event_queue = &queue;
}

void set_fifo_ties(bool fifo) {
  fifo_ties = fifo;
  if (detail::event_queue) detail::event_queue->set_fifo_ties(fifo);
}

void detail::simgrid_at(double date, std::function<void()> callback) {
  if (!fifo_ties) {
    simgrid::kernel::timer::Timer::set(date, std::move(callback));
    return;
  }
  auto& callbacks = due[date];
  if (callbacks.empty()) simgrid::kernel::timer::Timer::set(date, [date] { run_due(date); });
  callbacks.push_back(std::move(callback));
}

double detail::simgrid_now() { return simgrid::s4u::Engine::get_clock(); }

void run_events() {
  if (detail::event_queue) detail::event_queue->run();
  else simgrid::s4u::Engine::get_instance()->run();
}

}  // namespace sim

namespace {

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

// Child side: run SimGrid once, send back 'R' + result or 'E' + error text. SIGINT and SIGTERM come
// blocked; `mask` is the mask to set once the engine is built. SimGrid's engine installs a SIGINT
// handler that calls exit() from inside the simulation: the engine is torn down under its own feet
// and the child prints "Segmentation fault." (a Ctrl-C reaches every process of the terminal's
// group). So the child ignores both signals before it lets them in: the parent, which gets the same
// Ctrl-C (or a SIGTERM sent to it alone), kills and reaps the child, decides what to keep and says it;
// a parent that ignores them keeps its simulation; a parent that dies takes it along (PDEATHSIG).
[[noreturn]] void run_child(int fd, const std::function<std::vector<uint8_t>()>& work, const sigset_t& mask) {
  std::vector<uint8_t> payload;
  char kind = 'R';
  try {
    int argc = 2;
    char arg0[] = "mapsim", arg1[] = "--log=root.thres:critical";
    char* argv[] = {arg0, arg1, nullptr};
    simgrid::s4u::Engine engine(&argc, argv);
    std::signal(SIGINT, SIG_IGN);  // SimGrid's handler out (SIGTERM too, should a version add one)
    std::signal(SIGTERM, SIG_IGN);
    pthread_sigmask(SIG_SETMASK, &mask, nullptr);
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

namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop_signal(int signal) { g_stop_signal = signal; }

// SIGINT and SIGTERM while a simulation child runs: the caller's InterruptGuard when one lives, else
// a handler of this scope for those of the two whose action is the default (an ignored one stays ignored).
class StopSignals {
 public:
  StopSignals() : caller_polls_(InterruptGuard::active()) {
    g_stop_signal = 0;
    if (caller_polls_) return;
    for (int s : {SIGINT, SIGTERM}) {
      struct sigaction prior {};
      if (sigaction(s, nullptr, &prior) != 0 || prior.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = on_stop_signal;
      sigemptyset(&action.sa_mask);
      sigaction(s, &action, nullptr);
      replaced_.push_back({s, prior});
    }
  }
  ~StopSignals() {
    for (const auto& [s, prior] : replaced_) sigaction(s, &prior, nullptr);
    if (!caller_polls_ && g_stop_signal != 0) raise(g_stop_signal);  // came after the last look: its default action now
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  bool caller_polls() const { return caller_polls_; }
  int caught() const { return caller_polls_ ? InterruptGuard::signal_number() : g_stop_signal; }
  // The caught signal's default action (this process ends as it would have without this scope).
  [[noreturn]] void take_effect(const sigset_t& mask) {
    const int signal = g_stop_signal;
    std::signal(signal, SIG_DFL);
    pthread_sigmask(SIG_SETMASK, &mask, nullptr);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signal);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    raise(signal);
    _exit(128 + signal);
  }

 private:
  bool caller_polls_;
  std::vector<std::pair<int, struct sigaction>> replaced_;
};

}  // namespace

// The simulation runs in a forked child, so that SimGrid's global state starts fresh each time; the
// child never outlives this call. SIGINT and SIGTERM, sent to this process alone (`timeout`, a batch
// system's time limit) or to its whole group (a terminal's Ctrl-C: the child ignores them), end and
// reap the child first, which prints nothing: a caller polling an InterruptGuard gets an Error
// (its loop then stops), any other the signal's own effect afterwards. A parent that dies otherwise
// (SIGKILL, a crash) takes the child along (PR_SET_PDEATHSIG).
std::vector<uint8_t> run_isolated(const std::function<std::vector<uint8_t>()>& work) {
  StopSignals stops_here;
  // The two signals are blocked but inside ppoll(), so none slips in between a check and a wait.
  sigset_t stops, before;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, &before);
  struct MaskRestore {
    const sigset_t& mask;
    ~MaskRestore() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } mask_restore{before};
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error(std::string("cannot fork the simulation: ") + std::strerror(error));
  }
  if (pid == 0) {
    restore_default_interrupts();  // no guard lives here: the parent ends this child and decides what to keep
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(4);  // the parent died before prctl
    ::close(fds[0]);
    run_child(fds[1], work, before);  // SIGINT and SIGTERM stay blocked until SimGrid's handler is gone
  }
  ::close(fds[1]);
  struct Child {
    pid_t pid;
    int fd;
    int status = 0;
    bool reaped = false;
    void end(bool kill_it) {  // kill (unless it is done) and reap
      if (fd >= 0) ::close(std::exchange(fd, -1));
      if (reaped) return;
      if (kill_it) ::kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      reaped = true;
    }
    ~Child() { end(true); }
  } child{pid, fds[0]};
  // Ends the child and lets an interrupt take effect.
  const auto on_interrupt = [&] {
    if (stops_here.caught() == 0) return;
    child.end(true);
    if (stops_here.caller_polls()) throw Error("the simulation was interrupted");
    stops_here.take_effect(before);
  };
  std::vector<uint8_t> data;
  uint8_t buffer[1 << 16];
  while (stops_here.caught() == 0) {
    pollfd ready{child.fd, POLLIN, 0};
    if (ppoll(&ready, 1, nullptr, &before) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.insert(data.end(), buffer, buffer + n);
  }
  on_interrupt();
  child.end(false);  // it closed its end: it is exiting
  pthread_sigmask(SIG_SETMASK, &before, nullptr);  // a signal that came meanwhile is handled now
  on_interrupt();
  const int status = child.status;
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

long sim::peak_memory_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace mapsim
