#include "mappers/internal/load_objective.h"

#include <algorithm>
#include <map>

#include "mappers/congestion.h"

namespace mapsim {

LoadObjective::LoadObjective(const MappingProblem& problem, Objective objective, const Placement& placement)
    : shares_(problem), ports_(static_cast<size_t>(shares_.layout().size())), placement_(placement) {
  for (double bandwidth : port_bandwidths(problem.network->network())) inverse_bandwidth_.push_back(1 / bandwidth);
  std::vector<const CommPhase*> phases;
  const CommSchedule own = problem.schedule ? CommSchedule{} : schedule_from_graph(*problem.graph);
  for (const CommPhase& phase : (problem.schedule ? *problem.schedule : own).phases) phases.push_back(&phase);
  const bool per_phase = objective != Objective::MaxLinkLoad;
  const size_t groups = !per_phase ? 1 : std::max<size_t>(1, std::min(phases.size(), kMaxCells / (2 * ports_)));
  const bool merged = groups < phases.size();  // phases share groups: their bytes carry the repeats
  weight_.assign(groups, per_phase && !merged ? 0 : 1);
  // Messages of one (group, sender, receiver) are merged.
  std::map<std::tuple<int, int, int>, double> bytes;
  for (size_t p = 0; p < phases.size(); ++p) {
    const int group = static_cast<int>(p * groups / phases.size());
    if (per_phase && !merged) weight_[group] = phases[p]->repeat;
    const double scale = per_phase && !merged ? 1 : phases[p]->repeat;
    for (const PhaseMessage& m : phases[p]->messages)
      if (m.bytes > 0 && m.from != m.to) bytes[{group, m.from, m.to}] += scale * m.bytes;
  }
  by_task_.resize(placement_.size());
  for (const auto& [key, b] : bytes) {
    const auto [group, from, to] = key;
    by_task_[from].push_back(static_cast<int>(messages_.size()));
    by_task_[to].push_back(static_cast<int>(messages_.size()));
    messages_.push_back({group, from, to, b});
  }
  tree_.assign(groups * 2 * ports_, 0);
  double writes = 0;
  for (const Message& m : messages_)
    if (placement_[m.from] != placement_[m.to])
      shares_.for_each(placement_[m.from], placement_[m.to], [&](int port, double share) {
        tree_[m.group * 2 * ports_ + ports_ + port] += m.bytes * share * inverse_bandwidth_[port];
        ++writes;
      });
  // Each message's ports count for both its tasks; a move re-routes two tasks' messages twice.
  move_work_ = placement_.empty() ? 0 : 2 * 2 * (2 * writes / static_cast<double>(placement_.size()));
  for (size_t g = 0; g < groups; ++g) {
    double* t = &tree_[g * 2 * ports_];
    for (size_t i = ports_ - 1; i >= 1; --i) t[i] = std::max(t[2 * i], t[2 * i + 1]);
    value_ += weight_[g] * t[1];
  }
  message_stamp_.assign(messages_.size(), 0);
  group_stamp_.assign(groups, 0);
  slot_.assign(groups, 0);
  argmax_.assign(groups, -1);
}

void LoadObjective::propagate(int group, int port) {
  double* t = &tree_[static_cast<size_t>(group) * 2 * ports_];
  for (size_t i = (ports_ + static_cast<size_t>(port)) / 2; i >= 1; i /= 2) {  // up while the maxima change
    const double top = std::max(t[2 * i], t[2 * i + 1]);
    if (top == t[i]) break;
    t[i] = top;
  }
}

int LoadObjective::argmax(int group) {
  if (argmax_[group] < 0) {
    const double* t = &tree_[static_cast<size_t>(group) * 2 * ports_];
    size_t i = 1;
    while (i < ports_) i = t[2 * i] == t[i] ? 2 * i : 2 * i + 1;
    argmax_[group] = static_cast<int>(i - ports_);
  }
  return argmax_[group];
}

double LoadObjective::move(int u, int to, int x) {
  const int from = placement_[u];
  ++stamp_;
  undo_.clear();
  touched_.clear();
  auto write = [&](int group, int port, double time) {
    double& leaf = tree_[static_cast<size_t>(group) * 2 * ports_ + ports_ + port];
    undo_.push_back({group, port, leaf});
    leaf += time;
    Touched& g = touched_[slot_[group]];
    g.hot |= port == g.argmax;
  };
  auto node_after = [&](int t) { return t == u ? to : t == x ? from : placement_[t]; };
  for (int task : {u, x}) {
    if (task < 0) continue;
    for (int id : by_task_[task]) {
      if (message_stamp_[id] == stamp_) continue;
      message_stamp_[id] = stamp_;
      const Message& m = messages_[id];
      const int a = placement_[m.from], b = placement_[m.to], a2 = node_after(m.from), b2 = node_after(m.to);
      if (a == a2 && b == b2) continue;
      if (group_stamp_[m.group] != stamp_) {
        group_stamp_[m.group] = stamp_;
        slot_[m.group] = static_cast<int>(touched_.size());
        touched_.push_back({m.group, top(m.group), argmax(m.group), 0, false});
      }
      if (a != b) shares_.for_each(a, b, [&](int port, double share) { write(m.group, port, -m.bytes * share * inverse_bandwidth_[port]); });
      if (a2 != b2) shares_.for_each(a2, b2, [&](int port, double share) { write(m.group, port, m.bytes * share * inverse_bandwidth_[port]); });
    }
  }
  // A group whose busiest port the move leaves alone tops at that or at a changed port; one whose
  // busiest port changes is brought up to date to find its new top.
  for (const Undo& w : undo_) {
    Touched& g = touched_[slot_[w.group]];
    if (g.hot) propagate(w.group, w.port);
    else g.changed_top = std::max(g.changed_top, tree_[static_cast<size_t>(w.group) * 2 * ports_ + ports_ + w.port]);
  }
  double change = 0;
  for (const Touched& g : touched_) change += weight_[g.group] * ((g.hot ? top(g.group) : std::max(g.old_top, g.changed_top)) - g.old_top);
  return change;
}

double LoadObjective::delta(int u, int to, int x) {
  if (to == placement_[u]) return 0;
  const double change = move(u, to, x);
  for (size_t i = undo_.size(); i-- > 0;) tree_[static_cast<size_t>(undo_[i].group) * 2 * ports_ + ports_ + undo_[i].port] = undo_[i].time;
  for (const Undo& w : undo_)
    if (touched_[slot_[w.group]].hot) propagate(w.group, w.port);
  return change;
}

void LoadObjective::apply(int u, int to, int x) {
  if (to == placement_[u]) return;
  value_ += move(u, to, x);
  for (const Undo& w : undo_)
    if (!touched_[slot_[w.group]].hot) propagate(w.group, w.port);
  for (const Touched& g : touched_) argmax_[g.group] = -1;
  if (x >= 0) placement_[x] = placement_[u];
  placement_[u] = to;
}

}  // namespace mapsim
