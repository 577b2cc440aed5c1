#include "topologies/link_params.h"

#include "support/error.h"

namespace mapsim {

bool LinkOverrides::empty() const {
  return !link_bandwidth && !link_latency && !router_delay && !startup && !node_bandwidth && !node_latency;
}

std::vector<LinkParam> link_param_table(const LinkDefaults& d) {
  return {
      {with_aliases(bandwidth_param("link_bandwidth", d.link_bandwidth, "switch-to-switch link bandwidth"),
                    {"link_bw"}),
       &LinkDefaults::link_bandwidth, &LinkOverrides::link_bandwidth},
      {with_aliases(time_param("t_p", d.link_latency, "link propagation delay"), {"link_latency"}),
       &LinkDefaults::link_latency, &LinkOverrides::link_latency},
      {with_aliases(time_param("t_r", d.router_delay, "router delay per switch crossed"), {"router_delay"}),
       &LinkDefaults::router_delay, &LinkOverrides::router_delay},
      {with_aliases(time_param("t_s", d.startup, "startup paid once per message at the sender"), {"startup"}),
       &LinkDefaults::startup, &LinkOverrides::startup},
      {with_aliases(bandwidth_param("node_bandwidth", d.node_bandwidth, "node-to-switch link bandwidth"), {"node_bw"}),
       &LinkDefaults::node_bandwidth, &LinkOverrides::node_bandwidth},
      {time_param("node_latency", d.node_latency, "node-to-switch propagation delay"), &LinkDefaults::node_latency,
       &LinkOverrides::node_latency},
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

std::string link_conflict(const Spec& spec, const LinkOverrides& links) {
  for (const LinkParam& p : link_param_table()) {
    if (!(links.*p.override)) continue;
    bool given = spec.has(p.param.name);
    for (const std::string& alias : p.param.aliases) given = given || spec.has(alias);
    if (given) return p.param.name;
  }
  return "";
}

LinkDefaults read_link_params(Spec& spec, const LinkOverrides& links, LinkDefaults d) {
  if (const std::string key = link_conflict(spec, links); !key.empty())
    throw Error("bad spec '" + spec.text() + "': '" + key + "' is given both in the spec and as a link override");
  for (const LinkParam& p : link_param_table(d)) {
    if (const std::optional<double>& value = links.*p.override) {
      if (!param_in_range(p.param, *value))
        throw Error("link override " + p.param.name + " must be " + param_range_text(p.param));
      d.*p.field = *value;
    } else {
      d.*p.field = p.param.type == ParamType::Time ? spec.get_time(p.param.name) : spec.get_bandwidth(p.param.name);
    }
  }
  return d;
}

}  // namespace mapsim
