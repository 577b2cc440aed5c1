// Next-hop table routing with a small per-route state, built by one backward BFS per destination
// switch over (switch, state) pairs. The state machine decides which channels may follow which:
// shortest has one state; up*/down* has "may still go up" and "going down". Only the distances are
// kept (2 bytes per destination switch, state and switch); the next hop is the first port, in
// (neighbour id, link id) order, that keeps a shortest legal route.
#pragma once
#include <string>
#include <cstdint>
#include <vector>

#include "routing/routing.h"

namespace mapsim {

// What the table routings (these and updn / minhop) may allocate for their tables: beyond it they
// refuse the network with an Error before building anything.
constexpr double kMaxTableBytes = 8e9;

// The switch whose BFS tree is lowest (smallest eccentricity), lowest id on ties: up*/down*'s root.
int min_height_root(const Network& network);

class TableRouting : public Routing {
 public:
  void route(int src_switch, int dst_node, std::vector<int>& channels) const override;
  int hops(int src_switch, int dst_node) const override;
  // Every legal minimal route (the table keeps the lowest neighbour id's).
  bool multipath() const override { return true; }
  void next_hops(int sw, int state, int dst_node, std::vector<Hop>& hops) const override;

 protected:
  // Throws Error when the S x S x states distances exceed kMaxTableBytes, before the subclass
  // spends time on a root or levels.
  TableRouting(const Network& network, int states, const std::string& name);
  // Builds the tables; call once from the derived constructor.
  void build();
  // State after taking `channel` in `state`, or -1 if the channel may not be taken then.
  virtual int transition(int state, int channel) const = 0;

  const Network& network_;

 private:
  size_t index(int dst, int state, int sw) const {
    return (static_cast<size_t>(dst) * states_ + state) * network_.num_switches() + sw;
  }
  int after(int state, int channel) const { return next_state_[static_cast<size_t>(channel) * states_ + state]; }
  // The channel route() takes from (sw, state) toward dst, or -1 at dst or where dst is unreachable.
  int next_channel(int dst, int state, int sw) const;
  int states_;
  std::vector<uint16_t> dist_;   // remaining hops
  std::vector<int8_t> next_state_;  // [channel][state]: transition()
};

class ShortestPathRouting : public TableRouting {
 public:
  explicit ShortestPathRouting(const Network& network);
  std::string name() const override { return "shortest"; }
  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override;

 protected:
  int transition(int, int) const override { return 0; }
};

class UpDownRouting : public TableRouting {
 public:
  explicit UpDownRouting(const Network& network);
  std::string name() const override { return "updown"; }
  std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const override;

  int root() const { return root_; }
  int root_switch() const override { return root_; }
  int level(int sw) const { return level_[sw]; }
  // A channel is "up" when it leads to a lower level, or to a lower id on the same level.
  bool is_up(int channel) const;

 protected:
  int transition(int state, int channel) const override;

 private:
  int root_;
  std::vector<int> level_;
};

}  // namespace mapsim
