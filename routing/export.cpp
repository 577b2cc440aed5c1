#include "routing/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <spdlog/spdlog.h>

#include "support/error.h"
#include "topologies/network_file.h"
#include "support/units.h"

namespace mapsim {
namespace {

std::string exact(double value) { return format_number(value, 17); }


std::string host_id(int node) { return "node-" + std::to_string(node); }
std::string router_id(int sw) { return "sw-" + std::to_string(sw); }
// Graphviz IDs must be plain identifiers ("node-0" would start with the keyword node).
std::string dot_node(int node) { return "n" + std::to_string(node); }
std::string dot_switch(int sw) { return "s" + std::to_string(sw); }
std::string node_link_id(int node) { return "nic-" + std::to_string(node); }
std::string switch_link_id(int link) { return "link-" + std::to_string(link); }

void write_link(std::ostream& out, const std::string& indent, const std::string& id, double bandwidth, double latency) {
  out << indent << "<link id=\"" << id << "\" bandwidth=\"" << exact(bandwidth) << "Bps\" latency=\"" << exact(latency)
      << "s\" sharing_policy=\"SPLITDUPLEX\"/>\n";
}

void write_ctn(std::ostream& out, const std::string& indent, const std::string& id, bool up) {
  out << indent << "<link_ctn id=\"" << id << "\" direction=\"" << (up ? "UP" : "DOWN") << "\"/>\n";
}

// Switch link channel 2l+0 runs a->b: "UP"; 2l+1: "DOWN". Node links: node->switch is "UP".
void write_channels(std::ostream& out, const std::string& indent, const std::vector<int>& channels) {
  for (int c : channels) write_ctn(out, indent, switch_link_id(c / 2), c % 2 == 0);
}

}  // namespace

void export_dot(const RoutedNetwork& routed, std::ostream& out) {
  const Network& net = routed.network();
  out << "graph mapsim {\n  // " << family_name(net.shape.family) << " network, routing " << routed.routing().name() << "\n";
  out << "  node [shape=box, style=filled, fillcolor=lightsteelblue];\n";
  for (int s = 0; s < net.num_switches(); ++s)
    out << "  " << dot_switch(s) << " [label=" << graphviz_quote(net.switch_at(s).name) << "];\n";
  out << "  node [shape=circle, width=0.15, label=\"\", fillcolor=gold];\n";
  for (int n = 0; n < net.num_nodes(); ++n)
    out << "  " << dot_node(n) << " [tooltip=" << graphviz_quote(net.node(n).name) << "];\n";
  for (const Link& l : net.links())
    out << "  " << dot_switch(l.a) << " -- " << dot_switch(l.b) << " [label=" << graphviz_quote(format_bandwidth(l.bandwidth))
        << "];\n";
  for (int n = 0; n < net.num_nodes(); ++n)
    out << "  " << dot_node(n) << " -- " << dot_switch(net.node(n).switch_id) << " [color=gray];\n";
  out << "}\n";
}

std::string graphviz_quote(const std::string& text) {
  std::string out = "\"";
  for (char ch : text)
    out += ch == '"' || ch == '\\' ? std::string("\\") + ch : static_cast<unsigned char>(ch) < 0x20 ? " " : std::string(1, ch);
  return out + "\"";
}

std::string load_colour(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f 0.9 0.85", (1 - fraction) / 3);
  return text;
}

namespace {

// load_colour() as HTML hex, for the legend.
std::string load_hex(double x) {
  const double h = (1 - x) / 3 * 6, v = 0.85, c = v * 0.9, m = v - c;  // hue in [0, 2]: red to green
  const double rise = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  const double r = h < 1 ? c : rise, g = h < 1 ? rise : c;
  char text[8];
  std::snprintf(text, sizeof text, "#%02X%02X%02X", static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)), static_cast<int>(std::lround(m * 255)));
  return text;
}

std::string load_text(double load, bool bytes) {
  if (!bytes) return format_number(load, 4);
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (load >= 1024 && u < 4) load /= 1024, ++u;
  return format_number(load, 4) + units[u];
}


}  // namespace

void export_load_dot(const RoutedNetwork& routed, const std::vector<double>& load, const std::vector<int>& ranks_per_node,
                     const LoadPicture& picture, std::ostream& out) {
  const Network& net = routed.network();
  double max_load = 0;
  for (int l = 0; l < net.num_links(); ++l) max_load = std::max({max_load, load[2 * l], load[2 * l + 1]});
  const double scale = picture.scale > 0 ? picture.scale : max_load;
  std::vector<int> ranks_per_switch(net.num_switches(), 0);
  for (int n = 0; n < net.num_nodes(); ++n) ranks_per_switch[net.node(n).switch_id] += ranks_per_node[n];
  const std::vector<int>& held = picture.per_switch ? ranks_per_switch : ranks_per_node;
  const int max_ranks = held.empty() ? 0 : *std::max_element(held.begin(), held.end());
  auto level = [&](int ranks) { return ranks == 0 ? 0 : std::min(9, 3 + 6 * ranks / std::max(1, max_ranks)); };
  auto shade = [&](int ranks) { return ranks == 0 ? std::string("white") : std::to_string(level(ranks)); };  // blues9

  // The title, what the marks mean, and the colour scale from idle to `scale`.
  const std::string what = picture.bytes ? "bytes" : "routed volume";
  out << "graph mapsim {\n  graph [layout=neato, overlap=false, fontname=\"sans\", labelloc=t, label=<"
      << "<TABLE BORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD COLSPAN=\"5\"><B>" << html_escape(picture.title)
      << "</B></TD></TR><TR><TD COLSPAN=\"5\">link colour and width: " << what << " on its busier direction (largest here "
      << html_escape(load_text(max_load, picture.bytes)) << "); " << (picture.per_switch ? "switch" : "node")
      << " shade: ranks held (max " << max_ranks << ")</TD></TR><TR>";
  for (int step = 0; step <= 4; ++step)
    out << "<TD BGCOLOR=\"" << load_hex(step / 4.0) << "\">" << html_escape(load_text(scale * step / 4, picture.bytes))
        << (step == 4 && picture.scale > 0 ? " (shared scale)" : "") << "</TD>";
  out << "</TR></TABLE>>];\n  node [shape=box, style=filled, fillcolor=lightsteelblue, fontname=\"sans\", fontsize=9"
      << (picture.per_switch ? ", colorscheme=blues9" : "") << "];\n";
  for (int s = 0; s < net.num_switches(); ++s) {
    out << "  " << dot_switch(s) << " [label=" << graphviz_quote(net.switch_at(s).name);
    if (picture.per_switch)
      out << ", xlabel=" << graphviz_quote(std::to_string(ranks_per_switch[s])) << ", fillcolor=" << shade(ranks_per_switch[s])
          << (level(ranks_per_switch[s]) >= 7 ? ", fontcolor=white" : "")
          << ", tooltip=" << graphviz_quote(net.switch_at(s).name + ": " + std::to_string(ranks_per_switch[s]) + " rank(s)");
    out << "];\n";
  }
  if (!picture.per_switch) {
    out << "  node [shape=circle, width=0.18, label=\"\", colorscheme=blues9];\n";
    for (int n = 0; n < net.num_nodes(); ++n)
      out << "  " << dot_node(n) << " [fillcolor=" << shade(ranks_per_node[n])
          << ", tooltip=" << graphviz_quote(net.node(n).name + ": " + std::to_string(ranks_per_node[n]) + " rank(s)") << "];\n";
  }
  for (int l = 0; l < net.num_links(); ++l) {
    const Link& link = net.link(l);
    const double x = scale > 0 ? std::min(1.0, std::max(load[2 * l], load[2 * l + 1]) / scale) : 0;
    out << "  " << dot_switch(link.a) << " -- " << dot_switch(link.b) << " [color=" << graphviz_quote(x > 0 ? load_colour(x) : "gray80")
        << ", penwidth=" << format_number(1 + 7 * x, 3) << ", tooltip="
        << graphviz_quote(load_text(load[2 * l], picture.bytes) + " / " + load_text(load[2 * l + 1], picture.bytes)) << "];\n";
  }
  if (!picture.per_switch)
    for (int n = 0; n < net.num_nodes(); ++n)
      out << "  " << dot_node(n) << " -- " << dot_switch(net.node(n).switch_id) << " [color=gray60, len=0.4];\n";
  out << "}\n";
}

void export_json(const RoutedNetwork& routed, std::ostream& out) { out << network_to_json(routed.network()); }

double folded_node_link_latency(const Network& net, int n) {
  return net.startup / 2 + net.switch_at(net.node(n).switch_id).router_delay / 2 + net.node(n).latency;
}

double folded_switch_link_latency(const Network& net, int l) {
  const Link& link = net.link(l);
  return link.latency + (net.switch_at(link.a).router_delay + net.switch_at(link.b).router_delay) / 2;
}

void export_simgrid(const RoutedNetwork& routed, std::ostream& out, double host_speed_flops) {
  const Network& net = routed.network();
  const Routing& routing = routed.routing();
  out << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- mapsim export: " << family_name(net.shape.family) << " network, " << routing.name()
      << " routing; latencies fold t_s, t_p and t_r (see docs/topologies.md) -->\n"
      << "<platform version=\"4.1\">\n  <zone id=\"mapsim\" routing=\"Full\">\n";
  std::vector<int> channels;
  const std::string speed = exact(host_speed_flops) + "f";

  if (routing.per_node()) {
    // Routes depend on the destination node: one flat zone with a route per ordered node pair.
    if (static_cast<long>(net.num_nodes()) * net.num_nodes() > 4'000'000)
      spdlog::warn("simgrid export of {} nodes with per-node routes writes {} routes", net.num_nodes(),
                   static_cast<long>(net.num_nodes()) * net.num_nodes());
    for (int n = 0; n < net.num_nodes(); ++n) out << "    <host id=\"" << host_id(n) << "\" speed=\"" << speed << "\"/>\n";
    for (int n = 0; n < net.num_nodes(); ++n)
      write_link(out, "    ", node_link_id(n), net.node(n).bandwidth, folded_node_link_latency(net, n));
    for (int l = 0; l < net.num_links(); ++l)
      write_link(out, "    ", switch_link_id(l), net.link(l).bandwidth, folded_switch_link_latency(net, l));
    for (int a = 0; a < net.num_nodes(); ++a)
      for (int b = 0; b < net.num_nodes(); ++b) {
        if (a == b) continue;
        routed.route(a, b, channels);
        out << "    <route src=\"" << host_id(a) << "\" dst=\"" << host_id(b) << "\" symmetrical=\"NO\">\n";
        write_ctn(out, "      ", node_link_id(a), true);
        write_channels(out, "      ", channels);
        write_ctn(out, "      ", node_link_id(b), false);
        out << "    </route>\n";
      }
    out << "  </zone>\n</platform>\n";
    return;
  }

  // Routes depend on switches only: a zone per switch with nodes (its hosts, their links and the
  // switch as gateway router), and one zone-to-zone route per ordered pair of such switches.
  std::vector<int> sources;
  for (int s = 0; s < net.num_switches(); ++s)
    if (!net.nodes_of(s).empty()) sources.push_back(s);
  if (sources.size() * sources.size() > 1'000'000)
    spdlog::warn("simgrid export writes {} zone routes", sources.size() * sources.size());
  for (int s : sources) {
    out << "    <zone id=\"zone-" << router_id(s) << "\" routing=\"Full\">\n";
    for (int n : net.nodes_of(s)) out << "      <host id=\"" << host_id(n) << "\" speed=\"" << speed << "\"/>\n";
    out << "      <router id=\"" << router_id(s) << "\"/>\n";
    for (int n : net.nodes_of(s)) write_link(out, "      ", node_link_id(n), net.node(n).bandwidth, folded_node_link_latency(net, n));
    for (int n : net.nodes_of(s)) {
      out << "      <route src=\"" << host_id(n) << "\" dst=\"" << router_id(s) << "\" symmetrical=\"NO\">\n";
      write_ctn(out, "        ", node_link_id(n), true);
      out << "      </route>\n      <route src=\"" << router_id(s) << "\" dst=\"" << host_id(n) << "\" symmetrical=\"NO\">\n";
      write_ctn(out, "        ", node_link_id(n), false);
      out << "      </route>\n";
      for (int m : net.nodes_of(s)) {
        if (m == n) continue;
        out << "      <route src=\"" << host_id(n) << "\" dst=\"" << host_id(m) << "\" symmetrical=\"NO\">\n";
        write_ctn(out, "        ", node_link_id(n), true);
        write_ctn(out, "        ", node_link_id(m), false);
        out << "      </route>\n";
      }
    }
    out << "    </zone>\n";
  }
  for (int l = 0; l < net.num_links(); ++l)
    write_link(out, "    ", switch_link_id(l), net.link(l).bandwidth, folded_switch_link_latency(net, l));
  for (int a : sources)
    for (int b : sources) {
      if (a == b) continue;
      routing.route(a, net.nodes_of(b).front(), channels);
      out << "    <zoneRoute src=\"zone-" << router_id(a) << "\" dst=\"zone-" << router_id(b) << "\" gw_src=\""
          << router_id(a) << "\" gw_dst=\"" << router_id(b) << "\" symmetrical=\"NO\">\n";
      write_channels(out, "      ", channels);
      out << "    </zoneRoute>\n";
    }
  out << "  </zone>\n</platform>\n";
}

void export_network(const RoutedNetwork& routed, const std::string& format, std::ostream& out) {
  if (format == "dot") return export_dot(routed, out);
  if (format == "json") return export_json(routed, out);
  if (format == "simgrid") return export_simgrid(routed, out);
  throw Error("unknown export format '" + format + "': expected dot, json or simgrid");
}

}  // namespace mapsim
