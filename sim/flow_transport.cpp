// Flow model with mapsim's solver (the default): a message pays its zero-load latency, then its
// bytes flow over every directed link of its route at once at the rate max-min sharing gives it
// (MaxMinSharing), re-solved whenever flows enter or leave. SimGrid runs the event queue only.
// This is SimGrid's CM02 fluid model without its generic solver: the same rates (fair, or SMPI's
// latency weights), computed incrementally, and exact completion dates from each flow's remaining
// bytes. The sharing's resources are the ports of PortLayout. With a tolerance eps > 0 (model option
// flow_tolerance) the solves are batched: a flow may enter up to eps x its transfer-time bound late and
// free its links up to eps x its transfer time early (docs/simulation.md, the flow solver).
#include <chrono>
#include <boost/heap/d_ary_heap.hpp>
#include <cmath>
#include <queue>

#include "sim/internal/max_min.h"
#include "sim/transport.h"
#include "support/error.h"

namespace mapsim::sim {
namespace {

class FlowTransport : public Transport {
 public:
  FlowTransport(const RoutedNetwork& routed, bool smpi_sharing, double tolerance, Delivered delivered)
      : net_(routed.network()), layout_(net_), smpi_sharing_(smpi_sharing), tolerance_(tolerance), delivered_(std::move(delivered)),
        sharing_(capacities(), tolerance > 0) {
    use_event_queue_only();
  }

  void start(int id, Message& m, const std::vector<Leg>& path, double latency) override {
    std::vector<int> resources;
    layout_.append(path.front().from, path.front().channels, path.front().to, resources);  // the flow model has electrical paths only
    // SMPI (CM02) weights a flow's share by the inverse of its route latency.
    const double weight = smpi_sharing_ ? 1 / latency : 1;
    const double bytes = m.wire;
    at(now() + latency, [this, id, bytes, weight, resources = std::move(resources)]() mutable {
      ++events_;
      if (bytes <= 0) return delivered_(id);
      if (tolerance_ > 0) {
        // Tolerant: the flow waits outside the sharing for a solve, at the latest tolerance x the
        // time its bytes take at the equal-share bound of its entry level; the tighter tangent bound
        // decides which solves it may ride along.
        const MaxMinSharing::EntryFloors floors = sharing_.entry_floors(resources, weight);
        const double deadline = now() + tolerance_ * bytes / (weight * floors.equal);
        waiting_.push_back({deadline, floors.tangent, id, bytes, weight, std::move(resources)});
        solve_deadline_ = std::min(solve_deadline_, deadline);
        return schedule_next();
      }
      enter(sharing_.add(resources, weight), id, bytes);
      request_solve();
    });
  }

  long events() const override { return events_; }
  double solver_seconds() const override { return solver_seconds_; }
  // simulate() refuses optical circuits with the flow model.

 private:
  struct Completion {
    double date;
    int flow;
  };
  struct Later {  // the earliest date on top; ties by flow id, for determinism
    bool operator()(const Completion& a, const Completion& b) const {
      return a.date > b.date || (a.date == b.date && a.flow > b.flow);
    }
  };
  using CompletionHeap = boost::heap::d_ary_heap<Completion, boost::heap::arity<4>, boost::heap::mutable_<true>,
                                                 boost::heap::compare<Later>>;
  struct Flow {
    int message = -1;
    double remaining = 0;  // bytes, as of `updated`
    double updated = 0;
    double rate = 0;
    // In completions_ by its completion date; tolerant, by its release date until that has come.
    CompletionHeap::handle_type completion;
    bool scheduled = false;  // `completion` is set
    double entered = 0;      // when it entered the sharing
    int open_slot = -1;      // tolerant mode: its index in open_ once its release date has come
    double completes = 0;    // its completion date at its current rate
  };

  std::vector<double> capacities() const {
    std::vector<double> caps(layout_.size());
    for (int i = 0; i < net_.num_nodes(); ++i) caps[layout_.injection(i)] = caps[layout_.ejection(i)] = net_.node(i).bandwidth;
    for (int c = 0; c < net_.num_channels(); ++c) caps[layout_.channel(c)] = net_.link(c / 2).bandwidth;
    return caps;
  }

  // Solves once for everything that happens at this date.
  void request_solve() {
    if (solve_pending_) return;
    solve_pending_ = true;
    at(now(), [this] {
      solve_pending_ = false;
      solve();
    });
  }

  void solve() {
    ++events_;
    changed_.clear();
    const auto begin = std::chrono::steady_clock::now();
    sharing_.solve(changed_);
    solver_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const double t = now();
    for (size_t i = 0; i < changed_.size(); ++i) {
      if (i + 4 < changed_.size()) __builtin_prefetch(&flows_[changed_[i + 4]]);
      const int f = changed_[i];
      Flow& flow = flows_[f];
      flow.remaining = std::max(0.0, flow.remaining - flow.rate * (t - flow.updated));
      flow.updated = t;
      flow.rate = sharing_.rate(f);
      flow.completes = flow.rate > 0 ? t + flow.remaining / flow.rate : INFINITY;
      Completion key{flow.completes, f};
      if (tolerance_ > 0) {  // the earliest date it may free its links: tolerance x its transfer time early
        const double release = key.date == INFINITY ? INFINITY : key.date - tolerance_ * (key.date - flow.entered);  // not inf - inf
        if (release > t) {
          if (flow.open_slot >= 0) close(f);  // slowed down so that its window closed
          key.date = release;
        } else if (flow.open_slot < 0) {
          open(f);
        }
      }
      if (flow.scheduled) {
        completions_.update(flow.completion, key);
      } else {
        flow.completion = completions_.push(key);
        flow.scheduled = true;
      }
    }
    if (tolerance_ == 0) schedule_completion();
    else schedule_next();
  }

  // Tolerant mode: one timer for the earlier of the first waiting flow's deadline and the earliest date
  // in completions_ (a completion, or a release date that opens its flow).
  void schedule_next() {
    double date = solve_deadline_;
    if (!completions_.empty()) date = std::min(date, completions_.top().date);
    arm(date, &FlowTransport::tick);
  }

  // Tolerant mode: a solve is due when a flow reaches its completion date or a waiting flow its
  // deadline. It then also frees the links of the flows whose release date has come (within tolerance
  // x their transfer time of completion) and lets in the waiting flows, but only those whose level
  // (tangent entry floor) is at least kRideAlong times the solve's floor: they add few flows to refill. Others
  // wait for a solve of their own level, so that the frequent cheap solves of short flows do not
  // refill the root's flows for every flow that could leave or enter there.
  void tick() {
    ++events_;
    timers_.pop();
    const double t = now();
    bool changed = false;
    while (!completions_.empty() && completions_.top().date <= t) {
      const int f = completions_.top().flow;
      if (flows_[f].open_slot < 0) {  // its release date: from now on it waits for its completion date
        open(f);
        completions_.update(flows_[f].completion, {flows_[f].completes, f});
      } else {
        leave(f);
        changed = true;
      }
    }
    if (t >= solve_deadline_) changed |= let_in([t](const Waiting& w) { return w.deadline <= t; });
    if (!changed) return schedule_next();
    const double floor = sharing_.dirty_floor() * kRideAlong;
    for (size_t i = 0; i < open_.size();)
      if (sharing_.level(open_[i]) >= floor) leave(open_[i]);  // moves the last open flow to i
      else ++i;
    let_in([floor](const Waiting& w) { return w.floor >= floor; });
    solve();
  }

  // Tolerant mode: flow f leaves the sharing now; its message arrives at its completion date.
  void leave(int f) {
    Flow& flow = flows_[f];
    const double date = flow.completes;
    completions_.erase(flow.completion);
    if (flow.open_slot >= 0) close(f);
    flow.scheduled = false;
    sharing_.remove(f);
    const int message = flow.message;
    if (date > now()) at(date, [this, message] { delivered_(message); });
    else delivered_(message);
  }

  // Sharing flow f carries message `message` of `bytes` from now on.
  void enter(int f, int message, double bytes) {
    if (flows_.size() <= static_cast<size_t>(f)) flows_.resize(f + 1);
    flows_[f] = Flow{message, bytes, now(), 0, {}, false, now()};
  }

  // Puts flow f in open_.
  void open(int f) {
    flows_[f].open_slot = static_cast<int>(open_.size());
    open_.push_back(f);
  }

  // Takes flow f out of open_.
  void close(int f) {
    const int slot = flows_[f].open_slot;
    flows_[f].open_slot = -1;
    open_[slot] = open_.back();
    open_.pop_back();
    if (slot < static_cast<int>(open_.size())) flows_[open_[slot]].open_slot = slot;
  }

  // Adds the waiting flows that `chosen` picks to the sharing; whether there were any.
  template <class Chosen>
  bool let_in(Chosen chosen) {
    bool any = false;
    size_t kept = 0;
    double deadline = INFINITY;  // a local: the adds below would make the compiler store a member each time
    for (size_t i = 0; i < waiting_.size(); ++i) {
      Waiting& w = waiting_[i];
      if (!chosen(w)) {
        deadline = std::min(deadline, w.deadline);
        if (kept != i) waiting_[kept] = std::move(w);
        ++kept;
        continue;
      }
      any = true;
      enter(sharing_.add(w.resources, w.weight), w.message, w.bytes);
    }
    waiting_.resize(kept);
    solve_deadline_ = deadline;
    return any;
  }

  void schedule_completion() {
    if (!completions_.empty()) arm(completions_.top().date, &FlowTransport::complete);
  }

  // A timer at `date` (none when infinite) that runs `handler`, unless one fires by then.
  void arm(double date, void (FlowTransport::*handler)()) {
    if (date == INFINITY || (!timers_.empty() && timers_.top() <= date)) return;
    timers_.push(date);
    at(date, [this, handler] { (this->*handler)(); });
  }

  void complete() {
    ++events_;
    timers_.pop();
    const double t = now();
    while (!completions_.empty() && completions_.top().date <= t) {
      const int f = completions_.top().flow;
      completions_.pop();
      flows_[f].scheduled = false;
      sharing_.remove(f);
      request_solve();
      delivered_(flows_[f].message);
    }
    schedule_completion();
  }

  const Network& net_;
  const PortLayout layout_;
  bool smpi_sharing_;
  double tolerance_;
  Delivered delivered_;
  MaxMinSharing sharing_;
  std::vector<Flow> flows_;
  std::vector<int> changed_;
  CompletionHeap completions_;
  std::priority_queue<double, std::vector<double>, std::greater<>> timers_;  // dates of pending completion (tick) timers
  bool solve_pending_ = false;
  // Tolerant mode: the flows waiting to enter the sharing, and the earliest of their deadlines.
  struct Waiting {
    double deadline, floor;
    int message;
    double bytes, weight;
    std::vector<int> resources;
  };
  std::vector<Waiting> waiting_;
  std::vector<int> open_;  // tolerant mode: flows in the sharing whose release date has come
  double solve_deadline_ = INFINITY;
  // A solve takes along the waiting flows whose entry floor, and the open flows whose level, is at least
  // this fraction of its floor: they add few flows to refill (for the waiting flows, 0.5 measured best
  // of 0, 0.25, 0.5, 0.8 and 1 at T = 1024, 4096).
  static constexpr double kRideAlong = 0.5;
  double solver_seconds_ = 0;
  long events_ = 0;
};

}  // namespace

MAPSIM_REGISTER(model_registry(),
                {"flow", "one fluid flow per message, exact max-min sharing (cut-through-like)",
                 {text_param("sharing", "fair", "fair, or smpi (weighted by route latency) (model.sharing, --sharing)"),
                  text_param("flow_solver", "mapsim", "mapsim (incremental max-min) or simgrid (CM02, the reference)"),
                  builtin_model_option("flow_tolerance").param},
                 {false,
                  [](const RoutedNetwork& routed, const SimOptions& options, const std::vector<Circuit>&,
                     std::vector<Message>&, Transport::Delivered delivered) -> std::unique_ptr<Transport> {
                    if (options.flow_solver == FlowSolver::SimGrid) {
                      if (options.flow_tolerance > 0)
                        throw Error("flow_tolerance: the simgrid flow solver is exact; a tolerance needs flow_solver mapsim");
                      return make_simgrid_flow_transport(routed, options, std::move(delivered));
                    }
                    return std::make_unique<FlowTransport>(routed, options.smpi_sharing, options.flow_tolerance, std::move(delivered));
                  }}});

}  // namespace mapsim::sim
