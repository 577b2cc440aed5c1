#include "tracer/reorder/reorder_plan.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <unistd.h>

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "mappers/mapper.h"
#include "mappers/metrics.h"
#include "routing/routed_network.h"
#include "support/created_file.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/units.h"
#include "topologies/network_factory.h"

namespace mapsim::reorder {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The variable's integer, or `fallback` with the first malformed one said in `problem`.
long env_number(const char* name, long fallback, long least, std::string& problem) {
  const std::string text = env(name);
  if (text.empty()) return fallback;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (*end == '\0' && errno == 0 && value >= least) return value;
  if (problem.empty()) problem = std::string(name) + "='" + text + "': expected an integer >= " + std::to_string(least);
  return fallback;
}

// The files a network spec names (file:PATH, ibnet:PATH,lft=PATH), as inputs; nothing for a spec that
// does not parse.
void note_network_files(const std::string& text) {
  try {
    const SpecSyntax syntax = network_registry().syntax();
    const Spec spec = syntax.parse(text);
    if (syntax.path_valued.count(spec.name()) && spec.positional()) note_input(*spec.positional(), "MAPSIM_NETWORK file");
    for (const auto& [key, value] : spec.values())
      if (syntax.path_keys.count(key)) note_input(value, "MAPSIM_NETWORK file");
  } catch (const std::exception&) {
  }
}

// A spec whose generator takes a seed and was given none gets MAPSIM_SEED, as `mapsim map --seed`
// does, so that an irregular network here is the one the CLI builds.
std::string seeded_spec(const std::string& text, uint64_t seed) {
  const SpecSyntax syntax = network_registry().syntax();
  const Spec spec = syntax.parse(text);
  if (!syntax.seeded.count(spec.name()) || spec.has("seed")) return text;
  return text + (text.find(':') == std::string::npos ? ":" : ",") + "seed=" + std::to_string(seed);
}

// Built once per run: a program may create several topologies on one machine.
const RoutedNetwork& routed_network(const Settings& s) {
  static std::unique_ptr<RoutedNetwork> cached;
  static std::string key;
  const std::string spec = seeded_spec(s.network, s.seed);
  if (!cached || key != spec + "\n" + s.routing) {
    cached.reset();
    cached = std::make_unique<RoutedNetwork>(make_network(spec), s.routing);
    key = spec + "\n" + s.routing;
  }
  return *cached;
}

// Lines of a host list, one host per MPI_COMM_WORLD rank (first word; blank and '#' lines skipped).
std::vector<std::string> read_host_list(const std::string& path) {
  std::ifstream in = open_input(path, "MAPSIM_HOSTFILE");
  std::vector<std::string> hosts;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    if (words >> word && word[0] != '#') hosts.push_back(word);
  }
  return hosts;
}

// The node of each process: its hostfile line, else its processor name; a name not found as is is
// tried without its domain ("cn12.cluster" -> "cn12").
std::vector<int> process_nodes(const Request& r, const Settings& s, const Network& net) {
  std::map<std::string, int> by_name;
  for (int n = 0; n < net.num_nodes(); ++n) by_name.emplace(net.node(n).name, n);
  std::vector<std::string> hosts = r.processor_names;
  if (!s.hostfile.empty()) {
    const std::vector<std::string> lines = read_host_list(s.hostfile);
    for (size_t p = 0; p < hosts.size(); ++p) {
      if (r.world_ranks[p] >= static_cast<int>(lines.size()))
        throw Error("MAPSIM_HOSTFILE " + s.hostfile + " has " + std::to_string(lines.size()) +
                    " hosts; MPI_COMM_WORLD rank " + std::to_string(r.world_ranks[p]) + " has none");
      hosts[p] = lines[r.world_ranks[p]];
    }
  }
  std::vector<int> node(hosts.size());
  for (size_t p = 0; p < hosts.size(); ++p) {
    auto it = by_name.find(hosts[p]);
    if (it == by_name.end()) it = by_name.find(hosts[p].substr(0, hosts[p].find('.')));
    if (it == by_name.end())
      throw Error("unknown host '" + hosts[p] + "' (rank " + std::to_string(p) + "): not a node of " + s.network);
    node[p] = it->second;
  }
  return node;
}

// mapsim's log messages (a mapper's warnings) go to the reorder log, not to the program's stdout.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>("mapsim-reorder", std::make_shared<spdlog::sinks::ostream_sink_st>(text_));
    logger->set_pattern("mapsim %l: %v");
    logger->set_level(spdlog::level::warn);
    spdlog::set_default_logger(logger);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::shared_ptr<spdlog::logger> previous_;
};

std::string header(const Request& r) {
  return r.call + ": " + std::to_string(r.processor_names.size()) + " ranks";
}

void write_costs(std::ostream& out, const MappingMetrics& before, const MappingMetrics& after) {
  auto row = [&](const char* key, double b, double a) {
    out << "  " << key << std::string(22 - std::string(key).size(), ' ') << format_number(b) << " -> " << format_number(a) << "\n";
  };
  out << "cost (identity order -> reordered):\n";
  row("hop_bytes", before.hop_bytes, after.hop_bytes);
  row("weighted_cardinality", before.weighted_cardinality, after.weighted_cardinality);
  row("max_link_load", before.max_link_load, after.max_link_load);
  row("zero_load_latency_us", before.zero_load_latency * 1e6, after.zero_load_latency * 1e6);
  row("gamma_c", before.gamma_c, after.gamma_c);
}

Plan plan_or_throw(const Request& r, const Settings& s) {
  const ProcessGraph& graph = *r.graph;
  const int tasks = graph.num_tasks();
  if (static_cast<int>(r.processor_names.size()) != tasks || r.world_ranks.size() != r.processor_names.size())
    throw InternalError("reorder: " + std::to_string(r.processor_names.size()) + " processes for " + std::to_string(tasks) + " tasks");
  if (static_cast<long>(graph.edges().size()) > s.max_edges)
    throw Error("the graph has " + std::to_string(graph.edges().size()) + " edges, above MAPSIM_REORDER_MAX_EDGES=" +
                std::to_string(s.max_edges));
  if (s.network.empty()) throw Error("MAPSIM_NETWORK is not set");
  const RoutedNetwork& routed = routed_network(s);
  const Network& net = routed.network();
  const std::vector<int> node = process_nodes(r, s, net);
  // The allocation: the occupied nodes in network order, each with its processes as slots.
  std::map<int, int> count;
  for (int n : node) ++count[n];
  MappingProblem problem;
  problem.network = &routed;
  problem.graph = &graph;
  problem.seed = s.seed;
  for (const auto& [n, processes] : count) {
    problem.nodes.push_back(n);
    problem.slots.push_back(processes);
  }
  problem.routes_fixed = !routed.routing().decides_at_injection();  // as `mapsim map` (deterministic paths)
  const std::unique_ptr<Mapper> mapper = make_mapper(s.mapper);
  mapper->check(problem);
  const auto start = std::chrono::steady_clock::now();
  const Placement placement = mapper->map(problem);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_placement(problem, placement);

  Plan plan;
  plan.new_rank = ranks_for_placement(placement, node);
  plan.reordered = true;
  std::ostringstream log;
  log << header(r) << ", graph: ";
  if (graph.family != "graph") log << graph.family;
  for (size_t d = 0; d < graph.dims.size(); ++d) log << (d ? "x" : " ") << graph.dims[d];
  log << (graph.family != "graph" ? ", " : "") << graph.edges().size() << " edges, volume " << format_number(graph.total_volume()) << "\n";
  log << "network " << s.network << " (routing " << s.routing << "), " << count.size() << " nodes occupied:";
  for (const auto& [n, processes] : count) log << " " << net.node(n).name << "x" << processes;
  log << "\nmapper " << s.mapper << " (seed " << s.seed << ", " << format_number(seconds, 3) << " s)\n";
  write_costs(log, evaluate(problem, node), evaluate(problem, placement));
  log << "new rank <- old rank, node:\n";
  std::vector<int> old_of(tasks);
  for (int p = 0; p < tasks; ++p) old_of[plan.new_rank[p]] = p;
  for (int t = 0; t < tasks; ++t) log << "  " << t << " <- " << old_of[t] << ", " << net.node(placement[t]).name << "\n";
  plan.log = log.str();
  return plan;
}

}  // namespace

Settings settings_from_environment() {
  Settings s;
  s.network = env("MAPSIM_NETWORK");
  if (const std::string m = env("MAPSIM_MAPPER"); !m.empty()) s.mapper = m;
  if (const std::string r = env("MAPSIM_ROUTING"); !r.empty()) s.routing = r;
  s.seed = static_cast<uint64_t>(env_number("MAPSIM_SEED", 1, 0, s.problem));
  s.hostfile = env("MAPSIM_HOSTFILE");
  s.log = env("MAPSIM_REORDER_LOG");
  s.max_edges = env_number("MAPSIM_REORDER_MAX_EDGES", s.max_edges, 0, s.problem);
  if (!s.hostfile.empty()) note_input(s.hostfile, "MAPSIM_HOSTFILE");
  note_network_files(s.network);
  return s;
}

Plan identity_plan(const std::string& call, int processes, const std::string& reason) {
  Plan plan;
  plan.new_rank.resize(processes);
  std::iota(plan.new_rank.begin(), plan.new_rank.end(), 0);
  plan.warning = call + " with reorder = 1: ranks kept in their order: " + reason;
  plan.log = call + ": " + std::to_string(processes) + " ranks: identity order kept: " + reason + "\n";
  return plan;
}

Plan plan_reorder(const Request& request, const Settings& settings) {
  const int processes = static_cast<int>(request.processor_names.size());
  try {
    CapturedLog capture;
    Plan plan;
    try {
      plan = plan_or_throw(request, settings);
    } catch (const std::exception& e) {
      plan = identity_plan(request.call, processes, e.what());
    }
    plan.log += capture.text();
    return plan;
  } catch (...) {
    return identity_plan(request.call, processes, "unexpected failure");
  }
}

std::vector<int> ranks_for_placement(const Placement& placement, const std::vector<int>& process_node) {
  std::map<int, std::vector<int>> tasks_on;  // node -> tasks placed there, in task order
  for (size_t t = 0; t < placement.size(); ++t) tasks_on[placement[t]].push_back(static_cast<int>(t));
  std::map<int, size_t> taken;
  std::vector<int> new_rank(process_node.size());
  for (size_t p = 0; p < process_node.size(); ++p) {
    const std::vector<int>& tasks = tasks_on[process_node[p]];
    size_t& next = taken[process_node[p]];
    if (next >= tasks.size())
      throw InternalError("reorder: node " + std::to_string(process_node[p]) + " has more processes than tasks placed on it");
    new_rank[p] = tasks[next++];
  }
  return new_rank;
}

bool append_log(const std::string& path, const std::string& text, std::string& why) {
  static std::string opened, refusal;  // the run's log, and why it was refused
  static int fd = -1;
  if (path.empty()) return true;
  if (path != opened) {  // the first call (the variable is read again at each)
    if (fd >= 0) ::close(fd);
    opened = path;
    fd = open_appended_file(path, refusal);
  }
  if (fd < 0) {
    why = refusal;
    return false;
  }
  return write_all(fd, text, path, why);
}

}  // namespace mapsim::reorder
