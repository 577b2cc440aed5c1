// The link parameters of every network -- one name each, the same in generator specs, network
// files (defaults:) and scenario files (model:):
//   t_s  startup per message    t_p  link propagation    t_r  router delay
//   link_bandwidth (switch links)   node_bandwidth, node_latency (node links)
// Older names stay accepted as aliases: link_bw, node_bw (specs); startup, link_latency,
// router_delay (network files).
#pragma once
#include <string>
#include <vector>

#include "support/param.h"
#include "support/spec.h"
#include "topologies/network.h"

namespace mapsim {

struct LinkParam {
  Param param;  // name, aliases, type (time or bandwidth), description
  double LinkDefaults::*field;
};
// The table, with the given defaults (generators differ: tree2 has its own).
std::vector<LinkParam> link_param_table(const LinkDefaults& defaults = {});
// As declared parameters of a generator: `own` followed by the link parameters.
std::vector<Param> link_params(const LinkDefaults& defaults = {});
std::vector<Param> with_link_params(std::vector<Param> own, const LinkDefaults& defaults = {});
// Reads the link keys of a spec that declared link_params(defaults).
LinkDefaults read_link_params(Spec& spec, LinkDefaults defaults);

}  // namespace mapsim
