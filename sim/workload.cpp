#include "sim/workload.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <map>
#include <numeric>
#include <tuple>

#include "traces/action_ops.h"
#include "support/error.h"
#include "support/interrupt.h"
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

SyntheticPattern exchange(Spec& spec, const ProcessGraph& graph, long iterations) {
  const std::optional<double> size = spec.find_number("size");
  const double flops = spec.get_double("compute");
  if (graph.edges().empty()) throw Error("workload exchange: the process graph has no edges");
  const int n = graph.num_tasks();
  struct Partner {
    int peer;
    double bytes;
    bool distant;
  };
  auto partners = std::make_shared<std::vector<std::vector<Partner>>>(n);
  for (const ProcessEdge& e : graph.edges()) {
    const double bytes = size ? *size : e.volume;
    (*partners)[e.a].push_back({e.b, bytes, e.distant});
    (*partners)[e.b].push_back({e.a, bytes, e.distant});
  }
  // An iteration of rank t: an irecv per partner, an isend per partner, waitall, then compute.
  auto generate = [partners, flops](long, int t, size_t j, Action& out) {
    const std::vector<Partner>& p = (*partners)[t];
    if (j < p.size()) out = point_to_point(ActionType::Irecv, p[j].peer, p[j].bytes);
    else if (j < 2 * p.size()) out = point_to_point(ActionType::Isend, p[j - p.size()].peer, p[j - p.size()].bytes, p[j - p.size()].distant);
    else if (j == 2 * p.size()) out = Action{ActionType::Waitall};
    else if (j == 2 * p.size() + 1 && flops > 0) {
      out = Action{ActionType::Compute};
      out.flops = flops;
    } else {
      return false;
    }
    return true;
  };
  return {n, iterations, [generate] { return ActionGenerator(generate); }};
}

SyntheticPattern alltoall(Spec& spec, const ProcessGraph& graph, long iterations) {
  Action a{ActionType::Alltoall};
  a.bytes = a.bytes2 = spec.get_size("size");
  return {graph.num_tasks(), iterations, [a] {
            return ActionGenerator([a](long, int, size_t j, Action& out) {
              if (j > 0) return false;
              out = a;
              return true;
            });
          }};
}

// The permutations are drawn in iteration order from one generator: each reading keeps those of the
// iterations that some rank has not finished yet.
class Permutations {
 public:
  Permutations(int n, uint64_t seed) : n_(n), rng_(seed) {}
  // The receive source and send destination of rank r in iteration `it`.
  std::pair<int, int> of(long it, int r) {
    while (first_ + static_cast<long>(kept_.size()) <= it) {
      Iteration next;
      next.to.resize(n_);
      std::iota(next.to.begin(), next.to.end(), 0);
      rng_.shuffle(next.to);
      next.from.resize(n_);
      for (int k = 0; k < n_; ++k) next.from[next.to[k]] = k;
      kept_.push_back(std::move(next));
    }
    const Iteration& i = kept_[it - first_];
    return {i.from[r], i.to[r]};
  }
  // Rank r is done with iteration `it`.
  void done(long it) {
    if (++kept_[it - first_].done < n_) return;
    while (!kept_.empty() && kept_.front().done == n_) {
      kept_.pop_front();
      ++first_;
    }
  }

 private:
  struct Iteration {
    std::vector<int> to, from;
    int done = 0;
  };
  int n_;
  Rng rng_;
  long first_ = 0;
  std::deque<Iteration> kept_;
};

SyntheticPattern permutation(Spec& spec, const ProcessGraph& graph, long iterations) {
  const int n = graph.num_tasks();
  const double size = spec.get_size("size");
  const uint64_t seed = static_cast<uint64_t>(spec.get_int("seed"));
  return {n, iterations, [n, size, seed] {
            auto permutations = std::make_shared<Permutations>(n, seed);
            return ActionGenerator([permutations, size](long it, int r, size_t j, Action& out) {
              if (j > 2) return false;
              const auto [from, to] = permutations->of(it, r);
              if (j == 0) out = point_to_point(ActionType::Irecv, from, size);
              if (j == 1) out = point_to_point(ActionType::Isend, to, size);
              if (j == 2) {
                out = Action{ActionType::Waitall};
                permutations->done(it);
              }
              return true;
            });
          }};
}

// A synthetic workload read one action at a time: each rank's init, its iterations, finalize.
class SyntheticSource final : public TraceSource {
 public:
  explicit SyntheticSource(SyntheticPattern pattern) : pattern_(std::move(pattern)) { context_.file = "(synthetic)"; }
  int num_ranks() const override { return pattern_.ranks; }
  long total_actions() const override {  // a pattern's iterations are of one length per rank
    const ActionGenerator generate = pattern_.start();
    long total = 0;
    Action a{};
    for (int r = 0; r < pattern_.ranks; ++r) {
      long j = 0;
      if (pattern_.iterations > 0)
        while (generate(0, r, static_cast<size_t>(j), a)) ++j;
      total += j * pattern_.iterations + 2;  // and init, finalize
    }
    return total;
  }
  std::unique_ptr<ActionStream> open() const override;

  const SyntheticPattern& pattern() const { return pattern_; }
  const RankTrace& context() const { return context_; }

 private:
  SyntheticPattern pattern_;
  RankTrace context_;
};

class SyntheticStream final : public ActionStream {
 public:
  explicit SyntheticStream(const SyntheticSource& source)
      : source_(source), generate_(source.pattern().start()), ranks_(source.num_ranks()) {}
  const Action* next(int r) override {
    Cursor& c = ranks_[r];
    const long iterations = source_.pattern().iterations;
    if (c.iteration < 0) {  // init
      c.iteration = 0;
      c.current = Action{ActionType::Init};
      return &c.current;
    }
    while (c.iteration < iterations) {
      if (generate_(c.iteration, r, c.index++, c.current)) return &c.current;
      if (++c.iteration % 1024 == 0) stop_if_interrupted();  // a reading in a guarded process (the mappers' pass)
      c.index = 0;
    }
    if (c.iteration == iterations) {  // finalize
      ++c.iteration;
      c.current = Action{ActionType::Finalize};
      return &c.current;
    }
    return nullptr;
  }
  const RankTrace& context(int) const override { return source_.context(); }

 private:
  struct Cursor {
    long iteration = -1;  // -1: before init; iterations: finalize; beyond: done
    size_t index = 0;     // of the action within the iteration
    Action current{ActionType::Init};
  };
  const SyntheticSource& source_;
  ActionGenerator generate_;
  std::vector<Cursor> ranks_;
};

std::unique_ptr<ActionStream> SyntheticSource::open() const { return std::make_unique<SyntheticStream>(*this); }

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
                                     [](Spec& spec) { return trace_process_graph(*open_ti_trace(spec.require_positional("PATH"))); },
                                     "PATH", "path"});

namespace {

// `whole`: the workload is to be built whole, up to kMaxWorkloadActions actions.
SyntheticPattern parse_workload(const std::string& text, const ProcessGraph& graph, bool whole) {
  Spec spec = parse_spec(workload_registry(), text);
  const auto& entry = lookup(workload_registry(), spec);
  const long iterations = spec.get_int("iterations");
  if (graph.num_tasks() < 1) throw Error("workload '" + text + "': the process graph has no tasks");
  // Every pattern posts at most 4 actions per edge and 3 per task an iteration: refuse before building.
  const double actions = static_cast<double>(iterations) *
                         (4.0 * static_cast<double>(graph.edges().size()) + 3.0 * graph.num_tasks());
  const long limit = whole ? kMaxWorkloadActions : kMaxStreamedWorkloadActions;
  if (actions > static_cast<double>(limit))
    throw Error("workload '" + text + "': about " + format_number(actions, 3) + " actions, above the limit of " +
                std::to_string(limit) + " (fewer iterations" + (whole ? ", or record a trace)" : ")"));
  SyntheticPattern pattern = entry.factory(spec, graph, iterations);
  spec.finish();
  return pattern;
}

}  // namespace

std::shared_ptr<const TraceSource> make_workload_source(const std::string& text, const ProcessGraph& graph) {
  return std::make_shared<SyntheticSource>(parse_workload(text, graph, false));
}

Trace make_workload(const std::string& text, const ProcessGraph& graph) {
  return materialize(SyntheticSource(parse_workload(text, graph, true)));
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

namespace {

// Bytes per (source, destination) pair as TaskTraffic, in pair order.
std::vector<TaskTraffic> traffic_of(const std::map<std::pair<int, int>, double>& bytes) {
  std::vector<TaskTraffic> traffic;
  for (const auto& [pair, amount] : bytes) traffic.push_back({pair.first, pair.second, amount});
  return traffic;
}

}  // namespace

std::vector<TaskTraffic> task_traffic(const TraceSource& source, const CollectiveChoice& choice) {
  std::map<std::pair<int, int>, double> bytes;
  std::vector<Op> ops;
  const int n = source.num_ranks();
  for_each_action(source, [&](int r, const Action& a, const RankTrace& context) {
    for_each_message(a, context, r, n, choice, ops, [&](int peer, double amount, bool) { bytes[{r, peer}] += amount; });
  });
  return traffic_of(bytes);
}

std::vector<TaskTraffic> task_traffic(const Trace& trace, const CollectiveChoice& choice) {
  return task_traffic(TraceView(trace), choice);
}

ProcessGraph trace_process_graph(const TraceSource& source) {
  std::map<std::pair<int, int>, double> volume;
  for_each_action(source, [&](int r, const Action& a, const RankTrace&) {
    const bool send = a.type == ActionType::Send || a.type == ActionType::Isend;
    if ((send || a.type == ActionType::SendRecv) && a.peer != r)
      volume[{std::min(r, a.peer), std::max(r, a.peer)}] += a.bytes;
  });
  ProcessGraph graph(source.num_ranks());
  graph.family = "trace";
  for (const auto& [pair, bytes] : volume) graph.add_edge(pair.first, pair.second, bytes / 2);  // volume: each way
  return graph;
}

ProcessGraph trace_process_graph(const Trace& trace) { return trace_process_graph(TraceView(trace)); }

CommSchedule communication_schedule(const TraceSource& source, const CollectiveChoice& choice, long max_messages) {
  return workload_traffic(source, choice, max_messages).schedule;
}

WorkloadTraffic workload_traffic(const TraceSource& source, const CollectiveChoice& choice, long max_messages) {
  // Read step by step across the ranks: every rank is advanced to the end of its step `base`, which
  // is then complete, deduplicated and dropped. Memory: the messages of the steps under way (a
  // collective expanded whole may run a rank several steps ahead), the distinct phases and the bytes
  // per rank pair.
  using Key = std::vector<std::tuple<int, int, double>>;  // a step's messages, sorted once complete
  struct Cursor {
    size_t step = 0;
    bool sent = false, done = false;
  };
  const int n = source.num_ranks();
  const std::unique_ptr<ActionStream> stream = source.open();
  std::vector<Cursor> cursors(n);
  std::deque<Key> pending;  // steps base, base + 1, ...
  long messages = 0;
  std::vector<Op> ops;
  std::map<std::pair<int, int>, double> bytes;  // per (source, destination), each rank's in its order
  // Sums the action's messages; leaves its expansion in ops.
  const auto expand = [&](int r, const Action& a) {
    for_each_message(a, stream->context(r), r, n, choice, ops,
                     [&](int peer, double amount, bool) { bytes[{r, peer}] += amount; });
  };
  WorkloadTraffic result;
  std::map<Key, size_t> seen;  // a phase's messages -> its index
  for (size_t base = 0;; ++base) {
    for (int r = 0; r < n; ++r) {
      Cursor& c = cursors[r];
      while (!c.done && c.step == base) {
        const Action* a = stream->next(r);
        if (!a) {
          c.done = true;
          break;
        }
        expand(r, *a);
        for (const Op& op : ops) {
          if (op.kind == Op::Isend && op.peer != r) {
            if (pending.size() <= c.step - base) pending.resize(c.step - base + 1);
            pending[c.step - base].emplace_back(r, op.peer, op.amount);
            c.sent = true;
            ++messages;
          } else if (c.sent && (op.kind == Op::WaitGroup || op.kind == Op::WaitKey || op.kind == Op::WaitAll)) {
            ++c.step;
            c.sent = false;
          }
        }
        if (messages > max_messages) {  // distinct steps are kept, up to every message: the job's totals instead
          for (int q = 0; q < n; ++q)
            while (const Action* rest = stream->next(q)) expand(q, *rest);
          result.traffic = traffic_of(bytes);
          result.schedule = CommSchedule{};
          result.schedule.phases.emplace_back();
          for (const TaskTraffic& t : result.traffic) result.schedule.phases[0].messages.push_back({t.from, t.to, t.bytes});
          return result;
        }
      }
    }
    if (pending.empty()) break;  // every rank done (one still running would have sent in step base)
    Key& key = pending.front();
    std::sort(key.begin(), key.end());
    auto [it, inserted] = seen.emplace(std::move(key), result.schedule.phases.size());
    pending.pop_front();
    if (!inserted) {
      result.schedule.phases[it->second].repeat += 1;
      continue;
    }
    CommPhase phase;
    for (const auto& [from, to, amount] : it->first) phase.messages.push_back({from, to, amount});
    result.schedule.phases.push_back(std::move(phase));
  }
  result.traffic = traffic_of(bytes);
  return result;
}

CommSchedule communication_schedule(const Trace& trace, const CollectiveChoice& choice) {
  return communication_schedule(TraceView(trace), choice);
}

}  // namespace mapsim
