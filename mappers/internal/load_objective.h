// The max-link-load and congestion objectives (mappers/objective.h) kept up to date under moves, for
// the search mappers: the workload's messages are grouped (every phase its own group for congestion,
// one group of repeat-weighted bytes for max-link-load), each group holds its ports' times in a max
// segment tree, and a move re-routes only the messages of the tasks it moves -- O(their messages x
// route length x log ports) per evaluation, with no pass over the network. Where groups x ports
// would pass kMaxCells, consecutive phases share a group (their loads added): a coarser estimate.
#pragma once
#include <vector>

#include "mappers/internal/route_shares.h"
#include "mappers/objective.h"

namespace mapsim {

class LoadObjective {
 public:
  // objective: MaxLinkLoad, or Congestion (Makespan is searched as Congestion).
  LoadObjective(const MappingProblem& problem, Objective objective, const Placement& placement);
  double value() const { return value_; }
  // Port writes of an average evaluation (its two tasks' messages, old and new routes): what a
  // search budget counts, as routes of spread paths cross many more ports.
  double move_work() const { return move_work_; }
  const Placement& placement() const { return placement_; }
  // Change of the value when task u moves to node `to` and task x (-1: none, a free slot there)
  // moves to u's node.
  double delta(int u, int to, int x);
  // Makes that move.
  void apply(int u, int to, int x);

  static constexpr size_t kMaxCells = size_t{1} << 23;

 private:
  struct Message {
    int group, from, to;
    double bytes;
  };
  struct Undo {
    int group, port;
    double time;
  };
  struct Touched {
    int group;
    double old_top;
    int argmax;          // the port of old_top
    double changed_top;  // the largest changed port time
    bool hot;            // the move changes the argmax port's time
  };
  // Writes the move's port times into the leaves (undo_ keeps the old ones), brings the trees of
  // hot groups up to date and returns the value's change.
  double move(int u, int to, int x);
  void propagate(int group, int port);  // after the leaf changed
  int argmax(int group);
  double top(int group) const { return tree_[static_cast<size_t>(group) * 2 * ports_ + 1]; }

  RouteShares shares_;
  std::vector<double> inverse_bandwidth_;
  std::vector<Message> messages_;
  std::vector<std::vector<int>> by_task_;  // message ids of each task (sender or receiver)
  std::vector<double> weight_;             // of each group's busiest time in the value
  std::vector<double> tree_;               // per group: 2 x ports_, leaves at ports_ + port
  size_t ports_;
  Placement placement_;
  double value_ = 0;
  double move_work_ = 0;
  // Scratch of one evaluation.
  std::vector<Undo> undo_;
  std::vector<Touched> touched_;
  std::vector<int> slot_, argmax_;  // per group: its index in touched_; its busiest port (-1: unknown)
  std::vector<long> message_stamp_, group_stamp_;
  long stamp_ = 0;
};

}  // namespace mapsim
