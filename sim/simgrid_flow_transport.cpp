// Flow model on SimGrid's own solver (--flow-solver simgrid, the reference): the network as a
// SimGrid platform with explicit routes, one SimGrid comm per message. SimGrid's CM02 model shares
// bandwidth by max-min weighted by each route's latency; to share fairly, every route carries the
// same constant latency (on the node links) and the network model's latency-factor callback
// scales it to the route's true latency t_s + d t_p + (d+1) t_r. With smpi_sharing the links carry
// their true latencies instead and SimGrid weights sharing by route latency, exactly as SMPI does
// on the exported platform. Layout (scales to thousands of hosts): a top Full zone holding the
// switch links and one zone route per switch pair; a Full zone per switch with its hosts.
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u.hpp>
#include <spdlog/spdlog.h>

#include "sim/transport.h"
#include "routing/export.h"

namespace mapsim::sim {
namespace {

namespace sg4 = simgrid::s4u;
constexpr double kRouteLatency = 1e-6;  // the constant latency every route carries (2 node links)

class SimGridFlowTransport : public Transport {
 public:
  SimGridFlowTransport(const RoutedNetwork& routed, bool smpi_sharing, Delivered delivered)
      : routed_(routed), smpi_sharing_(smpi_sharing), delivered_(std::move(delivered)) {
    build_platform();
    sg4::Activity::on_completion_cb([this](const sg4::Activity& activity) {
      ++events_;
      const int id = static_cast<int>(reinterpret_cast<intptr_t>(activity.get_data<void>())) - 1;
      // SimGrid still walks this step's batch of ended comms: release them at a later date.
      if (now() > retired_date_) {
        retired_.clear();
        retired_date_ = now();
      }
      retired_.push_back(std::move(comms_[id]));
      delivered_(id);
    });
    if (smpi_sharing_) return;  // true latencies on the links, as in `mapsim topo --export simgrid`
    sg4::Engine::get_instance()->get_netzone_root()->get_network_model()->set_lat_factor_cb(
        [this](double, const sg4::Host*, const sg4::Host*, const std::vector<sg4::Link*>&,
               const std::unordered_set<sg4::NetZone*>&) {
          // Called from within Comm::start(), for the message start() is starting.
          return starting_latency_ / kRouteLatency;
        });
  }

  void start(int id, Message& m, const std::vector<Leg>&, double latency) override {
    starting_latency_ = latency;
    if (comms_.size() <= static_cast<size_t>(id)) comms_.resize(id + 1);
    sg4::CommPtr comm = sg4::Comm::sendto_init(hosts_[m.src_node], hosts_[m.dst_node]);
    comm->set_payload_size(static_cast<uint64_t>(m.wire));
    comm->set_data(reinterpret_cast<void*>(static_cast<intptr_t>(id) + 1));
    comm->start();
    comms_[id] = comm;
  }

  long events() const override { return events_; }
  // simulate() refuses optical circuits with the flow model.

 private:
  void build_platform() {
    const Network& net = routed_.network();
    auto* root = sg4::create_full_zone("mapsim");
    hosts_.resize(net.num_nodes());
    std::vector<sg4::Link*> nics(net.num_nodes());
    auto make_nic = [&](sg4::NetZone* zone, int n) {
      hosts_[n] = zone->create_host("node-" + std::to_string(n), 1e9);
      nics[n] = zone->create_split_duplex_link("nic-" + std::to_string(n), net.node(n).bandwidth)
                    ->set_latency(smpi_sharing_ ? folded_node_link_latency(net, n) : kRouteLatency / 2)
                    ->seal();
    };
    std::vector<sg4::Link*> links(net.num_links());
    auto make_links = [&](sg4::NetZone* zone) {
      for (int l = 0; l < net.num_links(); ++l)
        links[l] = zone->create_split_duplex_link("link-" + std::to_string(l), net.link(l).bandwidth)
                       ->set_latency(smpi_sharing_ ? folded_switch_link_latency(net, l) : 0)
                       ->seal();
    };
    auto channel_links = [&](const std::vector<int>& channels, std::vector<sg4::LinkInRoute>& out) {
      for (int c : channels)
        out.emplace_back(links[c / 2], c % 2 == 0 ? sg4::LinkInRoute::Direction::UP : sg4::LinkInRoute::Direction::DOWN);
    };
    using Dir = sg4::LinkInRoute::Direction;
    std::vector<int> channels;

    if (routed_.routing().per_node()) {
      // Routes depend on the destination node: one route per ordered node pair.
      for (int n = 0; n < net.num_nodes(); ++n) make_nic(root, n);
      make_links(root);
      if (static_cast<long>(net.num_nodes()) * net.num_nodes() > 4'000'000)
        spdlog::warn("flow model: {} per-node routes take a while", static_cast<long>(net.num_nodes()) * net.num_nodes());
      for (int a = 0; a < net.num_nodes(); ++a)
        for (int b = 0; b < net.num_nodes(); ++b) {
          if (a == b) continue;
          routed_.route(a, b, channels);
          std::vector<sg4::LinkInRoute> route{{nics[a], Dir::UP}};
          channel_links(channels, route);
          route.emplace_back(nics[b], Dir::DOWN);
          root->add_route(hosts_[a]->get_netpoint(), hosts_[b]->get_netpoint(), nullptr, nullptr, route, false);
        }
      root->seal();
      return;
    }

    std::vector<sg4::NetZone*> zones(net.num_switches(), nullptr);
    std::vector<simgrid::kernel::routing::NetPoint*> routers(net.num_switches(), nullptr);
    for (int s = 0; s < net.num_switches(); ++s) {
      if (net.nodes_of(s).empty()) continue;
      auto* zone = sg4::create_full_zone("zone-" + std::to_string(s));
      zone->set_parent(root);
      routers[s] = zone->create_router("sw-" + std::to_string(s));
      for (int n : net.nodes_of(s)) make_nic(zone, n);
      for (int a : net.nodes_of(s)) {
        zone->add_route(hosts_[a]->get_netpoint(), routers[s], nullptr, nullptr, {{nics[a], Dir::UP}}, false);
        zone->add_route(routers[s], hosts_[a]->get_netpoint(), nullptr, nullptr, {{nics[a], Dir::DOWN}}, false);
        for (int b : net.nodes_of(s))
          if (a != b)
            zone->add_route(hosts_[a]->get_netpoint(), hosts_[b]->get_netpoint(), nullptr, nullptr,
                            {{nics[a], Dir::UP}, {nics[b], Dir::DOWN}}, false);
      }
      zone->seal();
      zones[s] = zone;
    }
    make_links(root);
    for (int a = 0; a < net.num_switches(); ++a)
      for (int b = 0; b < net.num_switches(); ++b) {
        if (a == b || !zones[a] || !zones[b]) continue;
        routed_.routing().route(a, net.nodes_of(b).front(), channels);
        std::vector<sg4::LinkInRoute> route;
        channel_links(channels, route);
        root->add_route(zones[a]->get_netpoint(), zones[b]->get_netpoint(), routers[a], routers[b], route, false);
      }
    root->seal();
  }

  const RoutedNetwork& routed_;
  bool smpi_sharing_;
  Delivered delivered_;
  std::vector<sg4::Host*> hosts_;
  double starting_latency_ = 0;
  std::vector<sg4::CommPtr> comms_, retired_;
  double retired_date_ = 0;
  long events_ = 0;
};

}  // namespace

std::unique_ptr<Transport> make_simgrid_flow_transport(const RoutedNetwork& routed, const SimOptions& options,
                                                       Transport::Delivered delivered) {
  return std::make_unique<SimGridFlowTransport>(routed, options.smpi_sharing, std::move(delivered));
}

}  // namespace mapsim::sim
