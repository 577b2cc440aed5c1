// The link parameters of every network -- one name each, the same in generator specs, network
// files (defaults:) and scenario files (model:):
//   t_s  startup per message    t_p  link propagation    t_r  router delay
//   link_bandwidth (switch links)   node_bandwidth, node_latency (node links)
// Older names stay accepted as aliases: link_bw, node_bw (specs); startup, link_latency,
// router_delay (network files).
// A value given outside the network's spec (a scenario's model: keys) reaches the generator typed, as
// a LinkOverrides field; read_link_params applies it, the one place where link values are read.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "support/param.h"
#include "support/spec.h"
#include "topologies/network.h"

namespace mapsim {

// Link values set outside a network's spec, in SI base units (bytes/s, seconds); none: the spec's
// value or the generator's default.
struct LinkOverrides {
  std::optional<double> link_bandwidth, link_latency, router_delay, startup, node_bandwidth, node_latency;
  bool empty() const;
};

struct LinkParam {
  Param param;  // name, aliases, type (time or bandwidth), description
  double LinkDefaults::*field;
  std::optional<double> LinkOverrides::*override;
};
// The table, with the given defaults (generators differ: tree2 has its own).
std::vector<LinkParam> link_param_table(const LinkDefaults& defaults = {});
// As declared parameters of a generator: `own` followed by the link parameters.
std::vector<Param> link_params(const LinkDefaults& defaults = {});
std::vector<Param> with_link_params(std::vector<Param> own, const LinkDefaults& defaults = {});
// The first link parameter (table order) that `links` sets and `spec` also gives, under its name or an
// alias; empty if none. Giving one value twice is an error.
std::string link_conflict(const Spec& spec, const LinkOverrides& links);
// Reads the link keys of a spec that declared link_params(defaults): each value is the override when
// one is set, else the spec's, else the default. Throws Error for a key both in the spec and in `links`
// and for an override outside the declared range.
LinkDefaults read_link_params(Spec& spec, const LinkOverrides& links, LinkDefaults defaults);

}  // namespace mapsim
