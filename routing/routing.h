// Routing: the path a message takes. A route is the list of directed switch-to-switch channels
// (Network::channel) from the source switch to the switch of the destination node; node links are
// implicit at both ends. route() gives one fixed route per pair (what the mapping metrics and
// static analyses use); multipath routings also list every legal next hop, which the simulation
// models walk (ECMP, spraying, adaptive routing, Valiant, UGAL). Tables are O(S^2) or O(S x N),
// never a node x node matrix.
// Each routing registers itself in routing_registry() from its own file, naming the network
// families it is the natural ("default") routing of (docs/topologies.md lists them: updn, minhop,
// lft, updown, shortest, ecube, dmodk, suprenum, minimal, valiant, ugal-l, ugal-g, dor).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/registry.h"
#include "topologies/network.h"

namespace mapsim {

class Routing {
 public:
  virtual ~Routing() = default;
  virtual std::string name() const = 0;
  // Appends the route's channels to `channels` (cleared first).
  virtual void route(int src_switch, int dst_node, std::vector<int>& channels) const = 0;
  // Number of switch-to-switch links on the route.
  virtual int hops(int src_switch, int dst_node) const;
  // True when routes depend on the destination node, not only on its switch.
  virtual bool per_node() const { return false; }
  // Virtual channel of each hop of a route, for the deadlock check (default: one class).
  virtual int num_virtual_channels() const { return 1; }
  virtual void virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const;
  // Empty if `channels` obeys this routing's rule, else a short reason.
  virtual std::string rule_violation(int src_switch, int dst_node, const std::vector<int>& channels) const = 0;
  // The switch the routes are organised around (up*/down*'s root), or -1.
  virtual int root_switch() const { return -1; }
  // A cost model of its own for a message between two nodes (SUPRENUM's eq. 3), or none: the
  // mapping cost is then the zero-load latency.
  virtual std::optional<double> message_cost(int /*src_node*/, int /*dst_node*/) const { return std::nullopt; }

  // ---- Path diversity, walked hop by hop by the simulation models (ECMP, spraying, adaptive
  // routing) and by routings that decide at injection (Valiant, UGAL). A walk starts in one of
  // start_states() at the source switch and takes one of next_hops() at each switch; every walk
  // is legal under rule_violation() and uses the virtual channels virtual_channels() gives.
  struct Hop {
    int channel;
    int state;  // route state after the hop
  };
  // True when routes are walked with next_hops(): several paths exist (minimal multipath tables,
  // Valiant, UGAL). Otherwise models take route() whole.
  virtual bool multipath() const { return false; }
  // Legal next hops from `sw` in `state` toward dst_node, in a fixed order; empty at its switch.
  // They depend on the destination node's switch only (the deadlock check walks one node per switch).
  virtual void next_hops(int sw, int state, int dst_node, std::vector<Hop>& hops) const;
  // True when models must walk routes even without a path selection policy: the route is chosen
  // per message (Valiant, UGAL); route() then gives a fixed representative for static analysis.
  virtual bool decides_at_injection() const { return false; }
  // Start states at the source switch; `random` draws Valiant intermediates. Default {0}.
  virtual void start_states(int src_switch, int dst_node, uint64_t random, std::vector<int>& states) const;
  // How a model picks among several start states: the first, by the queue at the source switch
  // (UGAL-L) or by the queues along each path (UGAL-G).
  enum class Injection { First, LocalQueue, GlobalQueue };
  virtual Injection injection() const { return Injection::First; }
  // LocalQueue's rule between the minimal start state (the first) and the other one, by the backlog q
  // of each one's first channel. None (the default): the least (q + packet) x hops. A threshold rule:
  // the minimal one iff q_min <= factor x q_other + threshold (bytes), as BookSim's dragonfly UGAL.
  struct QueueThreshold {
    double factor = 2, threshold = 0;
  };
  virtual std::optional<QueueThreshold> queue_threshold() const { return std::nullopt; }
  // Every start state a walk from src_switch may take (for the deadlock check of all walks).
  virtual void all_start_states(int src_switch, int dst_node, std::vector<int>& states) const {
    start_states(src_switch, dst_node, 0, states);
  }
  // The virtual channel of a walk's hop over `channel` after a hop over `previous` in class `vc`;
  // consistent with virtual_channels() (default: one class).
  virtual int next_vc(int /*vc*/, int /*previous*/, int /*channel*/) const { return 0; }
};

// Walks a multipath routing from src_switch in `state` to dst_node, taking at each switch the hop
// that `pick(hops, hop_index)` returns the index of (0: the first hop each time).
void walk_route(const Network& network, const Routing& routing, int src_switch, int state, int dst_node,
                const std::function<size_t(const std::vector<Routing::Hop>&, int)>& pick, std::vector<int>& channels);

struct RoutingComponent {
  std::vector<std::string> default_for;  // network families whose natural routing this is; "*": all others
  std::function<std::unique_ptr<Routing>(const Network&, Spec&)> make;
  bool per_packet = false;  // chooses among paths per packet from queue state (Routing::injection, UGAL)
};
using RoutingRegistry = Registry<RoutingComponent>;
RoutingRegistry& routing_registry();

// `name` "default" (or empty) picks the family's natural routing.
std::unique_ptr<Routing> make_routing(const Network& network, const std::string& name);
std::string default_routing_name(const Network& network);

}  // namespace mapsim
