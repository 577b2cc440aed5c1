// Internal to sim/: weighted max-min fair sharing of capacitated resources (directed links) among
// flows, the rate model of the flow transport. At a saturated resource, flows get rates in
// proportion to their weights (SimGrid's CM02: weight 1 / route latency; fair sharing: weight 1).
// solve() works by progressive filling and recomputes only what a change can reach: within the
// connected components (flows linked by shared resources) touched since the last solve, the flows
// at or above the lowest level a change can affect. Below that level the filling is the same as
// before the change, so those flows keep their rates exactly. Each resource keeps its unused capacity
// (its capacity less its flows' rates), so that a large solve can find its flows from their routes,
// not the lists.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace mapsim::sim {

class MaxMinSharing {
 public:
  // `tolerant` (the tolerant flow model's choice) trades the order of the sums for speed: a solve after
  // adds refills only the flows at or above the tangent bound of entry_floors, not the equal share, and
  // one whose search grows large refills every flow at or above its floor in one pass over the flows.
  // The rates are the same max-min rates up to rounding; the default keeps the exact model's to the bit.
  explicit MaxMinSharing(std::vector<double> capacities, bool tolerant = false);
  // A new flow over `resources` (distinct ids) with `weight` > 0; its rate is 0 until solve().
  int add(const std::vector<int>& resources, double weight);
  void remove(int flow);
  // Recomputes the rates that the adds and removes since the last call can change; appends every
  // flow whose rate changed to `changed`.
  void solve(std::vector<int>& changed);
  double rate(int flow) const { return flows_[flow].rate; }
  double level(int flow) const { return flows_[flow].level; }
  // Lower bounds of the level (rate / weight) that a flow over `resources` with `weight` would get if
  // added now: `equal`, min over its resources of capacity / ((flows there + 1) x largest weight), and
  // the tighter `tangent`, from what the last solve's filling left there.
  struct EntryFloors {
    double equal, tangent;
  };
  EntryFloors entry_floors(const std::vector<int>& resources, double weight) const;
  // The lowest level that the adds and removes since the last solve can affect (infinite if none).
  double dirty_floor() const;

 private:
  struct Crossing {
    int resource;
    int slot;  // the flow's index in the resource's list
  };
  // One cache line per flow, the fields a solve's scan reads first; its route in a heap block of its own.
  struct alignas(64) Flow {
    double level = 0;  // rate / weight; infinite until first solved
    double rate = 0, weight = 1;
    unsigned stamp = 0;
    bool fixed = false;
    int live_slot = -1;  // its index in live_ (the flows in the sharing)
    std::vector<Crossing> route;
  };
  // One cache line per resource: what a solve reads and writes.
  struct alignas(64) Resource {
    double unused = 0;  // its capacity less the sum of its flows' rates, kept up to date
    // Progressive filling scratch.
    double remaining = 0, weights = 0;
    // What the last filling that reached it left, for a lower bound of the level at which it saturates
    // with flows added since (entering_): its flows load it with at most capacity - spare +
    // bottleneck_weights x level.
    double spare = 0;               // capacity less the rates fixed before it saturated (or, unsaturated, all rates)
    double bottleneck_weights = 0;  // the weights it fixed when it saturated (0: unsaturated)
    const int* flows = nullptr;     // flow_lists_'s entry, kept here so that a solve reads one line
    int num_flows = 0;
    int unfixed = 0;
    int active = -1;  // its leaf in the tournament
    unsigned round = 0;  // the filling round that last touched it
  };
  static_assert(sizeof(Resource) == 64);
  struct DirtyMark {  // apart from Resource, whose line the scans read: the scans never need it
    double floor = 0;  // while dirty: the lowest level the changes here can affect
    bool dirty = false;
  };

  void mark_dirty(int resource, double floor);
  // entry_floors on one resource; weight 0: of the flows already there.
  EntryFloors floors_on(int resource, double weight) const;
  // Progressive filling of the unfixed flows on component_resources_.
  void fill(std::vector<int>& changed);
  // Tolerant: a solve of every flow at or above `floor`, from the resources' unused capacities.
  void solve_all_above(double floor, std::vector<int>& changed);

  bool tolerant_;
  std::vector<double> capacities_;
  std::vector<Flow> flows_;
  std::vector<int> live_;
  std::vector<int> free_;
  std::vector<Resource> resources_;
  std::vector<DirtyMark> dirty_marks_;     // per resource
  std::vector<unsigned> resource_stamps_;  // per resource: the solve that last reached it (the search's test)
  std::vector<std::vector<int>> flow_lists_;  // per resource: its flows, each at its Crossing::slot
  std::vector<double> entering_;              // per resource: the weights added since the last solve
  std::vector<int> dirty_;
  unsigned stamp_ = 0;
  double max_weight_ = 0;
  // solve() scratch, kept to avoid allocations.
  std::vector<int> component_resources_;
  std::vector<int> active_;      // resources with unfixed flows, by tournament leaf
  std::vector<double> shares_;   // per leaf: its resource's share per unit of weight
  std::vector<int> winners_;     // per inner node of the tournament tree: the leaf of lowest share
  std::vector<int> touched_;      // resources the current round's flows cross
  unsigned round_ = 0;
  static constexpr size_t kScanLimit = 64;  // larger components use the tournament tree
  static constexpr size_t kPrefetch = 6;    // flows ahead of a scan or a filling round to prefetch (routes half as far)
};

}  // namespace mapsim::sim
