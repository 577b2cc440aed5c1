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

// Structured drawings: where each switch and node goes (inches, Graphviz y up), for the families whose
// generator says how they are built. Irregular networks (and anything that does not match its family's
// structure) get no placement and keep the free layout.
struct Placement {
  enum class Kind { None, Tiers, Groups, Grid } kind = Kind::None;
  std::vector<double> sx, sy, nx, ny;  // switch and node positions
  std::vector<int> level;              // Tiers: switch level, 0 for the switches that hold nodes
  std::vector<int> group;              // Groups: dragonfly group of each switch
  int groups = 0;
  std::vector<std::pair<double, double>> label;  // Groups: where each group's name goes, above it
  bool curved = false;  // links skip over vertices (torus wrap-around, hypercube, HyperX): routed around them (up to 100 links)
};

constexpr double kNodeStep = 0.3;   // between node circles
constexpr double kSwitchStep = 0.9; // between switch boxes on a row

// Levels of a tree: generators number switches level by level from the leaves, every link joining
// adjacent levels; when the ids do not say so (tree2, a network file) levels count hops from the
// switches that hold compute nodes.
std::vector<int> tree_levels(const Network& net) {
  const int count = net.num_switches();
  std::vector<int> by_id(count, 0);
  for (int s = 0; s < count; ++s)
    for (const Network::Port& port : net.ports_of(s))
      if (port.neighbor < s) by_id[s] = std::max(by_id[s], by_id[port.neighbor] + 1);
  bool layered = true;
  for (const Link& l : net.links()) layered = layered && std::abs(by_id[l.a] - by_id[l.b]) == 1;
  for (int s = 0; s < count && layered; ++s) layered = net.nodes_of(s).empty() || by_id[s] == 0;
  if (layered) return by_id;
  std::vector<int> leaves;
  for (int s = 0; s < count; ++s)
    if (!net.nodes_of(s).empty()) leaves.push_back(s);
  std::vector<int> hops = bfs_distances(net, leaves);
  for (int& h : hops) h = std::max(h, 0);
  return hops;
}

// Columns of the block of nodes under a switch: one row up to 6, then about twice as wide as high.
int node_columns(int nodes) { return nodes <= 6 ? std::max(nodes, 1) : static_cast<int>(std::ceil(std::sqrt(2.0 * nodes))); }

// Rows from the bottom: compute nodes, the switches that hold them, then each level above; a row's
// switches are ordered by the mean position of their neighbours below and spread over the width.
Placement tiers(const Network& net, bool with_nodes) {
  Placement p;
  p.kind = Placement::Kind::Tiers;
  p.level = tree_levels(net);
  const int count = net.num_switches();
  const int top = *std::max_element(p.level.begin(), p.level.end());
  p.sx.assign(count, 0);
  p.sy.assign(count, 0);
  p.nx.assign(net.num_nodes(), 0);
  p.ny.assign(net.num_nodes(), 0);
  std::vector<std::vector<int>> rows(top + 1);
  for (int s = 0; s < count; ++s) rows[p.level[s]].push_back(s);
  double width = 0;
  for (int s : rows[0]) {
    const int nodes = static_cast<int>(net.nodes_of(s).size()), columns = node_columns(nodes);
    const double slot = with_nodes ? std::max(kSwitchStep, columns * kNodeStep + 0.2) : kSwitchStep;
    p.sx[s] = width + slot / 2;
    if (with_nodes)
      for (int i = 0; i < nodes; ++i) {
        const int n = net.nodes_of(s)[i];
        p.nx[n] = p.sx[s] + (i % columns - (columns - 1) / 2.0) * kNodeStep;
        p.ny[n] = -0.7 - (i / columns) * kNodeStep;
      }
    width += slot;
  }
  const double rise = std::min(3.0, std::max(1.3, width / (4.0 * std::max(1, top))));
  for (int l = 1; l <= top; ++l) {
    std::vector<std::pair<double, int>> order;
    for (int s : rows[l]) {
      double sum = 0;
      int below = 0;
      for (const Network::Port& port : net.ports_of(s))
        if (p.level[port.neighbor] == l - 1) sum += p.sx[port.neighbor], ++below;
      order.emplace_back(below ? sum / below : 0, s);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const double step = std::max(kSwitchStep, width / std::max<size_t>(1, order.size()));
    const double start = (width - step * order.size()) / 2;
    for (size_t i = 0; i < order.size(); ++i) {
      p.sx[order[i].second] = start + (i + 0.5) * step;
      p.sy[order[i].second] = l * rise;
    }
  }
  return p;
}

// Dragonfly groups on a circle, each group's routers on a small circle of their own (the local links
// are all-to-all), nodes outside their router.
Placement groups(const Network& net, bool with_nodes) {
  Placement p;
  const std::vector<int>& dims = net.shape.dims;  // a, p, h, g
  if (dims.size() != 4 || dims[0] < 1 || static_cast<long>(dims[0]) * dims[3] != net.num_switches()) return p;
  const int a = dims[0], g = dims[3];
  int most = 0;
  for (int s = 0; s < net.num_switches(); ++s) most = std::max(most, static_cast<int>(net.nodes_of(s).size()));
  const double pi = std::acos(-1.0);
  // Neighbouring routers (and their rows of nodes) a box apart on the group's circle.
  const double chord = a > 1 ? 2 * std::sin(pi / a) : 1;
  const double r = a == 1 ? 0 : std::max({0.45, 0.75 / chord, with_nodes ? (most * 0.25 + 0.2) / chord - 0.45 : 0.0});
  const double extent = r + (with_nodes ? 0.6 : 0.25);
  const double big = g == 1 ? 0 : std::max(1.5 * extent, g * (2 * extent + 0.9) / (2 * pi));
  p.kind = Placement::Kind::Groups;
  p.groups = g;
  p.sx.assign(net.num_switches(), 0);
  p.sy.assign(net.num_switches(), 0);
  p.nx.assign(net.num_nodes(), 0);
  p.ny.assign(net.num_nodes(), 0);
  p.group.assign(net.num_switches(), 0);
  for (int G = 0; G < g; ++G) {
    const double theta = pi / 2 - 2 * pi * G / g, cx = big * std::cos(theta), cy = big * std::sin(theta);
    for (int j = 0; j < a; ++j) {
      const int s = G * a + j;
      const double phi = theta + pi - 2 * pi * (j + 0.5) / a, ux = std::cos(phi), uy = std::sin(phi);
      p.group[s] = G;
      p.sx[s] = cx + r * ux;
      p.sy[s] = cy + r * uy;
      if (j == 0) p.label.emplace_back(cx, cy + extent + 0.15);
      const std::vector<int>& nodes = net.nodes_of(s);
      for (size_t i = 0; i < nodes.size() && with_nodes; ++i) {
        const double along = (i - (nodes.size() - 1) / 2.0) * 0.25;
        p.nx[nodes[i]] = cx + (r + 0.5) * ux - along * uy;
        p.ny[nodes[i]] = cy + (r + 0.5) * uy + along * ux;
      }
    }
  }
  return p;
}

// Lattices from the switch coordinates (x fastest): even dimensions across, odd ones down, each further
// dimension repeating the block beside (or under) the last with a gap; a hypercube is a lattice of 2s.
Placement grid(const Network& net, bool with_nodes) {
  Placement p;
  const std::vector<int>& dims = net.shape.dims;
  long count = 1;
  for (int extent : dims) count = extent < 1 ? -1 : count * extent;
  if (count != net.num_switches() || count > (1L << 20)) return p;
  int most = 0;
  for (int s = 0; s < net.num_switches(); ++s) most = std::max(most, static_cast<int>(net.nodes_of(s).size()));
  const double unit = with_nodes ? std::max(1.2, 0.9 + 0.25 * most) : 1.1;
  p.kind = Placement::Kind::Grid;
  p.sx.assign(count, 0);
  p.sy.assign(count, 0);
  p.nx.assign(net.num_nodes(), 0);
  p.ny.assign(net.num_nodes(), 0);
  const Family f = net.shape.family;
  if (f == Family::Mesh || f == Family::Hypercube) p.curved = dims.size() > 2;  // the third dimension's links skip blocks
  else
    for (int extent : dims) p.curved = p.curved || extent > 2;  // torus wrap-around, HyperX rows
  p.curved = p.curved && net.num_links() <= 100;  // routing them takes seconds past that
  // A larger torus bows its rows and columns (up to half a step in the middle) so that the straight
  // wrap-around link of a row passes beside the row's switches, not through them.
  const bool bowed = f == Family::Torus && !p.curved;
  auto bow = [&](size_t d, long coordinate) {
    if (!bowed || d >= dims.size() || dims[d] < 3) return 0.0;
    const double half = (dims[d] - 1) / 2.0;
    return 0.5 * unit * coordinate * (dims[d] - 1 - coordinate) / (half * half);
  };
  for (long s = 0; s < count; ++s) {
    long rest = s;
    double across[2] = {0, 0}, block[2] = {1, 1};
    for (size_t d = 0; d < dims.size(); ++d) {
      const int coordinate = static_cast<int>(rest % dims[d]);
      rest /= dims[d];
      across[d % 2] += coordinate * block[d % 2];
      block[d % 2] *= dims[d] + (d >= 2 ? 1 : 0);
      if (d < 2) block[d % 2] += 1;  // a gap between the blocks of the next dimensions
    }
    p.sx[s] = across[0] * unit + bow(1, dims.size() > 1 ? (s / dims[0]) % dims[1] : 0);
    p.sy[s] = -across[1] * unit + bow(0, s % dims[0]);
    const std::vector<int>& nodes = net.nodes_of(static_cast<int>(s));
    for (size_t i = 0; i < nodes.size() && with_nodes; ++i) {
      p.nx[nodes[i]] = p.sx[s] + 0.35 + 0.25 * i;
      p.ny[nodes[i]] = p.sy[s] - 0.4;
    }
  }
  return p;
}

Placement place(const Network& net, bool with_nodes) {
  if (net.num_switches() == 0) return {};
  switch (net.shape.family) {
    case Family::FatTree:
    case Family::Xgft:
    case Family::Tree2: return tiers(net, with_nodes);
    case Family::Dragonfly: return groups(net, with_nodes);
    case Family::Mesh:
    case Family::Torus:
    case Family::Hypercube:
    case Family::HyperX: return grid(net, with_nodes);
    default: return {};
  }
}

// Switch boxes of placed drawings: small, so that rows of many switches fit.
const std::string kPlacedBox = "fontname=\"sans\", fontsize=9, width=0.45, height=0.28, margin=\"0.05,0.03\"";

std::string pos(double x, double y) {
  char text[64];
  std::snprintf(text, sizeof text, "\"%.3f,%.3f!\"", x, y);
  return text;
}

// The graph attributes of a placed drawing (neato keeps pinned positions; `dot -Tsvg` follows layout=).
std::string placed_graph(const Placement& p) {
  return std::string("layout=neato, splines=") + (p.curved ? "true" : "line");
}

// Dragonfly groups as clusters (after the vertices are declared: a subgraph naming them adds them).
void write_clusters(std::ostream& out, const Network& net, const Placement& p, bool with_nodes) {
  if (p.kind != Placement::Kind::Groups) return;
  std::vector<std::vector<int>> members(p.groups);
  for (int s = 0; s < net.num_switches(); ++s) members[p.group[s]].push_back(s);
  for (int G = 0; G < p.groups; ++G) {
    out << "  subgraph cluster_g" << G << " { label=\"\"; style=rounded; color=gray50; g" << G << " [shape=plaintext, style=\"\", fixedsize=false, fontsize=10, label=\"group "
        << G << "\", pos=" << pos(p.label[G].first, p.label[G].second) << "];";
    for (int s : members[G]) {
      out << " " << dot_switch(s) << ";";
      if (with_nodes)
        for (int n : net.nodes_of(s)) out << " " << dot_node(n) << ";";
    }
    out << " }\n";
  }
}

}  // namespace

void export_dot(const RoutedNetwork& routed, std::ostream& out) {
  const Network& net = routed.network();
  const Placement p = place(net, true);
  const bool placed = p.kind != Placement::Kind::None;
  out << "graph mapsim {\n  // " << family_name(net.shape.family) << " network, routing " << routed.routing().name() << "\n";
  // A placed drawing names a common link bandwidth once instead of on every link.
  bool uniform = placed && net.num_links() > 0;
  for (const Link& l : net.links()) uniform = uniform && l.bandwidth == net.link(0).bandwidth;
  if (placed)
    out << "  graph [" << placed_graph(p) << ", fontname=\"sans\", fontsize=11, labelloc=t"
        << (uniform ? ", label=" + graphviz_quote("switch links " + format_bandwidth(net.link(0).bandwidth)) : std::string()) << "];\n";
  out << "  node [shape=box, style=filled, fillcolor=lightsteelblue" << (placed ? ", " + kPlacedBox : std::string()) << "];\n";
  for (int s = 0; s < net.num_switches(); ++s)
    out << "  " << dot_switch(s) << " [label=" << graphviz_quote(net.switch_at(s).name)
        << (placed ? ", pos=" + pos(p.sx[s], p.sy[s]) : std::string()) << "];\n";
  out << "  node [shape=circle, width=0.15, label=\"\", fillcolor=gold" << (placed ? ", height=0.15, fixedsize=true" : "") << "];\n";
  for (int n = 0; n < net.num_nodes(); ++n)
    out << "  " << dot_node(n) << " [tooltip=" << graphviz_quote(net.node(n).name)
        << (placed ? ", pos=" + pos(p.nx[n], p.ny[n]) : std::string()) << "];\n";
  write_clusters(out, net, p, true);
  for (const Link& l : net.links())
    out << "  " << dot_switch(l.a) << " -- " << dot_switch(l.b) << " [" << (uniform ? "tooltip=" : "label=")
        << graphviz_quote(format_bandwidth(l.bandwidth)) << "];\n";
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

}  // namespace

std::pair<const char*, double> load_unit(double largest, bool bytes) {
  if (!bytes) return {"", 1};
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double scale = 1;
  while (largest >= 1024 && u < 4) largest /= 1024, scale /= 1024, ++u;
  return {units[u], scale};
}

std::string format_load(double load, bool bytes) {
  const auto [unit, scale] = load_unit(load, bytes);
  return bytes ? format_number(load * scale, 4) + " " + unit : format_number(load, 4);
}

namespace {
std::string format_load(double load, const LoadPicture& picture) {
  return picture.seconds ? format_time(load) : mapsim::format_load(load, picture.bytes);
}
}  // namespace

void export_load_dot(const RoutedNetwork& routed, const std::vector<double>& load, const std::vector<int>& ranks_per_node,
                     const LoadPicture& picture, std::ostream& out) {
  export_load_dot(routed.network(), load, ranks_per_node, picture, out);
}

void export_load_dot(const Network& net, const std::vector<double>& load, const std::vector<int>& ranks_per_node,
                     const LoadPicture& picture, std::ostream& out) {
  double max_load = 0;
  for (int l = 0; l < net.num_links(); ++l) max_load = std::max({max_load, load[2 * l], load[2 * l + 1]});
  const double scale = picture.scale > 0 ? picture.scale : max_load;
  const bool ranks_known = !ranks_per_node.empty();
  std::vector<int> ranks_per_switch(net.num_switches(), 0);
  for (int n = 0; n < net.num_nodes() && ranks_known; ++n) ranks_per_switch[net.node(n).switch_id] += ranks_per_node[n];
  const std::vector<int>& held = picture.per_switch || !ranks_known ? ranks_per_switch : ranks_per_node;
  const int max_ranks = held.empty() ? 0 : *std::max_element(held.begin(), held.end());
  auto level = [&](int ranks) { return ranks == 0 ? 0 : std::min(9, 3 + 6 * ranks / std::max(1, max_ranks)); };
  auto shade = [&](int ranks) { return ranks == 0 ? std::string("white") : std::to_string(level(ranks)); };  // blues9
  const Placement p = place(net, !picture.per_switch);
  const bool placed = p.kind != Placement::Kind::None;

  // The title, what the marks mean, and the colour scale from idle to `scale`.
  const std::string what = picture.seconds ? "time its sender waited for credits" : picture.bytes ? "bytes" : "routed volume";
  out << "graph mapsim {\n  graph [" << (placed ? placed_graph(p) : std::string("layout=neato, overlap=false"))
      << ", fontname=\"sans\", labelloc=t, label=<"
      << "<TABLE BORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD COLSPAN=\"5\"><B>" << html_escape(picture.title)
      << "</B></TD></TR><TR><TD COLSPAN=\"5\">link colour and width: " << what << " on its busier direction (largest here "
      << html_escape(format_load(max_load, picture)) << ")";
  if (ranks_known) out << "; " << (picture.per_switch ? "switch" : "node") << " shade: ranks held (max " << max_ranks << ")";
  out << "</TD></TR><TR>";
  for (int step = 0; step <= 4; ++step)
    out << "<TD BGCOLOR=\"" << load_hex(step / 4.0) << "\">" << html_escape(format_load(scale * step / 4, picture))
        << (step == 4 && picture.scale > 0 ? " (shared scale)" : "") << "</TD>";
  out << "</TR></TABLE>>];\n  node [shape=box, style=filled, fillcolor=lightsteelblue, fontname=\"sans\", fontsize=9"
      << (placed ? ", width=0.45, height=0.28, margin=\"0.05,0.03\"" : "")
      << (picture.per_switch && ranks_known ? ", colorscheme=blues9" : "") << "];\n";
  for (int s = 0; s < net.num_switches(); ++s) {
    out << "  " << dot_switch(s) << " [label=" << graphviz_quote(net.switch_at(s).name);
    if (picture.per_switch && ranks_known)
      out << ", xlabel=" << graphviz_quote(std::to_string(ranks_per_switch[s])) << ", fillcolor=" << shade(ranks_per_switch[s])
          << (level(ranks_per_switch[s]) >= 7 ? ", fontcolor=white" : "")
          << ", tooltip=" << graphviz_quote(net.switch_at(s).name + ": " + std::to_string(ranks_per_switch[s]) + " rank(s)");
    if (placed) out << ", pos=" << pos(p.sx[s], p.sy[s]);
    out << "];\n";
  }
  if (!picture.per_switch) {
    out << "  node [shape=circle, width=0.18, label=\"\", colorscheme=blues9" << (placed ? ", height=0.18, fixedsize=true" : "") << "];\n";
    for (int n = 0; n < net.num_nodes(); ++n) {
      out << "  " << dot_node(n);
      if (ranks_known)
        out << " [fillcolor=" << shade(ranks_per_node[n])
            << ", tooltip=" << graphviz_quote(net.node(n).name + ": " + std::to_string(ranks_per_node[n]) + " rank(s)");
      else
        out << " [fillcolor=white, tooltip=" << graphviz_quote(net.node(n).name);
      if (placed) out << ", pos=" << pos(p.nx[n], p.ny[n]);
      out << "];\n";
    }
  }
  write_clusters(out, net, p, !picture.per_switch);
  for (int l = 0; l < net.num_links(); ++l) {
    const Link& link = net.link(l);
    const double x = scale > 0 ? std::min(1.0, std::max(load[2 * l], load[2 * l + 1]) / scale) : 0;
    out << "  " << dot_switch(link.a) << " -- " << dot_switch(link.b) << " [color=" << graphviz_quote(x > 0 ? load_colour(x) : "gray80")
        << ", penwidth=" << format_number(1 + 7 * x, 3) << ", tooltip=";
    if (placed)  // which way each load goes
      out << graphviz_quote(net.switch_at(link.a).name + " to " + net.switch_at(link.b).name + ": " + format_load(load[2 * l], picture) +
                            ", back: " + format_load(load[2 * l + 1], picture));
    else
      out << graphviz_quote(format_load(load[2 * l], picture) + " / " + format_load(load[2 * l + 1], picture));
    out << "];\n";
  }
  if (!picture.per_switch)
    for (int n = 0; n < net.num_nodes(); ++n)
      out << "  " << dot_node(n) << " -- " << dot_switch(net.node(n).switch_id) << " [color=gray60" << (placed ? "" : ", len=0.4") << "];\n";
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
