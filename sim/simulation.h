// What a simulation takes and gives: the registered models and their queries, SimOptions (with the
// built-in model options) and SimResult. simulate.h runs one.
#pragma once
#include <nlohmann/json.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mappers/mapping.h"
#include "support/registry.h"
#include "sim/ocs.h"
#include "routing/routed_network.h"
#include "traces/collective_choice.h"
#include "traces/ti_trace.h"

namespace mapsim {

// The simulation models, registered from their transports' files (sim/transport.h): flow,
// store-and-forward (alias saf), packet. parse_model returns the registered name.
std::string parse_model(const std::string& name);
bool model_carries_circuits(const std::string& model);  // optical circuits need relay nodes (port models)
std::vector<ComponentInfo> model_infos();
// The parameters a model (or an alias of it) declares; none for an unknown name.
std::vector<Param> model_params(const std::string& name);

// Who solves the flow model's bandwidth sharing: mapsim's incremental max-min solver, or SimGrid's
// CM02 model with one SimGrid comm per message (the reference; same rates, much slower).
enum class FlowSolver { Mapsim, SimGrid };
FlowSolver parse_flow_solver(const std::string& name);  // mapsim | simgrid

// How a model picks among a multipath routing's paths: deterministic (the routing's table route),
// ecmp (per flow: a hash of source, destination and tag), spray (per packet, at random) or adaptive
// (per packet and hop, the least backlogged port). spray and adaptive need a port model.
enum class PathSelection { Deterministic, Ecmp, Spray, Adaptive };
PathSelection parse_path_selection(const std::string& name);
std::string path_selection_name(PathSelection selection);
// Before anything is built or run: throw when paths are to be chosen per packet from queue state on
// a model that has no queues (flow) -- by `selection` (spray, adaptive), or by the routing named
// `routing` (UGAL; "default" is not checked).
void check_path_selection(PathSelection selection, const std::string& model);
void check_routing_choice(const std::string& routing, const std::string& model);

// Where a running simulation is, for progress lines: simulated seconds, engine events, messages
// delivered, and trace actions started of all ranks' actions.
struct SimProgress {
  double simulated = 0;
  long events = 0, messages = 0, actions_done = 0, actions_total = 0;
};

// Several jobs in one simulation: each is a consecutive range of the trace's ranks and its own
// MPI_COMM_WORLD (peers and collectives are the job's own ranks, numbered from 0), and starts
// `start` seconds after time 0 or, with `after` >= 0, after every rank of job `after` has finished.
struct JobSpan {
  int first_rank = 0, ranks = 0;
  double start = 0;
  int after = -1;
};
// Throws Error unless `jobs` cover 0..ranks-1 in order, starts are finite and >= 0, and every `after`
// names another job with no cycle. No jobs: one job of every rank, at time 0.
void check_job_spans(const std::vector<JobSpan>& jobs, int ranks);

// Links that fail during the run (the scenario's failures.at): from `at` on, messages take the routes of
// `routed`, the network left (its link k is link original_link[k] of the simulated network), as a fabric
// manager reroutes; messages already on their way finish on theirs.
struct LinkFailure {
  double at = 0;
  std::shared_ptr<const RoutedNetwork> routed;
  std::vector<int> original_link;
};

struct SimOptions {
  std::string model = "flow";           // a registered model
  double eager_threshold = 65536;      // bytes; SMPI's smpi/send-is-detached-thresh
  double mtu = 4096;                   // packet model, bytes
  double flops = 1e9;                  // node speed for compute actions, flop/s
  double intra_node_bandwidth = 1e10;  // ranks on one node, bytes/s (no network resources), unless the network
                                       // describes its nodes' insides: then the bandwidth of the level they share
  double envelope = 16;                // bytes added to every message on the wire (SMPI's MPI envelope)
  double test_time = 1e-4;             // seconds a `test` action takes before it tests (SMPI's smpi/test)
  CollectiveChoice collectives;        // alltoall, alltoallv, allgatherv algorithms (traces/collective_choice.h)
  bool smpi_sharing = false;           // flow: share bandwidth weighted by route latency, as SMPI
  FlowSolver flow_solver = FlowSolver::Mapsim;
  double flow_tolerance = 0;           // flow (mapsim solver): 0 exact; eps > 0 batches solves (docs/simulation.md)
  bool record_messages = false;        // keep one MessageRecord per message
  bool record_timeline = false;        // keep each rank's compute and wait intervals (RankInterval)
  bool fifo_ties = false;              // events of one instant in scheduling order (sim/transport.h set_fifo_ties)
  PathSelection path_selection = PathSelection::Deterministic;
  uint64_t seed = 1;                   // random path choices (Valiant groups, spraying, adaptive ties)
  std::optional<OcsConfig> ocs;        // a hybrid network: optical circuits beside the EPS (port models only)
  std::optional<LinkFailure> link_failure;
  std::map<std::string, ParamValue> model_options;  // the model's own keys, read by its declarations (scenario model: map)
  // Each rank's slot (core) on its node for a placement, where the network describes its nodes' insides
  // (the run pipeline gives mappers/core_placement.h's place_on_cores); none: the node's ranks in rank order.
  std::function<std::vector<int>(const Placement&)> rank_cores;
  // Called up to ten times a second of wall-clock time, in the simulating (child) process.
  std::function<void(const SimProgress&)> progress;
};

// A model's own option, as its factory reads it: the value given (typed by the model's declaration when
// the scenario read it), else the declared default. InternalError for a key the model does not declare.
ParamValue model_option(const SimOptions& options, const std::string& name);
// Sets a model's own option from text, read by options.model's declaration of `name`: throws Error for a
// key that model does not declare or a value out of its range (what the scenario checks at FILE:LINE).
void set_model_option(SimOptions& options, const std::string& name, const std::string& text);

// The options every model takes, declared once (support/param.h: name, type, default -- SimOptions' own
// --, range, description): each is the scenario key model.NAME (and so --set model.NAME=, sweep keys),
// `mapsim simulate`'s flag with its --help text, and one range that the scenario, the flags and
// simulate() check. The scenario reads a value by its declaration (YamlReader::param) and set() stores
// it; a model's own options (its registration's params) are read the same way. The packet model
// declares the `mtu` of this table.
struct ModelOption {
  Param param;
  std::string flag;                   // `mapsim simulate`'s flag, "--mtu"; empty: none
  std::function<std::string()> help;  // its --help text (late: it may list registered components)
  double SimOptions::*field = nullptr;  // a number, stored as read (SI base units) ...
  // ... or text, turned into its field; throws Error "NAME: ..." for text the option does not take.
  std::function<void(SimOptions&, const std::string&)> set_text;
  void set(SimOptions& options, const ParamValue& value) const;
};
const std::vector<ModelOption>& builtin_model_options();
const ModelOption& builtin_model_option(const std::string& name);  // InternalError for an undeclared name
// Throws Error "simulation parameters: NAME must be RANGE" for a number outside its declaration
// (simulate() and simulate_traffic() check the options they are given).
void check_model_options(const SimOptions& options);

struct PortLoad {
  double bytes = 0;
  double messages = 0;  // messages (packets in the packet model count once per message)
  double busy = 0;      // seconds spent serialising
};

struct MessageRecord {
  int src, dst, tag;
  double bytes, posted, started, delivered;
  int hops;
  bool distant, collective;
};

// A span of one rank's simulated time: computing (a compute or sleep action), or blocked in the
// named action ("wait", "waitall", "recv", "allreduce", ...) until its messages completed.
struct RankInterval {
  int rank;
  std::string state;
  double start, end;
};

struct LatencyStats {
  long count = 0;
  double mean = 0, p50 = 0, p99 = 0, max = 0;
};

// The flit model's congestion (empty for the other models): per directed switch channel (Network::channel),
// the seconds its sender had a flit ready but no credit or no free VC downstream; buffer occupancy per
// switch level (0: switches with nodes, then by hops from them); packets' time queued at the source NIC
// and in the network (injection of the head to delivery of the tail), means over all packets.
struct BufferLevel {
  int level = 0;
  double mean_flits = 0, max_flits = 0;  // per input port of the level's switches
};
struct Congestion {
  std::vector<double> channel_blocked;
  std::vector<BufferLevel> levels;
  long packets = 0;
  double queueing = 0, network = 0;
};

struct SimResult {
  std::string model;
  double makespan = 0;                 // simulated seconds until the last rank finished
  std::vector<double> rank_finish;
  std::vector<double> job_start;       // when each job's ranks started (one entry without JobSpans)
  long messages = 0;
  double bytes = 0;
  LatencyStats latency;                // send invoked -> data delivered, all messages
  LatencyStats neighbour_latency;      // synthetic workloads: neighbour partners
  LatencyStats distant_latency;        //                      random distant partners
  double zero_load_latency = 0;        // mean t_s + d t_p + (d+1) t_r over the same messages
  std::vector<PortLoad> channels;      // per directed switch-to-switch channel (Network::channel)
  std::vector<PortLoad> node_out, node_in;  // per node: injection and ejection links
  std::vector<double> switch_bytes;    // bytes received by each switch (takizawa2008's S0 load)
  // Hybrid networks: the static circuits (node pairs) and their loads, messages that took circuits,
  // summed waits for circuit set-up, and the makespan of the same run on the EPS alone.
  std::vector<std::pair<int, int>> circuits;
  std::vector<PortLoad> circuit_loads;
  double circuit_bandwidth = 0;
  long optical_messages = 0;
  double setup_wait = 0;
  double eps_only_makespan = 0;
  double max_link_load = 0;            // bytes on the busiest switch-to-switch channel
  double max_link_utilisation = 0;
  long events = 0;
  double wall_seconds = 0;
  double solver_seconds = 0;           // of wall_seconds, in the bandwidth sharing solver (flow model)
  long peak_memory_kb = 0;             // of the simulating process
  std::vector<MessageRecord> message_log;
  std::vector<RankInterval> timeline;  // with record_timeline, in the order the intervals ended
  Congestion congestion;               // the flit model's
};

// The field tables of the results (JSON / MessagePack), written once.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PortLoad, bytes, messages, busy)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MessageRecord, src, dst, tag, bytes, posted, started, delivered, hops, distant, collective)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LatencyStats, count, mean, p50, p99, max)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankInterval, rank, state, start, end)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BufferLevel, level, mean_flits, max_flits)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Congestion, channel_blocked, levels, packets, queueing, network)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SimResult, model, makespan, rank_finish, job_start, messages, bytes, latency, neighbour_latency,
                                   distant_latency, zero_load_latency, channels, node_out, node_in, switch_bytes, circuits,
                                   circuit_loads, circuit_bandwidth, optical_messages, setup_wait, eps_only_makespan,
                                   max_link_load, max_link_utilisation, events, wall_seconds, solver_seconds, peak_memory_kb, message_log,
                                   timeline, congestion)

// Whether a simulation draws on options.seed (random Valiant groups, spraying, adaptive ties, ECMP
// walks); false: the result depends on the network, placement and trace alone.
bool simulation_uses_seed(const RoutedNetwork& routed, const SimOptions& options);

}  // namespace mapsim
