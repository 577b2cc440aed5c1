#include "sim/workload.h"

#include <map>
#include <numeric>

#include "sim/ops.h"
#include "support/error.h"
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

}  // namespace

Trace make_workload(const std::string& text, const ProcessGraph& graph) {
  Spec spec = Spec::parse(text);
  const int n = graph.num_tasks();
  const long iterations = spec.get_int("iterations", 1);
  if (iterations < 1) throw Error("workload '" + text + "': iterations must be at least 1");
  if (n < 1) throw Error("workload '" + text + "': the process graph has no tasks");
  Trace trace = empty_trace(n);

  if (spec.name() == "exchange") {
    const double size = spec.get_size("size", -1);
    const double flops = spec.get_double("compute", 0);
    spec.finish();
    if (graph.edges().empty()) throw Error("workload exchange: the process graph has no edges");
    struct Partner {
      int peer;
      double bytes;
      bool distant;
    };
    std::vector<std::vector<Partner>> partners(n);
    for (const ProcessEdge& e : graph.edges()) {
      const double bytes = size >= 0 ? size : e.volume;
      partners[e.a].push_back({e.b, bytes, e.distant});
      partners[e.b].push_back({e.a, bytes, e.distant});
    }
    for (long it = 0; it < iterations; ++it) {
      for (int t = 0; t < n; ++t) {
        auto& actions = trace.ranks[t].actions;
        for (const Partner& p : partners[t]) actions.push_back(point_to_point(ActionType::Irecv, p.peer, p.bytes));
        for (const Partner& p : partners[t])
          actions.push_back(point_to_point(ActionType::Isend, p.peer, p.bytes, p.distant));
        actions.push_back(Action{ActionType::Waitall});
      }
      add_compute(trace, flops);
    }
  } else if (spec.name() == "alltoall") {
    const double size = spec.get_size("size", 1024);
    spec.finish();
    Action a{ActionType::Alltoall};
    a.bytes = a.bytes2 = size;
    for (long it = 0; it < iterations; ++it)
      for (auto& r : trace.ranks) r.actions.push_back(a);
  } else if (spec.name() == "permutation") {
    const double size = spec.get_size("size", 1024);
    Rng rng(static_cast<uint64_t>(spec.get_int("seed", 1)));
    spec.finish();
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
  } else {
    throw Error("unknown workload '" + spec.name() + "': expected exchange, alltoall or permutation");
  }
  finish_trace(trace);
  return trace;
}

std::map<std::pair<int, int>, PairVolume> communication_matrix(const std::string& path, bool legacy) {
  std::map<std::pair<int, int>, PairVolume> cells;
  std::vector<sim::Op> ops;
  visit_ti_trace(path, legacy, [&](int rank, const Action& a, const RankTrace& context, int ranks) {
    ops.clear();
    sim::expand_action(a, context, rank, ranks, ops);
    for (const sim::Op& op : ops) {
      if (op.kind != sim::Op::Isend || op.peer == rank) continue;
      PairVolume& cell = cells[{rank, op.peer}];
      (op.collective ? cell.collective_bytes : cell.p2p_bytes) += op.amount;
      ++(op.collective ? cell.collective_messages : cell.p2p_messages);
    }
  });
  return cells;
}

ProcessGraph make_process_graph_or_trace(const std::string& spec) {
  if (spec.rfind("trace:", 0) == 0) return trace_process_graph(read_ti_trace(spec.substr(6)));
  return make_process_graph(spec);
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

}  // namespace mapsim
