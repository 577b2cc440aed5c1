#include "topologies/routing.h"

#include "topologies/error.h"
#include "topologies/structured_routing.h"
#include "topologies/table_routing.h"

namespace mapsim {

int Routing::hops(int src_switch, int dst_node) const {
  std::vector<int> channels;
  route(src_switch, dst_node, channels);
  return static_cast<int>(channels.size());
}

void Routing::virtual_channels(const std::vector<int>& channels, std::vector<int>& vcs) const {
  vcs.assign(channels.size(), 0);
}

std::string default_routing_name(const Network& network) {
  const std::string& family = network.shape.family;
  if (family == "hypercube" || family == "mesh" || family == "torus") return "ecube";
  if (family == "fattree") return "dmodk";
  if (family == "suprenum") return "suprenum";
  return "updown";
}

std::unique_ptr<Routing> make_routing(const Network& network, const std::string& name) {
  const std::string chosen = name.empty() || name == "default" ? default_routing_name(network) : name;
  if (chosen == "updown") return std::make_unique<UpDownRouting>(network);
  if (chosen == "shortest") return std::make_unique<ShortestPathRouting>(network);
  if (chosen == "ecube") return std::make_unique<DimensionOrderRouting>(network);
  if (chosen == "dmodk") return std::make_unique<DmodkRouting>(network);
  if (chosen == "suprenum") return std::make_unique<SuprenumRouting>(network);
  throw Error("unknown routing '" + name + "': expected updown, shortest, ecube, dmodk, suprenum or default");
}

}  // namespace mapsim
