// Writes a routed network for other tools:
//   dot      Graphviz (switches as boxes, nodes as points). Structured families are drawn with pinned
//            positions (layout=neato, which `dot -Tsvg` follows): trees (fattree, xgft, tree2) in rows,
//            compute nodes at the bottom, then the switches that hold them, then each level above;
//            dragonflies as one cluster per group, groups on a circle; mesh, torus, hypercube and HyperX
//            as a grid from the switch coordinates. Irregular networks (and files) keep a free layout.
//   json     mapsim's own network file format (loads back with file:PATH)
//   simgrid  SimGrid platform XML 4.1: host node-i, router sw-j, split-duplex links and the
//            routing's explicit routes; t_s, t_p and t_r are folded into link latencies so that an
//            unloaded message sees exactly RoutedNetwork::latency.
#pragma once
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "routing/routed_network.h"

namespace mapsim {

// Link latencies with t_s and t_r folded in, as the simgrid export writes them: a node link carries
// t_s/2 + t_r/2 of its switch + its own latency, a switch link t_p + half of each end's t_r, so that
// the links of a route sum to RoutedNetwork::latency.
double folded_node_link_latency(const Network& network, int node);
double folded_switch_link_latency(const Network& network, int link);

void export_dot(const RoutedNetwork& routed, std::ostream& out);
// A load in the unit every picture and report shows it in: bytes in B, KiB, MiB, GiB or TiB with 4
// significant digits ("7.502 MiB"); a routed volume (bytes = false) as a plain number.
std::string format_load(double load, bool bytes);
// The unit of format_load for `largest` and the factor that converts to it ({"MiB", 1/1048576}).
std::pair<const char*, double> load_unit(double largest, bool bytes);
// `text` as a Graphviz quoted string; control characters (a name from a file) become spaces.
std::string graphviz_quote(const std::string& text);
// The colour of a link at `fraction` of the picture's scale: Graphviz HSV from green (0) to red (1).
std::string load_colour(double fraction);
struct LoadPicture {
  std::string title;
  bool bytes = true;        // loads are bytes (simulated); false: routed volume of the process graph
  bool seconds = false;     // loads are times instead (the flit model's waits for credits)
  double scale = 0;         // the load drawn reddest and widest (shared by pictures to compare); 0: the largest here
  bool per_switch = false;  // no node vertices: each switch shows the ranks of its nodes (large networks)
};
// The network as a load picture (OMARS's architecture window): switch links coloured and widened
// by the load of their busier direction, compute nodes shaded by the ranks they hold (none when
// `ranks_per_node` is empty), and a colour legend in the load's unit (format_load). `load` is per
// directed switch channel (Network::channel); laid out as export_dot.
void export_load_dot(const RoutedNetwork& routed, const std::vector<double>& load, const std::vector<int>& ranks_per_node,
                     const LoadPicture& picture, std::ostream& out);
void export_load_dot(const Network& network, const std::vector<double>& load, const std::vector<int>& ranks_per_node,
                     const LoadPicture& picture, std::ostream& out);
void export_json(const RoutedNetwork& routed, std::ostream& out);
void export_simgrid(const RoutedNetwork& routed, std::ostream& out, double host_speed_flops = 1e9);
// Dispatches on format name; throws on an unknown one.
void export_network(const RoutedNetwork& routed, const std::string& format, std::ostream& out);

}  // namespace mapsim
