#include "reporting/topo_report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <vector>

#include <spdlog/spdlog.h>

#include "support/units.h"

namespace mapsim {
namespace {

// printf to a stream.
__attribute__((format(printf, 2, 3))) void appendf(std::ostream& out, const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int size = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::vector<char> text(static_cast<size_t>(size) + 1);
  std::vsnprintf(text.data(), text.size(), format, again);
  va_end(again);
  out.write(text.data(), size);
}

// The three busiest channels as {link: "a->b", routes}.
nlohmann::ordered_json busiest_links(const Network& net, const RouteAnalysis& a) {
  std::vector<int> order(a.channel_routes.size());
  for (size_t c = 0; c < order.size(); ++c) order[c] = static_cast<int>(c);
  const size_t shown = std::min<size_t>(3, order.size());
  std::partial_sort(order.begin(), order.begin() + shown, order.end(), [&](int x, int y) {
    return a.channel_routes[x] > a.channel_routes[y] || (a.channel_routes[x] == a.channel_routes[y] && x < y);
  });
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < shown; ++i)
    list.push_back({{"link", net.switch_at(net.channel_source(order[i])).name + "->" +
                                 net.switch_at(net.channel_target(order[i])).name},
                    {"routes", a.channel_routes[order[i]]}});
  return list;
}

}  // namespace

nlohmann::ordered_json topo_json(const std::string& spec, const RoutedNetwork& routed, const RouteAnalysis& a) {
  nlohmann::ordered_json j;
  j["network"] = spec;
  j["family"] = family_name(routed.network().shape.family);
  j["routing"] = routed.routing().name();
  j["switches"] = a.switches;
  j["nodes"] = a.nodes;
  j["links"] = a.links;
  if (const NodeHierarchy& h = routed.network().node_insides; !h.empty()) {
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (size_t l = 0; l < h.levels.size(); ++l) {
      nlohmann::ordered_json level = {{"name", h.levels[l].name}};
      if (l + 1 < h.levels.size()) level["bandwidth"] = h.levels[l].bandwidth, level["latency"] = h.levels[l].latency;
      levels.push_back(level);
    }
    j["node_insides"] = {{"slots", h.slots()}, {"describe", h.describe()}, {"levels", levels}};
  }
  j["ports_used"] = a.ports_used;
  j["ports_total"] = a.ports_total;
  j["connectivity"] = a.ports_total ? static_cast<double>(a.ports_used) / a.ports_total : 0.0;
  j["diameter"] = a.diameter;
  j["avg_route_hops"] = a.avg_route_hops;
  j["max_route_hops"] = a.max_route_hops;
  j["zero_load_latency"] = a.zero_load_latency;
  j["avg_latency"] = a.zero_load_latency;  // the old name of zero_load_latency (README)
  j["routes_legal"] = a.routes_legal;
  j["deadlock_free"] = a.deadlock_free;
  if (a.multipath) {
    j["walks_deadlock_free"] = a.walks_deadlock_free;
    j["walk_dependencies"] = a.walk_dependencies;
    if (!a.walks_deadlock_free) j["walk_cycle"] = a.walk_cycle;
  }
  j["routes_checked"] = a.routes_checked;
  j["dependencies"] = a.dependencies;
  j["sampled"] = a.sampled;
  if (a.sampled) {  // what the sample stands for (absent on a full analysis)
    j["routes_total"] = a.routes_total;
    j["avg_route_hops_ci95"] = a.avg_route_hops_ci95;
    j["zero_load_latency_ci95"] = a.zero_load_latency_ci95;
    if (a.routes_legal) j["illegal_fraction_95"] = a.illegal_fraction_95;
  }
  if (a.diameter_sources) j["diameter_sources"] = a.diameter_sources;
  if (a.walk_destinations) j["walk_destinations"] = a.walk_destinations;
  j["route_balance"] = {{"max_routes_per_link", a.max_channel_routes},
                        {"mean_routes_per_link", a.mean_channel_routes},
                        {"idle_links", a.idle_channels},
                        {"busiest_links", busiest_links(routed.network(), a)},
                        {"unbalanced", routes_unbalanced(a)}};
  if (!a.routes_legal) j["violation"] = a.first_violation;
  if (!a.deadlock_free) j["cycle"] = a.cycle;
  return j;
}

void write_topo_summary(const std::string& spec, const RoutedNetwork& routed, const RouteAnalysis& a,
                        std::ostream& out) {
  const Network& net = routed.network();
  std::string routing = routed.routing().name();
  if (const int root = routed.routing().root_switch(); root >= 0) routing += " (root " + net.switch_at(root).name + ")";
  appendf(out, "network        %s (%s)\n", spec.c_str(), family_name(net.shape.family).c_str());
  appendf(out, "switches       %d\nnodes          %d\nlinks          %d\n", a.switches, a.nodes, a.links);
  if (const NodeHierarchy& h = net.node_insides; !h.empty()) {  // only when described: default output unchanged
    std::string levels;
    for (size_t l = 0; l + 1 < h.levels.size(); ++l)
      levels += (l ? ", " : "") + h.levels[l].name + " " + format_byte_rate(h.levels[l].bandwidth) + " " + format_time(h.levels[l].latency);
    appendf(out, "node insides   %s; ranks sharing %s\n", h.describe().c_str(), levels.c_str());
  }
  appendf(out, "ports used     %d of %d (connectivity %.3f)\n", a.ports_used, a.ports_total,
          a.ports_total ? static_cast<double>(a.ports_used) / a.ports_total : 0.0);
  appendf(out, "routing        %s\n", routing.c_str());
  if (a.diameter_sources)
    appendf(out, "diameter       %d switch hops (the largest distance from %d evenly spread switches)\n", a.diameter,
            a.diameter_sources);
  else
    appendf(out, "diameter       %d switch hops\n", a.diameter);
  if (a.sampled) {
    appendf(out, "sample         %ld of %s routes, drawn at random (avg +- half the 95 %% confidence interval)\n",
            a.routes_checked, format_number(a.routes_total, 4).c_str());
    appendf(out, "route hops     avg %.4f +- %.2g, max %d in the sample (ordered node pairs)\n", a.avg_route_hops,
            a.avg_route_hops_ci95, a.max_route_hops);
    appendf(out, "zero-load lat. %s +- %s (t_s + d*t_p + (d+1)*t_r)\n",
            format_time(a.zero_load_latency).c_str(), format_time(a.zero_load_latency_ci95).c_str());
  } else {
    appendf(out, "route hops     avg %.4f, max %d (ordered node pairs)\n", a.avg_route_hops, a.max_route_hops);
    appendf(out, "zero-load lat. %s (t_s + d*t_p + (d+1)*t_r)\n", format_time(a.zero_load_latency).c_str());
  }
  if (a.sampled && a.routes_legal)
    appendf(out, "routes legal   yes (%ld sampled routes checked: under %s of all routes break the rule, 95 %% confidence)\n",
            a.routes_checked, format_number(a.illegal_fraction_95, 3).c_str());
  else
    appendf(out, "routes legal   %s (%ld %sroutes checked)\n",
            a.routes_legal ? "yes" : ("NO: " + a.first_violation).c_str(), a.routes_checked, a.sampled ? "sampled " : "");
  appendf(out, "deadlock free  %s (%ld channel dependencies%s)\n",
          a.deadlock_free ? "yes" : ("NO, cycle: " + a.cycle).c_str(), a.dependencies,
          a.sampled ? " of the sampled routes" : "");
  if (a.multipath)
    appendf(out, "all walks      %s (%ld channel dependencies over every hop a multipath walk may take%s)\n",
            a.walks_deadlock_free ? "deadlock free" : ("NOT deadlock free, cycle: " + a.walk_cycle).c_str(),
            a.walk_dependencies,
            a.walk_destinations
                ? (" to " + std::to_string(a.walk_destinations) + " sampled destination switches").c_str()
                : "");
  std::string busiest;
  for (const auto& link : busiest_links(net, a))
    busiest += std::string(busiest.empty() ? "" : ", ") + link["link"].get<std::string>() + " " +
               format_number(link["routes"].get<double>());
  appendf(out, "route balance  max %s, mean %s routes per link (%s); %d of %zu links carry none%s\n",
          format_number(a.max_channel_routes).c_str(), format_number(a.mean_channel_routes).c_str(), busiest.c_str(),
          a.idle_channels, a.channel_routes.size(), a.sampled ? " (estimated from the sample)" : "");
  if (routes_unbalanced(a)) {
    const std::string name = routed.routing().name();  // the balanced tables need no pointing to themselves
    const bool balanced = name == "updn" || name == "minhop";
    spdlog::warn("routing {}: a few links carry most routes (busiest {:.1f}x the mean, {} of {} links idle); compare {}"
                 "a --path-selection of the simulation",
                 name, a.mean_channel_routes > 0 ? a.max_channel_routes / a.mean_channel_routes : 0.0, a.idle_channels,
                 a.channel_routes.size(), balanced ? "" : "the balanced tables of --routing updn or minhop, or ");
  }
}

}  // namespace mapsim
