// Dragonfly routings (Kim et al. 2008). A minimal route is at most local, global, local. Valiant
// first goes minimally to a random intermediate group, then minimally on. UGAL picks, per message
// at the source, the minimal path or a Valiant one: UGAL-L by the queue at the source router times
// the path's hops, UGAL-G by the queues along both paths. Virtual channel = global hops taken so
// far, which makes every route's channel dependencies acyclic. A walk's state is 0 on the way to
// the destination, 1 + G on the way to intermediate group G.
// UGAL-L's options follow BookSim's `ugal` on `dragonflynew`: intermediate=router draws a node from
// all nodes and goes minimally to its router (minimal when that router is in the source's or the
// destination's group), state 1 + R; rule=threshold compares the first channels' queues
// (Routing::queue_threshold). Through an intermediate router a route is L G L L G L at most; the local
// hop after a local hop (in the intermediate group) takes a class of its own as well, so the classes
// 0 0 1 2 2 3 stay acyclic (BookSim's three phase classes are not: its UGAL deadlocks under load).
#include <algorithm>
#include <memory>
#include <optional>

#include "support/error.h"
#include "support/spec.h"
#include "routing/routing.h"

namespace mapsim {
namespace {

class DragonflyRouting : public Routing {
 public:
  enum class Kind { Minimal, Valiant, UgalLocal, UgalGlobal };

  DragonflyRouting(const Network& net, Kind kind, bool via_router = false,
                   std::optional<QueueThreshold> rule = std::nullopt)
      : net_(net), kind_(kind), via_router_(via_router), rule_(rule) {
    if (net.shape.family != Family::Dragonfly || net.shape.dims.size() != 4)
      throw NotApplicable(name() + " routing needs a dragonfly network, not a " + family_name(net.shape.family) + " network");
    a_ = net.shape.dims[0];
    g_ = net.shape.dims[3];
    gateways_.resize(static_cast<size_t>(g_) * g_);
    for (int c = 0; c < net.num_channels(); ++c) {
      const int from = group(net.channel_source(c)), to = group(net.channel_target(c));
      if (from != to) gateways_[static_cast<size_t>(from) * g_ + to].push_back(c);
    }
    if ((kind == Kind::Valiant || kind == Kind::UgalLocal || kind == Kind::UgalGlobal) && g_ < 3)
      throw Error(name() + " routing needs at least 3 groups (an intermediate group), the network has " + std::to_string(g_));
  }

  std::string name() const override {
    switch (kind_) {
      case Kind::Minimal: return "minimal";
      case Kind::Valiant: return "valiant";
      case Kind::UgalLocal: return "ugal-l";
      case Kind::UgalGlobal: return "ugal-g";
    }
    return "";
  }
  bool multipath() const override { return true; }
  bool decides_at_injection() const override { return kind_ != Kind::Minimal; }
  Injection injection() const override {
    return kind_ == Kind::UgalLocal ? Injection::LocalQueue
           : kind_ == Kind::UgalGlobal ? Injection::GlobalQueue
                                        : Injection::First;
  }
  int num_virtual_channels() const override { return kind_ == Kind::Minimal ? 2 : via_router_ ? 4 : 3; }
  std::optional<QueueThreshold> queue_threshold() const override { return rule_; }

  void start_states(int src_switch, int dst_node, uint64_t random, std::vector<int>& states) const override {
    states.assign(1, 0);
    const int gs = group(src_switch), gd = group(net_.node(dst_node).switch_id);
    if (kind_ == Kind::Minimal || gs == gd) return;
    if (via_router_) {  // BookSim: any node's router; in gs or gd it leaves the minimal path only
      const int via = net_.node(static_cast<int>(random % static_cast<uint64_t>(net_.num_nodes()))).switch_id;
      if (group(via) != gs && group(via) != gd) states.push_back(1 + via);
      return;
    }
    int via = static_cast<int>(random % static_cast<uint64_t>(g_ - 2));  // a group other than gs and gd
    for (int skip : {std::min(gs, gd), std::max(gs, gd)})
      if (via >= skip) ++via;
    if (kind_ == Kind::Valiant) states[0] = 1 + via;
    else states.push_back(1 + via);
  }

  void all_start_states(int src_switch, int dst_node, std::vector<int>& states) const override {
    states.assign(1, 0);
    const int gs = group(src_switch), gd = group(net_.node(dst_node).switch_id);
    if (kind_ == Kind::Minimal || gs == gd) return;
    if (kind_ == Kind::Valiant) states.clear();
    if (via_router_) {
      for (int via = 0; via < net_.num_switches(); ++via)
        if (!net_.nodes_of(via).empty() && group(via) != gs && group(via) != gd) states.push_back(1 + via);
      return;
    }
    for (int via = 0; via < g_; ++via)
      if (via != gs && via != gd) states.push_back(1 + via);
  }
  // A new class after a global hop, and after a local hop followed by another (intermediate router only).
  int next_vc(int vc, int previous, int channel) const override {
    return vc + (is_global(previous) || !is_global(channel));
  }

  void next_hops(int sw, int state, int dst_node, std::vector<Hop>& hops) const override {
    hops.clear();
    if (reached(sw, state)) state = 0;
    // Toward the destination's switch, the intermediate router, or (no switch) the intermediate group.
    const int to_switch = state == 0 ? net_.node(dst_node).switch_id : via_router_ ? state - 1 : -1;
    const int target = to_switch >= 0 ? group(to_switch) : state - 1;
    if (group(sw) == target) {
      if (sw != to_switch) hops.push_back({net_.channel_between(sw, to_switch), reached(to_switch, state) ? 0 : state});
      return;
    }
    // A router with a global link to the target group takes one of its own; others go to an owner.
    const std::vector<int>& gateways = gateways_[static_cast<size_t>(group(sw)) * g_ + target];
    for (int c : gateways)
      if (net_.channel_source(c) == sw) hops.push_back({c, reached(net_.channel_target(c), state) ? 0 : state});
    if (!hops.empty()) return;
    for (int c : gateways) hops.push_back({net_.channel_between(sw, net_.channel_source(c)), state});
    // Several replicas owned by one router give the same local hop: keep it once.
    std::sort(hops.begin(), hops.end(), [](const Hop& x, const Hop& y) { return x.channel < y.channel; });
    hops.erase(std::unique(hops.begin(), hops.end(), [](const Hop& x, const Hop& y) { return x.channel == y.channel; }),
               hops.end());
  }

  // The representative route: minimal (UGAL at zero load), or Valiant through a group drawn from
  // the (source, destination) pair; replicas of a global link picked by the pair as well.
  void route(int src_switch, int dst_node, std::vector<int>& channels) const override {
    const uint64_t pair = static_cast<uint64_t>(src_switch) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(dst_node);
    std::vector<int> states;
    start_states(src_switch, dst_node, pair >> 7, states);
    walk_route(net_, *this, src_switch, kind_ == Kind::Valiant ? states[0] : 0, dst_node,
               [&](const std::vector<Hop>& hops, int) { return static_cast<size_t>(pair % hops.size()); }, channels);
  }
  bool per_node() const override { return true; }

  void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const override {
    vcs.assign(channels.size(), 0);
    for (size_t i = 1; i < channels.size(); ++i) vcs[i] = next_vc(vcs[i - 1], channels[i - 1], channels[i]);
  }

  std::string rule_violation(int, int, const std::vector<int>& channels) const override {
    const int max_globals = kind_ == Kind::Minimal ? 1 : 2;
    int globals = 0, locals_in_group = 0;
    for (size_t i = 0; i < channels.size(); ++i) {
      if (is_global(channels[i])) {
        if (++globals > max_globals) return "hop " + std::to_string(i) + " is global link number " + std::to_string(globals);
        locals_in_group = 0;
      } else if (++locals_in_group > (via_router_ && globals == 1 ? 2 : 1)) {
        return "hop " + std::to_string(i) + " is local hop number " + std::to_string(locals_in_group) + " in one group";
      }
    }
    // Two local hops only in an intermediate group, never in the destination's.
    if (globals == 1 && locals_in_group > 1)
      return "hop " + std::to_string(channels.size() - 1) + " is a second local hop in the destination group";
    return {};
  }

 private:
  int group(int sw) const { return sw / a_; }
  // Whether a walk in `state` has reached its intermediate router or group at switch sw.
  bool reached(int sw, int state) const { return state > 0 && (via_router_ ? sw == state - 1 : group(sw) == state - 1); }
  bool is_global(int c) const { return group(net_.channel_source(c)) != group(net_.channel_target(c)); }

  const Network& net_;
  Kind kind_;
  bool via_router_;                      // intermediate router (BookSim's), else intermediate group
  std::optional<QueueThreshold> rule_;  // UGAL-L's choice; none: queue x hops
  int a_ = 1, g_ = 1;
  std::vector<std::vector<int>> gateways_;  // [from group][to group]: global channels
};

template <DragonflyRouting::Kind kind>
std::unique_ptr<Routing> make(const Network& net, Spec&) {
  return std::make_unique<DragonflyRouting>(net, kind);
}

std::unique_ptr<Routing> make_ugal_local(const Network& net, Spec& spec) {
  const bool via_router = one_of("routing.intermediate", spec.get_string("intermediate"), {"group", "router"}) == 1;
  const bool by_threshold = one_of("routing.rule", spec.get_string("rule"), {"hops", "threshold"}) == 1;
  std::optional<Routing::QueueThreshold> threshold;
  if (by_threshold) threshold = Routing::QueueThreshold{spec.get_double("factor"), spec.get_size("threshold")};
  else if (spec.has("factor") || spec.has("threshold"))
    throw Error("routing." + std::string(spec.has("factor") ? "factor" : "threshold") + ": only with rule=threshold");
  return std::make_unique<DragonflyRouting>(net, DragonflyRouting::Kind::UgalLocal, via_router, threshold);
}

}  // namespace

MAPSIM_REGISTER(routing_registry(), {"minimal", "dragonfly minimal: local, global, local hop at most",
                                     {}, {{"dragonfly"}, make<DragonflyRouting::Kind::Minimal>}});
MAPSIM_REGISTER(routing_registry(), {"valiant", "dragonfly Valiant: minimal to a random intermediate group, then minimal",
                                     {}, {{}, make<DragonflyRouting::Kind::Valiant>}});
MAPSIM_REGISTER(routing_registry(),
                {"ugal-l", "dragonfly UGAL-L: minimal or Valiant per message by the source router's queue x hops",
                 {text_param("intermediate", "group",
                             "Valiant's intermediate: a random group other than both ends' (group), or the router of "
                             "a random node, minimal when in either end's group (router, as BookSim's ugal)"),
                  text_param("rule", "hops",
                             "the least (queue + packet) x hops (hops), or minimal iff queue_min <= factor x "
                             "queue_valiant + threshold (threshold, as BookSim's ugal); queues of the first hops"),
                  real_param("factor", 2, "rule=threshold: the Valiant queue's weight", 0),
                  size_param("threshold", 0, "rule=threshold: bias toward minimal (BookSim: 30 flits)")},
                 {{}, make_ugal_local, true}});
MAPSIM_REGISTER(routing_registry(),
                {"ugal-g", "dragonfly UGAL-G: minimal or Valiant per message by the queues along each path",
                 {}, {{}, make<DragonflyRouting::Kind::UgalGlobal>, true}});

}  // namespace mapsim
