#include "sim/internal/max_min.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/internal/free_list.h"

namespace mapsim::sim {

// Why the floor is exact: progressive filling raises a common level x; a resource saturates when its
// fixed flows' rates plus x times its unfixed flows' weights reach its capacity. A removed flow at
// level l only loaded resources that saturate at l or later; an added flow only loads resources that
// saturate at its new level or later, which is at least min over its resources of
// capacity / (flows there x largest weight). Below the lowest such level, the same resources
// saturate at the same levels and fix the same flows at the same rates as before.
// The tangent bound is tighter: the last filling that reached a resource left its flows loading it with
// at most (capacity - spare) + bottleneck_weights x x at level x (those fixed before it saturated at
// their rates, the rest at most x each); removals only lower that, and the flows added since add
// entering x x. So it cannot saturate below spare / (bottleneck_weights + entering).

MaxMinSharing::MaxMinSharing(std::vector<double> capacities, bool tolerant)
    : tolerant_(tolerant), capacities_(std::move(capacities)), resources_(capacities_.size()),
      dirty_marks_(capacities_.size()), resource_stamps_(capacities_.size()), flow_lists_(capacities_.size()),
      entering_(capacities_.size()) {
  for (size_t r = 0; r < capacities_.size(); ++r) resources_[r].spare = resources_[r].unused = capacities_[r];
}

int MaxMinSharing::add(const std::vector<int>& resources, double weight) {
  const int id = acquire(flows_, free_);
  Flow& f = flows_[id];
  f.route.resize(resources.size());
  f.weight = weight;
  f.rate = 0;
  f.level = INFINITY;
  f.live_slot = static_cast<int>(live_.size());
  live_.push_back(id);
  max_weight_ = std::max(max_weight_, weight);
  for (size_t k = 0; k < resources.size(); ++k) {
    std::vector<int>& list = flow_lists_[resources[k]];
    f.route[k] = {resources[k], static_cast<int>(list.size())};
    list.push_back(id);
    resources_[resources[k]].flows = list.data();
    resources_[resources[k]].num_flows = static_cast<int>(list.size());
    entering_[resources[k]] += weight;
  }
  const EntryFloors floors = entry_floors(resources, 0);
  for (int r : resources) mark_dirty(r, tolerant_ ? floors.tangent : floors.equal);
  return id;
}

MaxMinSharing::EntryFloors MaxMinSharing::floors_on(int r, double weight) const {
  const Resource& res = resources_[r];
  const double equal = capacities_[r] / (static_cast<double>(res.num_flows + (weight > 0)) * std::max(max_weight_, weight));
  // The tangent bound (above); the margin covers the rounding of spare, a difference of sums of rates.
  return {equal, std::max(equal, (res.spare - capacities_[r] * 1e-12) / (res.bottleneck_weights + entering_[r] + weight))};
}

MaxMinSharing::EntryFloors MaxMinSharing::entry_floors(const std::vector<int>& resources, double weight) const {
  EntryFloors floors{INFINITY, INFINITY};
  for (int r : resources) {
    const EntryFloors here = floors_on(r, weight);
    floors = {std::min(floors.equal, here.equal), std::min(floors.tangent, here.tangent)};
  }
  return floors;
}

double MaxMinSharing::dirty_floor() const {
  double floor = INFINITY;
  for (int r : dirty_) floor = std::min(floor, dirty_marks_[r].floor);
  return floor;
}

void MaxMinSharing::remove(int id) {
  Flow& f = flows_[id];
  for (const Crossing& c : f.route) {
    resources_[c.resource].unused += f.rate;
    std::vector<int>& list = flow_lists_[c.resource];
    const int moved = list.back();
    list[c.slot] = moved;
    list.pop_back();
    resources_[c.resource].num_flows = static_cast<int>(list.size());
    if (list.empty()) resources_[c.resource].unused = capacities_[c.resource];  // no rounding carried over
    if (moved != id)  // tell the moved flow its new slot in this resource
      std::find_if(flows_[moved].route.begin(), flows_[moved].route.end(),
                   [&](const Crossing& m) { return m.resource == c.resource; })->slot = c.slot;
    mark_dirty(c.resource, f.level);
  }
  live_[f.live_slot] = live_.back();
  flows_[live_.back()].live_slot = f.live_slot;
  live_.pop_back();
  free_.push_back(id);
}

void MaxMinSharing::mark_dirty(int resource, double floor) {
  DirtyMark& mark = dirty_marks_[resource];
  if (!mark.dirty) {
    mark.dirty = true;
    mark.floor = floor;
    dirty_.push_back(resource);
  } else {
    mark.floor = std::min(mark.floor, floor);
  }
}

void MaxMinSharing::solve(std::vector<int>& changed) {
  double floor = dirty_floor();
  // Flows fixed in one round can differ by a few ulps from resources that tie: a margin keeps
  // them above the floor (recomputing more flows than needed is always exact).
  floor *= 1 - 1e-9;
  ++stamp_;
  // Tolerant, a search that would scan more entries than half the flows gives way to one pass over all
  // the flows (solve_all_above), which reads the lists of none.
  size_t budget = tolerant_ ? live_.size() / 2 : SIZE_MAX;
  bool all = false;
  for (int start : dirty_) {
    if (resource_stamps_[start] == stamp_) continue;  // in a component solved already
    // The flows at or above the floor connected to `start` through shared resources, and their
    // resources, whose capacity the flows below the floor reduce by their (unchanged) rates.
    component_resources_.assign(1, start);
    resource_stamps_[start] = stamp_;
    for (size_t i = 0; i < component_resources_.size(); ++i) {
      // A resource's record was prefetched when it joined the component; its list is prefetched two
      // resources ahead.
      if (i + 2 < component_resources_.size()) __builtin_prefetch(resources_[component_resources_[i + 2]].flows);
      Resource& res = resources_[component_resources_[i]];
      if (static_cast<size_t>(res.num_flows) > budget) {
        all = true;
        break;
      }
      budget -= res.num_flows;
      // Accumulated in locals: the pushes below would make the compiler reload res's fields.
      double remaining = capacities_[component_resources_[i]], weights = 0, above = 0;
      int unfixed = 0;
      const int* list = res.flows;
      const size_t n = res.num_flows;
      for (size_t k = 0; k < n; ++k) {
        if (k + kPrefetch < n) __builtin_prefetch(&flows_[list[k + kPrefetch]]);
        Flow& flow = flows_[list[k]];
        if (flow.level < floor) {
          flow.fixed = true;
          remaining -= flow.rate;
          continue;
        }
        weights += flow.weight;
        above += flow.rate;
        ++unfixed;
        if (flow.stamp == stamp_) continue;
        flow.stamp = stamp_;
        flow.fixed = false;
        for (const Crossing& c : flow.route)
          if (const int q = c.resource; resource_stamps_[q] != stamp_) {
            resource_stamps_[q] = stamp_;
            component_resources_.push_back(q);
            __builtin_prefetch(&resources_[q]);
          }
      }
      res.remaining = remaining;
      res.unused = remaining - above;
      res.weights = weights;
      res.unfixed = unfixed;
    }
    if (all) break;
    fill(changed);
  }
  if (all) solve_all_above(floor, changed);
  for (int r : dirty_) {
    dirty_marks_[r].dirty = false;
    entering_[r] = 0;
  }
  dirty_.clear();
}

void MaxMinSharing::solve_all_above(double floor, std::vector<int>& changed) {
  // A resource's capacity less the flows below the floor is its unused capacity plus the rates of
  // its flows at or above the floor: those flows' routes give it.
  ++stamp_;
  component_resources_.clear();
  for (size_t i = 0; i < live_.size(); ++i) {
    if (i + kPrefetch < live_.size()) __builtin_prefetch(&flows_[live_[i + kPrefetch]]);
    Flow& flow = flows_[live_[i]];
    flow.fixed = flow.level < floor;
    if (flow.fixed) continue;
    for (const Crossing& c : flow.route) {
      const int q = c.resource;
      Resource& res = resources_[q];
      if (resource_stamps_[q] != stamp_) {
        resource_stamps_[q] = stamp_;
        component_resources_.push_back(q);
        res.remaining = res.unused;
        res.weights = 0;
        res.unfixed = 0;
      }
      res.remaining += flow.rate;
      res.weights += flow.weight;
      ++res.unfixed;
    }
  }
  fill(changed);
}

void MaxMinSharing::fill(std::vector<int>& changed) {
  // Progressive filling: the resource with the lowest share per unit of weight saturates next and
  // fixes its flows. Small components scan an array of shares per round; large ones keep the
  // shares as the leaves of a tournament tree (each inner node holds the leaf that wins its
  // subtree), so that a round costs a few steps per resource its flows cross.
  active_.clear();
  for (int r : component_resources_)
    if (resources_[r].unfixed > 0) {
      resources_[r].active = static_cast<int>(active_.size());
      active_.push_back(r);
    }
  const bool tournament = active_.size() > kScanLimit;
  size_t leaves = active_.size();
  if (tournament)
    for (leaves = 2; leaves < active_.size();) leaves *= 2;
  shares_.assign(leaves, INFINITY);
  for (size_t i = 0; i < active_.size(); ++i) shares_[i] = resources_[active_[i]].remaining / resources_[active_[i]].weights;
  winners_.resize(leaves);
  auto winner = [&](size_t node) { return node >= leaves ? static_cast<int>(node - leaves) : winners_[node]; };
  auto play = [&](size_t node) {
    const int a = winner(2 * node), b = winner(2 * node + 1);
    winners_[node] = shares_[b] < shares_[a] ? b : a;
  };
  if (tournament)
    for (size_t node = leaves - 1; node >= 1; --node) play(node);
  auto lowest = [&] {
    return tournament ? winners_[1] : static_cast<int>(std::min_element(shares_.begin(), shares_.end()) - shares_.begin());
  };
  // Shares only grow: above the first node this leaf does not win, nothing changes.
  auto raise_share = [&](int leaf, double share) {
    shares_[leaf] = share;
    if (tournament)
      for (size_t node = (leaf + leaves) / 2; node >= 1 && winners_[node] == leaf; node /= 2) play(node);
  };

  for (int best = lowest(); !shares_.empty() && shares_[best] != INFINITY; best = lowest()) {
    const double level = std::max(shares_[best], 0.0);
    const int bottleneck = active_[best];
    resources_[bottleneck].spare = resources_[bottleneck].remaining;  // its tangent (entering_ is reset after the solve)
    resources_[bottleneck].bottleneck_weights = resources_[bottleneck].weights;
    raise_share(best, INFINITY);
    ++round_;
    touched_.clear();
    const int* list = resources_[bottleneck].flows;
    const size_t n = resources_[bottleneck].num_flows;
    for (size_t k = 0; k < n; ++k) {
      if (k + kPrefetch < n) __builtin_prefetch(&flows_[list[k + kPrefetch]]);
      if (k + kPrefetch / 2 < n) __builtin_prefetch(flows_[list[k + kPrefetch / 2]].route.data());
      const int f = list[k];
      Flow& flow = flows_[f];
      if (flow.fixed) continue;
      flow.fixed = true;
      flow.level = level;
      const double rate = flow.weight * level;
      const double delta = rate - flow.rate;
      if (rate != flow.rate) {
        flow.rate = rate;
        changed.push_back(f);
      }
      for (const Crossing& c : flow.route) {
        const int q = c.resource;
        Resource& other = resources_[q];
        other.unused -= delta;
        other.remaining -= rate;
        other.weights -= flow.weight;
        --other.unfixed;
        if (q != bottleneck && other.round != round_) {
          other.round = round_;
          touched_.push_back(q);
        }
      }
    }
    // Without unfixed flows (saturated), a resource leaves the filling.
    for (int q : touched_) {
      Resource& other = resources_[q];
      if (other.unfixed == 0) {  // unsaturated: its flows are fixed elsewhere
        other.spare = other.remaining;
        other.bottleneck_weights = 0;
      }
      raise_share(other.active, other.unfixed > 0 ? other.remaining / other.weights : INFINITY);
    }
  }
}

}  // namespace mapsim::sim
