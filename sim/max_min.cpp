#include "sim/internal/max_min.h"

#include <algorithm>
#include <cmath>

#include "sim/internal/free_list.h"

namespace mapsim::sim {

// Why the floor is exact: progressive filling raises a common level x; a resource saturates when its
// fixed flows' rates plus x times its unfixed flows' weights reach its capacity. A removed flow at
// level l only loaded resources that saturate at l or later; an added flow only loads resources that
// saturate at its new level or later, which is at least min over its resources of
// capacity / (flows there x largest weight). Below the lowest such level, the same resources
// saturate at the same levels and fix the same flows at the same rates as before.

// Why level classes (tolerant mode): the links near the up*/down* root carry thousands of flows,
// and at 4096 to 16384 ranks about 2/3 of the flows a solve scanned were below its floor, only
// subtracted from their links' capacities. Measured: those scans were cheap (the flows stay in
// cache) and refiling flows costs more than skipping them saves (docs/simulation.md).

MaxMinSharing::MaxMinSharing(std::vector<double> capacities, bool tolerant, size_t hot)
    : resources_(capacities.size()), tolerant_(tolerant), hot_(hot) {
  for (size_t r = 0; r < capacities.size(); ++r) resources_[r].capacity = capacities[r];
}

int MaxMinSharing::first_of(const Resource& res, int key) const {
  if (!res.bucketed) return 0;
  if (res.bounds.size() <= 1) return res.bounds.empty() || res.bounds[0].key >= key ? 0 : static_cast<int>(res.flows.size());
  auto b = std::lower_bound(res.bounds.begin(), res.bounds.end(), key, [](const Bound& b, int k) { return b.key < k; });
  return b == res.bounds.end() ? static_cast<int>(res.flows.size()) : b->begin;
}

void MaxMinSharing::place(int id, int r, int slot) {
  resources_[r].flows[slot] = id;
  Flow& f = flows_[id];
  f.slots[std::find(f.resources.begin(), f.resources.end(), r) - f.resources.begin()] = slot;
}

// The classes above the flow's each pass their first flow to their end, making room for it at the
// end of its own class.
void MaxMinSharing::link(int id, size_t k) {
  Flow& f = flows_[id];
  const int r = f.resources[k];
  Resource& res = resources_[r];
  const int key = key_at(res, f);
  auto b = std::lower_bound(res.bounds.begin(), res.bounds.end(), key, [](const Bound& b, int k) { return b.key < k; });
  if (b == res.bounds.end() || b->key != key)
    b = res.bounds.insert(b, Bound{key, b == res.bounds.end() ? static_cast<int>(res.flows.size()) : b->begin});
  int hole = static_cast<int>(res.flows.size());
  res.flows.push_back(id);
  for (auto c = res.bounds.end() - 1; c != b; --c) {
    if (hole != c->begin) place(res.flows[c->begin], r, hole);
    hole = c->begin++;
  }
  res.flows[hole] = id;
  f.slots[k] = hole;
}

// Its class's last flow takes its slot, then the classes above each pass their last flow to their
// front. Exact mode (one class): the swap-remove the single list always had.
void MaxMinSharing::unlink(int id, size_t k) {
  Flow& f = flows_[id];
  const int r = f.resources[k];
  Resource& res = resources_[r];
  auto b = std::lower_bound(res.bounds.begin(), res.bounds.end(), key_at(res, f), [](const Bound& b, int k) { return b.key < k; });
  int hole = f.slots[k];
  for (auto c = b + 1;; ++c) {
    const int last = (c == res.bounds.end() ? static_cast<int>(res.flows.size()) : c->begin) - 1;
    if (hole != last) place(res.flows[last], r, hole);
    hole = last;
    if (c == res.bounds.end()) break;
    --c->begin;
  }
  res.flows.pop_back();
  if ((b + 1 == res.bounds.end() ? static_cast<int>(res.flows.size()) : (b + 1)->begin) == b->begin) res.bounds.erase(b);
}

void MaxMinSharing::bucket(int r, bool on) {
  Resource& res = resources_[r];
  res.bucketed = on;
  if (on) std::stable_sort(res.flows.begin(), res.flows.end(), [&](int a, int b) { return flows_[a].key < flows_[b].key; });
  res.bounds.clear();
  for (size_t i = 0; i < res.flows.size(); ++i) {
    const int key = key_at(res, flows_[res.flows[i]]);
    if (res.bounds.empty() || res.bounds.back().key != key) res.bounds.push_back(Bound{key, static_cast<int>(i)});
    if (on) place(res.flows[i], r, static_cast<int>(i));
  }
}

int MaxMinSharing::add(const std::vector<int>& resources, double weight) {
  const int id = acquire(flows_, free_);
  Flow& f = flows_[id];
  f.resources = resources;
  f.slots.resize(resources.size());
  f.weight = weight;
  f.rate = 0;
  f.level = INFINITY;
  f.key = level_class(f.level);
  max_weight_ = std::max(max_weight_, weight);
  double floor = INFINITY;
  for (size_t k = 0; k < resources.size(); ++k) {
    link(id, k);
    const Resource& res = resources_[resources[k]];
    if (tolerant_ && !res.bucketed && res.flows.size() > hot_) bucket(resources[k], true);
    floor = std::min(floor, res.capacity / (static_cast<double>(res.flows.size()) * max_weight_));
  }
  for (int r : resources) mark_dirty(r, floor);
  return id;
}

double MaxMinSharing::entry_floor(const std::vector<int>& resources, double weight) const {
  const double max_weight = std::max(max_weight_, weight);
  double floor = INFINITY;
  for (int r : resources)
    floor = std::min(floor, resources_[r].capacity / (static_cast<double>(resources_[r].flows.size() + 1) * max_weight));
  return floor;
}

double MaxMinSharing::dirty_floor() const {
  double floor = INFINITY;
  for (int r : dirty_) floor = std::min(floor, resources_[r].floor);
  return floor;
}

void MaxMinSharing::remove(int id) {
  Flow& f = flows_[id];
  for (size_t k = 0; k < f.resources.size(); ++k) {
    unlink(id, k);
    Resource& res = resources_[f.resources[k]];
    if (res.bucketed && res.flows.size() < hot_ / 2) bucket(f.resources[k], false);
    // Once empty, the running sum restarts from exactly 0.
    res.total = res.flows.empty() ? 0 : res.total - f.rate;
    mark_dirty(f.resources[k], f.level);
  }
  free_.push_back(id);
}

void MaxMinSharing::mark_dirty(int resource, double floor) {
  Resource& res = resources_[resource];
  if (!res.dirty) {
    res.dirty = true;
    res.floor = floor;
    dirty_.push_back(resource);
  } else {
    res.floor = std::min(res.floor, floor);
  }
}

void MaxMinSharing::solve(std::vector<int>& changed) {
  double floor = dirty_floor();
  // Flows fixed in one round can differ by a few ulps from resources that tie: a margin keeps
  // them above the floor (recomputing more flows than needed is always exact).
  floor *= 1 - 1e-9;
  floor_class_ = level_class(floor);
  ++stamp_;
  for (int start : dirty_) {
    if (resources_[start].stamp == stamp_) continue;  // in a component solved already
    // The flows at or above the floor connected to `start` through shared resources, and their
    // resources, whose capacity the flows below the floor reduce by their (unchanged) rates.
    component_resources_.assign(1, start);
    resources_[start].stamp = stamp_;
    for (size_t i = 0; i < component_resources_.size(); ++i) {
      Resource& res = resources_[component_resources_[i]];
      res.remaining = res.capacity;
      res.weights = 0;
      res.unfixed = 0;
      // The classes below the floor's hold flows below the floor only: they are not scanned. The
      // floor's class holds both; the classes above, flows above only.
      const int first = first_of(res, floor_class_);
      double scanned = 0;  // the rates of the flows scanned
      for (auto it = res.flows.begin() + first; it != res.flows.end(); ++it) {
        Flow& flow = flows_[*it];
        scanned += flow.rate;
        if (flow.level < floor) {
          flow.fixed = true;
          res.remaining -= flow.rate;
          continue;
        }
        res.weights += flow.weight;
        ++res.unfixed;
        if (flow.stamp == stamp_) continue;
        flow.stamp = stamp_;
        flow.fixed = false;
        for (int q : flow.resources)
          if (resources_[q].stamp != stamp_) {
            resources_[q].stamp = stamp_;
            component_resources_.push_back(q);
          }
      }
      // The unscanned classes' rates: the running sum less the scanned ones. When every flow was
      // scanned (always in exact mode), the running sum restarts from their exact sum instead.
      if (first > 0) res.remaining -= res.total - scanned;
      else res.total = scanned;
    }
    fill(changed);
  }
  for (int r : dirty_) resources_[r].dirty = false;
  dirty_.clear();
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
    raise_share(best, INFINITY);
    ++round_;
    touched_.clear();
    const Resource& res = resources_[bottleneck];
    // Refiling the flows now would move them within the lists iterated here: after the filling.
    for (auto it = res.flows.begin() + first_of(res, floor_class_); it != res.flows.end(); ++it) {
      const int f = *it;
      Flow& flow = flows_[f];
      if (flow.fixed) continue;
      flow.fixed = true;
      flow.level = level;
      // A flow filed above its level's class is only scanned in vain; below, it would be skipped
      // wrongly: refiled when its level rises out of its class, or falls by more than kSlack classes.
      const int key = level_class(level);
      if (key > flow.key || key + kSlack < flow.key) refile_.push_back(f);
      const double rate = flow.weight * level;
      const double old_rate = flow.rate;
      if (rate != flow.rate) {
        flow.rate = rate;
        changed.push_back(f);
      }
      for (int q : flow.resources) {
        Resource& other = resources_[q];
        other.total += rate - old_rate;
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
      const Resource& other = resources_[q];
      raise_share(other.active, other.unfixed > 0 ? other.remaining / other.weights : INFINITY);
    }
  }
  for (int f : refile_) {
    Flow& flow = flows_[f];
    for (size_t k = 0; k < flow.resources.size(); ++k)
      if (resources_[flow.resources[k]].bucketed) unlink(f, k);
    flow.key = level_class(flow.level);
    for (size_t k = 0; k < flow.resources.size(); ++k)
      if (resources_[flow.resources[k]].bucketed) link(f, k);
  }
  refile_.clear();
}

}  // namespace mapsim::sim
