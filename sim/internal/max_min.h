// Internal to sim/: weighted max-min fair sharing of capacitated resources (directed links) among
// flows, the rate model of the flow transport. At a saturated resource, flows get rates in
// proportion to their weights (SimGrid's CM02: weight 1 / route latency; fair sharing: weight 1).
// solve() works by progressive filling and recomputes only what a change can reach: within the
// connected components (flows linked by shared resources) touched since the last solve, the flows
// at or above the lowest level a change can affect. Below that level the filling is the same as
// before the change, so those flows keep their rates exactly.
// Tolerant (the flow model's flow_tolerance > 0): a resource with many flows also files them by
// level class (a quarter of a doubling each), so that a solve skips the classes below its floor,
// taking their rates from a running sum per resource, instead of scanning flows it only subtracts.
// Exact: one class, every flow scanned in the order of the single list it replaces (the same
// arithmetic). Measured: no faster (docs/simulation.md, the flow solver).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace mapsim::sim {

class MaxMinSharing {
 public:
  // Tolerant: the resources with more than `hot` flows file them by level class (below).
  explicit MaxMinSharing(std::vector<double> capacities, bool tolerant = false, size_t hot = kHot);
  // A new flow over `resources` (distinct ids) with `weight` > 0; its rate is 0 until solve().
  int add(const std::vector<int>& resources, double weight);
  void remove(int flow);
  // Recomputes the rates that the adds and removes since the last call can change; appends every
  // flow whose rate changed to `changed`.
  void solve(std::vector<int>& changed);
  double rate(int flow) const { return flows_[flow].rate; }
  // A lower bound of the level (rate / weight) that a flow over `resources` with `weight` would get if
  // added now: min over its resources of capacity / ((flows there + 1) x largest weight).
  double entry_floor(const std::vector<int>& resources, double weight) const;
  // The lowest level that the adds and removes since the last solve can affect (infinite if none).
  double dirty_floor() const;

 private:
  struct Flow {
    std::vector<int> resources, slots;  // slots[k]: this flow's index in resources[k]'s list
    double weight = 1, rate = 0;
    double level = 0;  // rate / weight; infinite until first solved
    int key = 0;       // its level class (level_class(level)), the same at all its resources
    bool fixed = false;
    unsigned stamp = 0;
  };
  struct Bound {  // a class of levels in a resource's list, and where its flows begin there
    int key, begin;
  };
  struct Resource {
    double capacity = 0;
    std::vector<int> flows;     // grouped by class, by increasing key (exact mode: one class)
    std::vector<Bound> bounds;  // its non-empty classes, by increasing key
    bool bucketed = false;      // tolerant mode, many flows: filed by class; else one class, key 0
    double total = 0;  // tolerant mode: the sum of its flows' rates, kept up to date (running)
    // Progressive filling scratch.
    double remaining = 0, weights = 0;
    int unfixed = 0;
    int active = -1;  // its leaf in the tournament
    unsigned round = 0;  // the filling round that last touched it
    unsigned stamp = 0;
    double floor = 0;  // while dirty: the lowest level the changes here can affect
    bool dirty = false;
  };

  // Tolerant: a quarter of a doubling of levels per class, ordered as the levels (a positive
  // double's bits are); levels <= 0 in class 0. Exact: class 0.
  int level_class(double level) const {
    if (!tolerant_ || !(level > 0)) return 0;
    uint64_t bits;
    std::memcpy(&bits, &level, sizeof bits);
    return static_cast<int>(bits >> (52 - kClassBits));
  }
  // Where a resource's flows of classes >= `key` begin in its list.
  int first_of(const Resource& res, int key) const;
  void link(int flow, size_t k);    // files flows_[flow] at the end of its class at its k-th resource
  void unlink(int flow, size_t k);  // takes it out of there
  void place(int flow, int resource, int slot);  // puts `flow` at `slot` of `resource`'s list
  int key_at(const Resource& res, const Flow& f) const { return res.bucketed ? f.key : 0; }
  void bucket(int resource, bool on);  // files its flows by class, or in one
  void mark_dirty(int resource, double floor);
  // Progressive filling of the unfixed flows on component_resources_.
  void fill(std::vector<int>& changed);

  std::vector<Flow> flows_;
  std::vector<int> free_;
  std::vector<Resource> resources_;
  std::vector<int> dirty_;
  unsigned stamp_ = 0;
  double max_weight_ = 0;
  // solve() scratch, kept to avoid allocations.
  std::vector<int> component_resources_;
  std::vector<int> active_;      // resources with unfixed flows, by tournament leaf
  std::vector<double> shares_;   // per leaf: its resource's share per unit of weight
  std::vector<int> winners_;     // per inner node of the tournament tree: the leaf of lowest share
  std::vector<int> touched_;      // resources the current round's flows cross
  std::vector<int> refile_;       // flows whose level changed class in fill(), refiled after it
  int floor_class_ = 0;           // the current solve's floor's class
  unsigned round_ = 0;
  bool tolerant_;
  static constexpr size_t kScanLimit = 64;  // larger components use the tournament tree
  size_t hot_;
  static constexpr size_t kHot = 64;
  static constexpr int kClassBits = 2;  // 2^kClassBits classes per doubling of the level
  static constexpr int kSlack = 2;      // classes a flow's level may fall below its class's
};

}  // namespace mapsim::sim
