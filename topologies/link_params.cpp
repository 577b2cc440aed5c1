#include "topologies/link_params.h"

namespace mapsim {

std::vector<LinkParam> link_param_table(const LinkDefaults& d) {
  return {
      {with_aliases(bandwidth_param("link_bandwidth", d.link_bandwidth, "switch-to-switch link bandwidth"),
                    {"link_bw"}),
       &LinkDefaults::link_bandwidth},
      {with_aliases(time_param("t_p", d.link_latency, "link propagation delay"), {"link_latency"}),
       &LinkDefaults::link_latency},
      {with_aliases(time_param("t_r", d.router_delay, "router delay per switch crossed"), {"router_delay"}),
       &LinkDefaults::router_delay},
      {with_aliases(time_param("t_s", d.startup, "startup paid once per message at the sender"), {"startup"}),
       &LinkDefaults::startup},
      {with_aliases(bandwidth_param("node_bandwidth", d.node_bandwidth, "node-to-switch link bandwidth"), {"node_bw"}),
       &LinkDefaults::node_bandwidth},
      {time_param("node_latency", d.node_latency, "node-to-switch propagation delay"), &LinkDefaults::node_latency},
  };
}

std::vector<Param> link_params(const LinkDefaults& defaults) {
  std::vector<Param> params;
  for (const LinkParam& p : link_param_table(defaults)) params.push_back(p.param);
  return params;
}

std::vector<Param> with_link_params(std::vector<Param> own, const LinkDefaults& defaults) {
  for (Param& p : link_params(defaults)) own.push_back(std::move(p));
  return own;
}

LinkDefaults read_link_params(Spec& spec, LinkDefaults d) {
  for (const LinkParam& p : link_param_table(d))
    d.*p.field = p.param.type == ParamType::Time ? spec.get_time(p.param.name) : spec.get_bandwidth(p.param.name);
  return d;
}

}  // namespace mapsim
