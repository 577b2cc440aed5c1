#include "routing/route_analysis.h"

#include <algorithm>
#include <cstdint>
#include <array>
#include <cmath>
#include <deque>
#include <unordered_set>

#include "support/error.h"
#include "support/random.h"

namespace mapsim {
namespace {

constexpr double kRouteOverhead = 16;  // what routing and checking one route costs beside its hops

// Kahn's algorithm on the dependency edges (sorted, unique); on a cycle, describe one.
bool acyclic(const Network& net, int vcs, const std::vector<uint64_t>& edges, std::string* cycle) {
  const size_t vertices = static_cast<size_t>(net.num_channels()) * vcs;
  std::vector<uint32_t> start(vertices + 1, 0), indegree(vertices, 0);
  for (uint64_t e : edges) {
    ++start[(e >> 32) + 1];
    ++indegree[e & 0xffffffffu];
  }
  for (size_t v = 0; v < vertices; ++v) start[v + 1] += start[v];
  std::deque<uint32_t> ready;
  for (size_t v = 0; v < vertices; ++v)
    if (!indegree[v]) ready.push_back(static_cast<uint32_t>(v));
  size_t removed = 0;
  while (!ready.empty()) {
    uint32_t v = ready.front();
    ready.pop_front();
    ++removed;
    for (uint32_t i = start[v]; i < start[v + 1]; ++i)
      if (--indegree[edges[i] & 0xffffffffu] == 0) ready.push_back(edges[i] & 0xffffffffu);
  }
  if (removed == vertices) return true;
  // Walk predecessors inside the remaining subgraph until a vertex repeats.
  std::vector<int> seen_at(vertices, -1);
  std::vector<uint32_t> walk;
  uint32_t v = 0;
  while (!indegree[v]) ++v;
  std::vector<uint32_t> pred(vertices, UINT32_MAX);
  for (uint64_t e : edges)
    if (indegree[e >> 32] && indegree[e & 0xffffffffu]) pred[e & 0xffffffffu] = static_cast<uint32_t>(e >> 32);
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<int>(walk.size());
    walk.push_back(v);
    v = pred[v];
  }
  std::string text;
  for (size_t i = walk.size(); i-- > static_cast<size_t>(seen_at[v]);) {
    const int channel = walk[i] / vcs;
    text += net.switch_at(net.channel_source(channel)).name + "->" + net.switch_at(net.channel_target(channel)).name;
    if (vcs > 1) text += "(vc" + std::to_string(walk[i] % vcs) + ")";
    text += " ";
  }
  *cycle = text + "...";
  return false;
}

}  // namespace

RouteAnalysis analyse_routes(const Network& net, const Routing& routing) {
  RouteAnalysis result;
  result.switches = net.num_switches();
  result.nodes = net.num_nodes();
  result.links = net.num_links();
  result.ports_used = net.total_ports_used();
  for (const Switch& s : net.switches()) result.ports_total += s.ports;

  std::vector<int> sources;  // switches with nodes
  for (int s = 0; s < net.num_switches(); ++s)
    if (!net.nodes_of(s).empty()) sources.push_back(s);
  // Destinations: one node per switch when routes depend on the switch only.
  std::vector<int> destinations;
  for (int s : sources) {
    if (routing.per_node()) destinations.insert(destinations.end(), net.nodes_of(s).begin(), net.nodes_of(s).end());
    else destinations.push_back(net.nodes_of(s).front());
  }
  result.routes_total = static_cast<double>(sources.size()) * static_cast<double>(destinations.size());

  // The diameter: a search from every source switch, or from an evenly spread sample of them (the
  // first included: a mesh's corner, any switch of a torus or hypercube, gives the exact value).
  const double search = static_cast<double>(net.num_switches()) + net.num_channels();
  size_t searches = sources.size();
  if (static_cast<double>(searches) * search > kMaxSearchWork)
    searches = std::min(searches, std::max<size_t>(2, static_cast<size_t>(kMaxSearchWork / search)));
  for (size_t i = 0; i < searches; ++i) {
    std::vector<int> dist = bfs_distances(net, sources[i * sources.size() / searches]);
    for (int t : sources) result.diameter = std::max(result.diameter, dist[t]);
  }
  if (searches < sources.size()) result.diameter_sources = static_cast<int>(searches);

  // (source index, destination index) pairs to route, destination outermost (table routings keep one
  // block per destination, which stays in cache): all of them, or, when routing them all would take
  // more than kMaxRouteWork (hops plus kRouteOverhead per route, measured on a first sample), a
  // uniform random sample that fits.
  Rng rng(1);
  auto draw = [&](size_t count) {
    std::vector<std::pair<uint32_t, uint32_t>> pairs(count);
    for (auto& [d, s] : pairs) {
      d = static_cast<uint32_t>(rng.below(destinations.size()));
      s = static_cast<uint32_t>(rng.below(sources.size()));
    }
    std::sort(pairs.begin(), pairs.end());
    return pairs;
  };
  std::vector<int> channels, vc;
  size_t sample = 0;
  if (result.routes_total > kMaxRouteWork / 64) {
    double hops = 0;
    const auto pilot = draw(256);
    for (const auto& [d, s] : pilot) {
      routing.route(sources[s], destinations[d], channels);
      hops += static_cast<double>(channels.size());
    }
    const double per_route = kRouteOverhead + hops / static_cast<double>(pilot.size());
    if (result.routes_total * per_route > kMaxRouteWork) sample = static_cast<size_t>(kMaxRouteWork / per_route);
  }
  result.sampled = sample > 0;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  if (result.sampled) pairs = draw(sample);
  const double scale = result.sampled ? result.routes_total / static_cast<double>(sample) : 1.0;

  // Dependencies (channel c1, vc1) -> (c2, vc2) are recorded in a bitset indexed by c1, vc1 and
  // c2's position among its switch's ports: no duplicates, no sorting of millions of edges.
  const int vcs = routing.num_virtual_channels();
  int max_degree = 1;
  std::vector<int> port_position(net.num_channels());
  for (int s = 0; s < net.num_switches(); ++s) {
    const auto& ports = net.ports_of(s);
    max_degree = std::max(max_degree, static_cast<int>(ports.size()));
    for (size_t p = 0; p < ports.size(); ++p) port_position[net.channel(ports[p].link, s)] = static_cast<int>(p);
  }
  const size_t fan = static_cast<size_t>(max_degree) * vcs;
  std::vector<bool> depends(static_cast<size_t>(net.num_channels()) * vcs * fan, false);
  result.channel_routes.assign(net.num_channels(), 0.0);
  double hop_sum = 0, core_sum = 0, pair_count = 0;
  // Sample moments of the pair-weighted means (hops, latency), for their 95 % confidence intervals.
  double w2 = 0, w2_hops = 0, w2_hops2 = 0, w2_core = 0, w2_core2 = 0;
  auto analyse = [&](int src, int dst_node) {
    const int dst = net.node(dst_node).switch_id;
    const double src_nodes = static_cast<double>(net.nodes_of(src).size());
    routing.route(src, dst_node, channels);
    ++result.routes_checked;
    // Pairs of distinct nodes this route stands for.
    const double dst_nodes = routing.per_node() ? 1.0 : static_cast<double>(net.nodes_of(dst).size());
    const double pairs = src_nodes * dst_nodes - (src == dst ? (routing.per_node() ? 1.0 : src_nodes) : 0.0);
    double core = net.switch_at(src).router_delay;
    int at = src;
    bool walk_ok = true;
    for (int c : channels) {
      walk_ok = walk_ok && c >= 0 && c < net.num_channels() && net.channel_source(c) == at;
      if (!walk_ok) break;
      at = net.channel_target(c);
      core += net.link(c / 2).latency + net.switch_at(at).router_delay;
    }
    if (result.routes_legal) {
      std::string why = !walk_ok || at != dst ? "route is not a connected walk to the destination"
                                              : routing.rule_violation(src, dst_node, channels);
      if (!why.empty()) {
        result.routes_legal = false;
        result.first_violation = net.switch_at(src).name + " -> " + net.node(dst_node).name + ": " + why;
      }
    }
    if (!walk_ok) return;
    const double hops = static_cast<double>(channels.size());
    hop_sum += pairs * hops;
    for (int c : channels) result.channel_routes[c] += pairs * scale;
    core_sum += pairs * core;
    pair_count += pairs;
    w2 += pairs * pairs;
    w2_hops += pairs * pairs * hops;
    w2_hops2 += pairs * pairs * hops * hops;
    w2_core += pairs * pairs * core;
    w2_core2 += pairs * pairs * core * core;
    if (pairs > 0) result.max_route_hops = std::max(result.max_route_hops, static_cast<int>(channels.size()));
    routing.virtual_channels(channels, vc);
    for (size_t h = 1; h < channels.size(); ++h)
      depends[(static_cast<size_t>(channels[h - 1]) * vcs + vc[h - 1]) * fan +
              static_cast<size_t>(port_position[channels[h]]) * vcs + vc[h]] = true;
  };
  if (result.sampled) {
    for (const auto& [d, s] : pairs) analyse(sources[s], destinations[d]);
  } else {
    for (int dst_node : destinations)
      for (int src : sources) analyse(src, dst_node);
  }
  // The dependency bits as edges sorted by source vertex, as acyclic() expects.
  auto edges_of = [&](const std::vector<bool>& bits) {
    std::vector<uint64_t> edges;
    for (size_t i = 0; i < bits.size(); ++i) {
      if (!bits[i]) continue;
      const size_t from = i / fan, slot = i % fan;
      const int at = net.channel_target(static_cast<int>(from / vcs));
      const int to_channel = net.channel(net.ports_of(at)[slot / vcs].link, at);
      edges.push_back(static_cast<uint64_t>(from) << 32 | static_cast<uint32_t>(to_channel * vcs + slot % vcs));
    }
    return edges;
  };
  std::vector<uint64_t> edges = edges_of(depends);
  result.dependencies = static_cast<long>(edges.size());
  result.deadlock_free = acyclic(net, vcs, edges, &result.cycle);

  // Every walk: a search over (switch, state, channel in, vc) per destination; beyond kMaxSearchWork,
  // per destination switch of an evenly spread sample.
  if (routing.multipath()) {
    result.multipath = true;
    std::fill(depends.begin(), depends.end(), false);
    std::vector<int> states;
    std::vector<Routing::Hop> hops;
    std::unordered_set<uint64_t> seen;
    std::vector<std::array<int, 4>> stack;
    const double walk = static_cast<double>(net.num_channels()) * vcs + net.num_switches();
    size_t walked = sources.size();
    if (static_cast<double>(walked) * walk > kMaxSearchWork) {
      walked = std::min(walked, std::max<size_t>(2, static_cast<size_t>(kMaxSearchWork / walk)));
      if (walked < sources.size()) result.walk_destinations = static_cast<int>(walked);
    }
    for (size_t w = 0; w < walked; ++w) {  // hops depend on the destination's switch only
      const int dst_switch = sources[w * sources.size() / walked];
      const int dst_node = net.nodes_of(dst_switch).front();
      seen.clear();
      for (int src : sources) {
        routing.all_start_states(src, dst_node, states);
        for (int st : states) stack.push_back({src, st, -1, 0});
      }
      while (!stack.empty()) {
        const auto [sw, state, in, vc] = stack.back();
        stack.pop_back();
        const uint64_t key = ((static_cast<uint64_t>(in + 1) * vcs + vc) * net.num_switches() + sw) << 20 | static_cast<uint32_t>(state);
        if (!seen.insert(key).second) continue;
        routing.next_hops(sw, state, dst_node, hops);
        for (const Routing::Hop& hop : hops) {
          const int next_vc = in < 0 ? 0 : routing.next_vc(vc, in, hop.channel);
          if (next_vc >= vcs) throw InternalError(routing.name() + ": a walk leaves its virtual channel classes");
          if (in >= 0)
            depends[(static_cast<size_t>(in) * vcs + vc) * fan + static_cast<size_t>(port_position[hop.channel]) * vcs +
                    next_vc] = true;
          stack.push_back({net.channel_target(hop.channel), hop.state, hop.channel, next_vc});
        }
      }
    }
    edges = edges_of(depends);
    result.walk_dependencies = static_cast<long>(edges.size());
    result.walks_deadlock_free = acyclic(net, vcs, edges, &result.walk_cycle);
  }
  if (result.sampled && result.routes_legal)
    result.illegal_fraction_95 = -std::expm1(std::log(0.05) / static_cast<double>(result.routes_checked));
  for (double routes : result.channel_routes) {
    result.max_channel_routes = std::max(result.max_channel_routes, routes);
    result.mean_channel_routes += routes / net.num_channels();
    result.idle_channels += routes == 0;
  }
  if (pair_count > 0) {
    double node_latency_sum = 0;
    for (const Node& n : net.nodes()) node_latency_sum += n.latency;
    result.avg_route_hops = hop_sum / pair_count;
    result.zero_load_latency = net.startup + 2 * node_latency_sum / net.num_nodes() + core_sum / pair_count;
    if (result.sampled) {  // the weighted mean's standard error: sum w^2 (x - mean)^2 / (sum w)^2
      auto ci95 = [&](double mean, double w2_x, double w2_x2) {
        return 1.96 * std::sqrt(std::max(0.0, w2_x2 - 2 * mean * w2_x + mean * mean * w2)) / pair_count;
      };
      result.avg_route_hops_ci95 = ci95(result.avg_route_hops, w2_hops, w2_hops2);
      result.zero_load_latency_ci95 = ci95(core_sum / pair_count, w2_core, w2_core2);
    }
  }
  return result;
}

bool routes_unbalanced(const RouteAnalysis& a) {
  return a.max_channel_routes > 8 * a.mean_channel_routes || 4 * a.idle_channels > static_cast<int>(a.channel_routes.size());
}

}  // namespace mapsim
