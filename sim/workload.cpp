#include "sim/workload.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "traces/action_ops.h"
#include "support/error.h"
#include "support/units.h"
#include "support/random.h"
#include "support/spec.h"

namespace mapsim {
namespace {

Action point_to_point(ActionType type, int peer, double bytes, bool distant = false) {
  Action a{type};
  a.peer = peer;
  a.bytes = bytes;
  a.distant = distant;
  return a;
}

Trace empty_trace(int ranks) {
  Trace trace;
  trace.ranks.resize(ranks);
  for (auto& r : trace.ranks) {
    r.file = "(synthetic)";
    r.actions.push_back(Action{ActionType::Init});
  }
  return trace;
}

void finish_trace(Trace& trace) {
  for (auto& r : trace.ranks) r.actions.push_back(Action{ActionType::Finalize});
}

void add_compute(Trace& trace, double flops) {
  if (flops <= 0) return;
  Action a{ActionType::Compute};
  a.flops = flops;
  for (auto& r : trace.ranks) r.actions.push_back(a);
}


Trace exchange(Spec& spec, const ProcessGraph& graph, long iterations) {
  const std::optional<double> size = spec.find_number("size");
  const double flops = spec.get_double("compute");
  if (graph.edges().empty()) throw Error("workload exchange: the process graph has no edges");
  const int n = graph.num_tasks();
  Trace trace = empty_trace(n);
  struct Partner {
    int peer;
    double bytes;
    bool distant;
  };
  std::vector<std::vector<Partner>> partners(n);
  for (const ProcessEdge& e : graph.edges()) {
    const double bytes = size ? *size : e.volume;
    partners[e.a].push_back({e.b, bytes, e.distant});
    partners[e.b].push_back({e.a, bytes, e.distant});
  }
  for (long it = 0; it < iterations; ++it) {
    for (int t = 0; t < n; ++t) {
      auto& actions = trace.ranks[t].actions;
      for (const Partner& p : partners[t]) actions.push_back(point_to_point(ActionType::Irecv, p.peer, p.bytes));
      for (const Partner& p : partners[t]) actions.push_back(point_to_point(ActionType::Isend, p.peer, p.bytes, p.distant));
      actions.push_back(Action{ActionType::Waitall});
    }
    add_compute(trace, flops);
  }
  return trace;
}

Trace alltoall(Spec& spec, const ProcessGraph& graph, long iterations) {
  Trace trace = empty_trace(graph.num_tasks());
  Action a{ActionType::Alltoall};
  a.bytes = a.bytes2 = spec.get_size("size");
  for (long it = 0; it < iterations; ++it)
    for (auto& r : trace.ranks) r.actions.push_back(a);
  return trace;
}

Trace permutation(Spec& spec, const ProcessGraph& graph, long iterations) {
  const int n = graph.num_tasks();
  Trace trace = empty_trace(n);
  const double size = spec.get_size("size");
  Rng rng(static_cast<uint64_t>(spec.get_int("seed")));
  for (long it = 0; it < iterations; ++it) {
    std::vector<int> to(n);
    std::iota(to.begin(), to.end(), 0);
    rng.shuffle(to);
    std::vector<int> from(n);
    for (int r = 0; r < n; ++r) from[to[r]] = r;
    for (int r = 0; r < n; ++r) {
      auto& actions = trace.ranks[r].actions;
      actions.push_back(point_to_point(ActionType::Irecv, from[r], size));
      actions.push_back(point_to_point(ActionType::Isend, to[r], size));
      actions.push_back(Action{ActionType::Waitall});
    }
  }
  return trace;
}

const Param kIterations = integer_param("iterations", 1, "repetitions of the pattern", 1);

// The messages action `a` of `rank` sends to other ranks, collectives expanded as the engine runs
// them with `choice`: f(destination, bytes, collective). `ops` is scratch.
template <typename F>
void for_each_message(const Action& a, const RankTrace& context, int rank, int ranks, const CollectiveChoice& choice,
                      std::vector<Op>& ops, F f) {
  ops.clear();
  expand_action(a, context, rank, ranks, ops, choice);
  for (const Op& op : ops)
    if (op.kind == Op::Isend && op.peer != rank) f(op.peer, op.amount, op.collective);
}

}  // namespace

WorkloadRegistry& workload_registry() {
  static WorkloadRegistry registry("workload");
  return registry;
}

MAPSIM_REGISTER(workload_registry(),
                {"exchange", "per iteration every rank posts an irecv and an isend per graph edge, waitall, then compute",
                 {derived_param("size", ParamType::Size, "edge volume", "bytes per message", 0),
                  real_param("compute", 0, "flops of compute after each iteration", 0), kIterations},
                 exchange});
MAPSIM_REGISTER(workload_registry(), {"alltoall", "MPI_Alltoall of `size` bytes per pair",
                                      {size_param("size", 1024, "bytes per rank pair"), kIterations}, alltoall});
MAPSIM_REGISTER(workload_registry(),
                {"permutation", "rank r sends to p(r) for a random permutation p, new each iteration",
                 {size_param("size", 1024, "bytes per message"), integer_param("seed", 1, "random seed", 0), kIterations},
                 permutation});

MAPSIM_REGISTER(process_registry(), {"trace", "a recorded program's point-to-point volume per rank pair", {},
                                     [](Spec& spec) { return trace_process_graph(read_ti_trace(spec.require_positional("PATH"))); },
                                     "PATH", "path"});

Trace make_workload(const std::string& text, const ProcessGraph& graph) {
  Spec spec = parse_spec(workload_registry(), text);
  const auto& entry = lookup(workload_registry(), spec);
  const long iterations = spec.get_int("iterations");
  if (graph.num_tasks() < 1) throw Error("workload '" + text + "': the process graph has no tasks");
  // Every pattern posts at most 4 actions per edge and 3 per task an iteration: refuse before building.
  const double actions = static_cast<double>(iterations) *
                         (4.0 * static_cast<double>(graph.edges().size()) + 3.0 * graph.num_tasks());
  if (actions > static_cast<double>(kMaxWorkloadActions))
    throw Error("workload '" + text + "': about " + format_number(actions, 3) + " actions, above the limit of " +
                std::to_string(kMaxWorkloadActions) + " (fewer iterations, or record a trace)");
  Trace trace = entry.factory(spec, graph, iterations);
  spec.finish();
  finish_trace(trace);
  return trace;
}

std::map<std::pair<int, int>, PairVolume> communication_matrix(const std::string& path, bool legacy,
                                                               const CollectiveChoice& choice) {
  std::map<std::pair<int, int>, PairVolume> cells;
  std::vector<Op> ops;
  visit_ti_trace(path, legacy, [&](int rank, const Action& a, const RankTrace& context, int ranks) {
    for_each_message(a, context, rank, ranks, choice, ops, [&](int peer, double bytes, bool collective) {
      PairVolume& cell = cells[{rank, peer}];
      (collective ? cell.collective_bytes : cell.p2p_bytes) += bytes;
      ++(collective ? cell.collective_messages : cell.p2p_messages);
    });
  });
  return cells;
}

std::vector<TaskTraffic> task_traffic(const Trace& trace, const CollectiveChoice& choice) {
  std::map<std::pair<int, int>, double> bytes;
  std::vector<Op> ops;
  for (int r = 0; r < trace.num_ranks(); ++r)
    for (const Action& a : trace.ranks[r].actions)
      for_each_message(a, trace.ranks[r], r, trace.num_ranks(), choice, ops,
                       [&](int peer, double amount, bool) { bytes[{r, peer}] += amount; });
  std::vector<TaskTraffic> traffic;
  for (const auto& [pair, amount] : bytes) traffic.push_back({pair.first, pair.second, amount});
  return traffic;
}

ProcessGraph trace_process_graph(const Trace& trace) {
  std::map<std::pair<int, int>, double> volume;
  for (int r = 0; r < trace.num_ranks(); ++r)
    for (const Action& a : trace.ranks[r].actions) {
      const bool send = a.type == ActionType::Send || a.type == ActionType::Isend;
      if ((send || a.type == ActionType::SendRecv) && a.peer != r)
        volume[{std::min(r, a.peer), std::max(r, a.peer)}] += a.bytes;
    }
  ProcessGraph graph(trace.num_ranks());
  graph.family = "trace";
  for (const auto& [pair, bytes] : volume) graph.add_edge(pair.first, pair.second, bytes / 2);  // volume: each way
  return graph;
}

CommSchedule communication_schedule(const Trace& trace, const CollectiveChoice& choice) {
  std::vector<std::vector<PhaseMessage>> steps;
  long messages = 0;
  std::vector<Op> ops;
  for (int r = 0; r < trace.num_ranks(); ++r) {
    size_t step = 0;
    bool sent = false;
    for (const Action& a : trace.ranks[r].actions) {
      ops.clear();
      expand_action(a, trace.ranks[r], r, trace.num_ranks(), ops, choice);
      for (const Op& op : ops) {
        if (op.kind == Op::Isend && op.peer != r) {
          if (steps.size() <= step) steps.resize(step + 1);
          steps[step].push_back({r, op.peer, op.amount});
          sent = true;
          ++messages;
        } else if (sent && (op.kind == Op::WaitGroup || op.kind == Op::WaitKey || op.kind == Op::WaitAll)) {
          ++step;
          sent = false;
        }
      }
      if (messages > kMaxScheduleMessages) {  // too long to keep step by step: the job's totals
        CommSchedule total;
        total.phases.emplace_back();
        for (const TaskTraffic& t : task_traffic(trace, choice)) total.phases[0].messages.push_back({t.from, t.to, t.bytes});
        return total;
      }
    }
  }
  CommSchedule schedule;
  std::map<std::vector<std::tuple<int, int, double>>, size_t> seen;  // a phase's messages -> its index
  for (std::vector<PhaseMessage>& step : steps) {
    std::vector<std::tuple<int, int, double>> key;
    for (const PhaseMessage& m : step) key.emplace_back(m.from, m.to, m.bytes);
    std::sort(key.begin(), key.end());
    auto [it, inserted] = seen.emplace(std::move(key), schedule.phases.size());
    if (!inserted) {
      schedule.phases[it->second].repeat += 1;
      continue;
    }
    CommPhase phase;
    for (const auto& [from, to, bytes] : it->first) phase.messages.push_back({from, to, bytes});
    schedule.phases.push_back(std::move(phase));
  }
  return schedule;
}

}  // namespace mapsim
