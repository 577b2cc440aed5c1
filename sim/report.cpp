#include "sim/report.h"

#include <algorithm>
#include <cstdio>

#include "support/units.h"

namespace mapsim {
namespace {

nlohmann::ordered_json latency_json(const LatencyStats& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"p50", s.p50}, {"p99", s.p99}, {"max", s.max}};
}

// The flit model's congestion: packets' queueing and network time, buffers per level, and the channels
// whose senders waited longest for credits (all of them, busiest first, those that waited at all).
nlohmann::ordered_json congestion_json(const Congestion& c, const Network& net) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const BufferLevel& l : c.levels)
    levels.push_back({{"level", l.level}, {"mean_flits", l.mean_flits}, {"max_flits", l.max_flits}});
  std::vector<int> order;
  for (size_t ch = 0; ch < c.channel_blocked.size(); ++ch)
    if (c.channel_blocked[ch] > 0) order.push_back(static_cast<int>(ch));
  std::stable_sort(order.begin(), order.end(), [&c](int a, int b) { return c.channel_blocked[a] > c.channel_blocked[b]; });
  nlohmann::ordered_json blocked = nlohmann::ordered_json::array();
  for (int ch : order)
    blocked.push_back({{"from", net.switch_at(net.channel_source(ch)).name},
                       {"to", net.switch_at(net.channel_target(ch)).name},
                       {"blocked_seconds", c.channel_blocked[ch]}});
  return {{"packets", c.packets},
          {"queueing_latency", c.queueing},
          {"network_latency", c.network},
          {"buffers_by_level", levels},
          {"blocked_channels", blocked}};
}

}  // namespace

nlohmann::ordered_json summary_json(const SimResult& r, const RoutedNetwork& routed) {
  const Network& net = routed.network();
  double max_switch = 0;
  int busiest = -1;
  for (int s = 0; s < net.num_switches(); ++s)
    if (r.switch_bytes[s] > max_switch) max_switch = r.switch_bytes[s], busiest = s;
  double max_nic = 0;
  for (int n = 0; n < net.num_nodes(); ++n) max_nic = std::max({max_nic, r.node_out[n].bytes, r.node_in[n].bytes});
  double core = 0;  // switches without nodes: tree2's S0, fat-tree spines
  for (int s = 0; s < net.num_switches(); ++s)
    if (net.nodes_of(s).empty()) core += r.switch_bytes[s];
  double max_circuit = 0;
  for (const PortLoad& load : r.circuit_loads) max_circuit = std::max(max_circuit, load.bytes);
  nlohmann::ordered_json j{
      {"model", r.model},
      {"makespan", r.makespan},
      {"messages", r.messages},
      {"bytes", r.bytes},
      {"avg_latency", r.latency.mean},
      {"latency", latency_json(r.latency)},
      {"neighbour_latency", latency_json(r.neighbour_latency)},
      {"distant_latency", latency_json(r.distant_latency)},
      {"zero_load_latency", r.zero_load_latency},
      {"avg_zero_load_latency", r.zero_load_latency},  // the old name of zero_load_latency (docs/simulation.md)
      {"max_link_load", r.max_link_load},
      {"max_link_utilisation", r.max_link_utilisation},
      {"max_switch_load", max_switch},
      {"busiest_switch", busiest < 0 ? std::string() : net.switch_at(busiest).name},
      {"core_switch_load", core},
      {"max_nic_load", max_nic},
      {"circuits", r.circuits.size()},
      {"optical_messages", r.optical_messages},
      {"max_circuit_load", max_circuit},
      {"setup_wait", r.setup_wait},
      {"eps_only_makespan", r.eps_only_makespan},
      {"relative_makespan", r.eps_only_makespan > 0 ? r.makespan / r.eps_only_makespan : 1.0},
      {"events", r.events},
      {"events_per_second", r.wall_seconds > 0 ? r.events / r.wall_seconds : 0.0},
      {"wall_seconds", r.wall_seconds},
      {"peak_memory_mb", r.peak_memory_kb / 1024.0},
      {"rank_finish", r.rank_finish},
      {"switch_bytes", r.switch_bytes},
  };
  if (r.congestion.packets > 0) j["congestion"] = congestion_json(r.congestion, net);
  return j;
}

const char* const kLinksCsvColumns = "kind,id,from,to,bandwidth,bytes,messages,busy_seconds,utilisation";

void write_links_csv(const SimResult& r, const RoutedNetwork& routed, std::ostream& out) {
  out << kLinksCsvColumns << "\n";
  write_links_rows(r, routed, "", out);
}

std::vector<LinkLoad> link_loads(const SimResult& r, const RoutedNetwork& routed) {
  const Network& net = routed.network();
  std::vector<LinkLoad> links;
  auto add = [&](const char* kind, int id, const std::string& from, const std::string& to, double bandwidth,
                 const PortLoad& load) { links.push_back({kind, from, to, id, bandwidth, load.bytes, load.messages, load.busy}); };
  for (int c = 0; c < net.num_channels(); ++c)
    add("link", c, net.switch_at(net.channel_source(c)).name, net.switch_at(net.channel_target(c)).name,
        net.link(c / 2).bandwidth, r.channels[c]);
  for (int n = 0; n < net.num_nodes(); ++n) {
    const Node& node = net.node(n);
    add("nic-out", n, node.name, net.switch_at(node.switch_id).name, node.bandwidth, r.node_out[n]);
    add("nic-in", n, net.switch_at(node.switch_id).name, node.name, node.bandwidth, r.node_in[n]);
  }
  for (size_t k = 0; k < r.circuits.size(); ++k)
    add("circuit", static_cast<int>(k), net.node(r.circuits[k].first).name, net.node(r.circuits[k].second).name,
        r.circuit_bandwidth, r.circuit_loads[k]);
  return links;
}

void write_links_rows(const SimResult& r, const RoutedNetwork& routed, const std::string& prefix, std::ostream& out) {
  for (const LinkLoad& l : link_loads(r, routed))
    out << prefix << l.kind << "," << l.id << "," << csv_field(l.from) << "," << csv_field(l.to) << ","
        << format_number(l.bandwidth, 17) << "," << format_number(l.bytes, 17) << "," << format_number(l.messages, 17) << ","
        << format_number(l.busy, 17) << "," << format_number(r.makespan > 0 ? l.busy / r.makespan : 0, 6) << "\n";
}

void write_messages_csv(const SimResult& r, std::ostream& out) {
  out << "src,dst,tag,bytes,posted,started,delivered,latency,hops,distant,collective\n";
  for (const MessageRecord& m : r.message_log)
    out << m.src << "," << m.dst << "," << m.tag << "," << format_number(m.bytes, 17) << ","
        << format_number(m.posted, 17) << "," << format_number(m.started, 17) << "," << format_number(m.delivered, 17)
        << "," << format_number(m.delivered - m.posted, 17) << "," << m.hops << "," << m.distant << ","
        << m.collective << "\n";
}

void print_summary(const SimResult& r, std::ostream& out) {
  char line[256];
  auto print = [&](const char* key, const std::string& value) {
    std::snprintf(line, sizeof line, "%-22s %s\n", key, value.c_str());
    out << line;
  };
  print("model", r.model);
  print("makespan", format_time(r.makespan));
  print("messages", std::to_string(r.messages) + " (" + format_number(r.bytes) + " bytes)");
  print("avg latency", format_time(r.latency.mean) + " (p50 " + format_time(r.latency.p50) + ", p99 " +
                           format_time(r.latency.p99) + ", max " + format_time(r.latency.max) + ")");
  if (r.distant_latency.count > 0)
    print("  neighbour / distant", format_time(r.neighbour_latency.mean) + " / " + format_time(r.distant_latency.mean));
  print("zero-load latency", format_time(r.zero_load_latency));
  print("max link load", format_number(r.max_link_load) + " bytes (utilisation " +
                             format_number(r.max_link_utilisation, 3) + ")");
  if (r.eps_only_makespan > 0)
    print("optical circuits", std::to_string(r.circuits.size()) + " carrying " + std::to_string(r.optical_messages) +
                                  " messages; run time " + format_number(r.makespan / r.eps_only_makespan, 4) +
                                  " x the EPS alone (" + format_time(r.eps_only_makespan) + ")");
  if (const Congestion& c = r.congestion; c.packets > 0) {
    print("packet latency", format_time(c.queueing) + " queued at the source + " + format_time(c.network) +
                                " in the network (means over " + std::to_string(c.packets) + " packets)");
    const long waited = std::count_if(c.channel_blocked.begin(), c.channel_blocked.end(), [](double t) { return t > 0; });
    const double longest = c.channel_blocked.empty() ? 0 : *std::max_element(c.channel_blocked.begin(), c.channel_blocked.end());
    print("credit waits", std::to_string(waited) + " channels waited for credits, the longest " + format_time(longest) +
                              " (--json: congestion)");
  }
  print("events", std::to_string(r.events) + " in " + format_number(r.wall_seconds, 3) + " s wall");
}

std::string progress_detail(const SimProgress& p) {
  return "t=" + format_time(p.simulated) + " simulated, " + format_number(static_cast<double>(p.events), 3) + " events, " +
         std::to_string(p.messages) + " messages";
}

}  // namespace mapsim
