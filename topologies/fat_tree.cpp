// Fat trees: the k-ary n-tree (fattree:k=,levels=), general folded Clos networks sized from a switch
// radix, a node count and an oversubscription ratio (fattree:nodes=,radix=,levels=,oversubscription=),
// leaf-spines from their leaf and spine counts (fattree:leaves=,spines=,nodes=), and extended generalized
// fat trees XGFT(h; m_1..m_h; w_1..w_h) (xgft:m=..,w=..).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "support/error.h"
#include "support/spec.h"
#include "support/units.h"
#include "topologies/generators.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"

namespace mapsim {
namespace {

constexpr long kMaxSwitches = 1L << 20;

long product(const std::vector<int>& v, size_t from, size_t to) {
  long p = 1;
  for (size_t i = from; i < to && i < v.size(); ++i) p *= v[i];
  return p;
}

}  // namespace

Network make_xgft(const std::vector<int>& m, const std::vector<int>& w, long nodes, int radix, const LinkDefaults& d) {
  const size_t h = m.size();
  if (h == 0 || w.size() != h) throw Error("xgft: m and w need one value per switch level, got " +
                                           std::to_string(m.size()) + " and " + std::to_string(w.size()));
  if (w[0] != 1) throw Error("xgft: w_1 must be 1 (a compute node has one link to one leaf switch)");
  const long capacity = product(m, 0, h);
  if (nodes <= 0) nodes = capacity;
  if (nodes > capacity) throw Error("xgft: " + std::to_string(nodes) + " nodes exceed the tree's " + std::to_string(capacity));
  // Level i (1..h) holds prod(m_{i+1..h}) * prod(w_1..w_i) switches; a switch's index is
  // (a-label over m_{i+1..h}) * prod(w_1..w_i) + (b-label over w_1..w_i).
  std::vector<long> count(h + 1), offset(h + 2, 0);
  for (size_t i = 1; i <= h; ++i) {
    count[i] = product(m, i, h) * product(w, 0, i);
    offset[i + 1] = offset[i] + count[i];
  }
  if (offset[h + 1] > kMaxSwitches)
    throw Error("xgft would have " + std::to_string(offset[h + 1]) + " switches (limit " + std::to_string(kMaxSwitches) + ")");
  Network net;
  net.shape.family = Family::Xgft;
  net.shape.levels = static_cast<int>(h);
  net.startup = d.startup;
  for (size_t i = 1; i <= h; ++i) {
    const int ports = radix > 0 ? radix : m[i - 1] + (i < h ? w[i] : 0);
    for (long s = 0; s < count[i]; ++s)
      net.add_switch(h == 1 ? "sw-" + std::to_string(s) : "sw-" + std::to_string(i) + "-" + std::to_string(s), ports,
                     d.router_delay);
  }
  // Level i switch (A; B) joins level i+1 switch (A without a_{i+1}; B, b_{i+1}) for each b_{i+1}.
  for (size_t i = 1; i < h; ++i) {
    const long below_w = product(w, 0, i);
    for (long s = 0; s < count[i]; ++s) {
      const long a = s / below_w, b = s % below_w;
      for (int up = 0; up < w[i]; ++up) {
        const long parent = (a / m[i]) * (below_w * w[i]) + b + up * below_w;
        net.add_link(static_cast<int>(offset[i] + s), static_cast<int>(offset[i + 1] + parent), d.link_bandwidth,
                     d.link_latency);
      }
    }
  }
  for (long n = 0; n < nodes; ++n)
    net.add_node("node-" + std::to_string(n), static_cast<int>(offset[1] + n / m[0]), d.node_bandwidth, d.node_latency);
  return net;
}

Network make_folded_clos(long nodes, int radix, int levels, double oversubscription, const LinkDefaults& d) {
  if (nodes < 1 || radix < 2) throw Error("fattree: need nodes >= 1 and radix >= 2");
  if (!(oversubscription > 0)) throw Error("fattree: oversubscription must be > 0");
  // Leaves give `down` ports to nodes and the rest up; higher switches split half and half, the top all down.
  const int down = static_cast<int>(std::lround(radix * oversubscription / (1 + oversubscription)));
  if (down < 1 || down >= radix)
    throw Error("fattree: oversubscription " + format_number(oversubscription) + " leaves no up or no down port on a radix " +
                std::to_string(radix) + " leaf");
  auto fits = [&](int h) {  // nodes a tree of h levels holds
    if (h == 1) return static_cast<long>(radix);
    long n = static_cast<long>(down) * radix;
    for (int i = 3; i <= h; ++i) n *= radix / 2;
    return n;
  };
  if (levels <= 0)
    for (levels = 1; fits(levels) < nodes; ++levels)
      if (levels >= 8) throw Error("fattree: " + std::to_string(nodes) + " nodes need more than 8 levels of radix " + std::to_string(radix));
  if (fits(levels) < nodes)
    throw Error("fattree: " + std::to_string(levels) + " levels of radix " + std::to_string(radix) + " switches hold at most " +
                std::to_string(fits(levels)) + " nodes, not " + std::to_string(nodes) + " (add a level or raise the radix)");
  std::vector<int> m, w{1};
  if (levels == 1) {
    m = {static_cast<int>(nodes)};
  } else {
    m.push_back(down);
    w.push_back(radix - down);
    for (int i = 3; i <= levels; ++i) {
      m.push_back(radix / 2);
      w.push_back(radix / 2);
    }
    m.push_back(static_cast<int>((nodes + product(m, 0, m.size()) - 1) / product(m, 0, m.size())));
  }
  Network net = make_xgft(m, w, nodes, radix, d);
  return net;
}

namespace {

// fattree:leaves=L,spines=S,nodes=N: XGFT(2; ceil(N/L), L; 1, S), the radix its largest switch needs.
Network make_leaf_spine(Spec& spec, std::optional<double> leaves, std::optional<double> spines, std::optional<double> levels,
                        const LinkOverrides& links) {
  const auto nodes = spec.find_number("nodes");
  if (!leaves || !spines || !nodes)
    throw Error("bad spec '" + spec.text() + "': a leaf-spine needs leaves=, spines= and nodes=");
  for (const char* key : {"radix", "oversubscription", "k"})
    if (spec.has(key)) throw Error("bad spec '" + spec.text() + "': " + key + "= does not go with leaves= and spines= (they give it)");
  if (levels && *levels != 2) throw Error("bad spec '" + spec.text() + "': a leaf-spine has levels=2");
  const int l = static_cast<int>(*leaves), s = static_cast<int>(*spines);
  const long n = static_cast<long>(*nodes);
  const int per_leaf = static_cast<int>((n + l - 1) / l);
  return make_xgft({per_leaf, l}, {1, s}, n, std::max(per_leaf + s, l), read_link_params(spec, links, {}));
}

std::vector<int> dims_value(Spec& spec, const std::string& key) {
  return parse_dims(spec.get_string(key), "spec '" + spec.text() + "' key " + key);
}

}  // namespace

MAPSIM_REGISTER(network_registry(),
                {"fattree",
                 "k-ary n-tree (k, levels: k^(levels-1) switches of 2k ports per level, k^levels nodes); with nodes= and "
                 "radix=, a folded Clos (leaf-spine at levels=2) whose leaves split ports down:up as oversubscription:1; with "
                 "leaves= and spines=, a leaf-spine of nodes= nodes, every leaf linked once to every spine",
                 with_link_params({integer_param("k", 4, "arity of the k-ary n-tree", 1, 1024),
                                   derived_param("levels", ParamType::Integer, "3, or the fewest that hold nodes=",
                                                 "switch levels", 1, 16),
                                   derived_param("nodes", ParamType::Integer, "none (k-ary n-tree)",
                                                 "compute nodes of a folded Clos", 1, 1 << 24),
                                   integer_param("radix", 32, "ports per switch (folded Clos)", 2, 4096),
                                   real_param("oversubscription", 1, "leaf down:up port ratio (folded Clos)", 0.01, 100),
                                   derived_param("leaves", ParamType::Integer, "none (not a leaf-spine)", "leaf switches of a leaf-spine", 1, 1 << 20),
                                   derived_param("spines", ParamType::Integer, "none (not a leaf-spine)", "spine switches of a leaf-spine", 1, 1 << 20)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const auto levels = spec.find_number("levels");
                   const auto leaves = spec.find_number("leaves"), spines = spec.find_number("spines");
                   if (leaves || spines) return make_leaf_spine(spec, leaves, spines, levels, links);
                   if (const auto nodes = spec.find_number("nodes"))
                     return make_folded_clos(static_cast<long>(*nodes), static_cast<int>(spec.get_int("radix")),
                                             levels ? static_cast<int>(*levels) : 0, spec.get_double("oversubscription"),
                                             read_link_params(spec, links, {}));
                   for (const char* key : {"radix", "oversubscription"})
                     if (spec.has(key)) throw Error("bad spec '" + spec.text() + "': " + key + " needs nodes= (a folded Clos)");
                   return make_fattree(static_cast<int>(spec.get_int("k")), levels ? static_cast<int>(*levels) : 3,
                                       read_link_params(spec, links, {}));
                 }});
MAPSIM_REGISTER(network_registry(),
                {"xgft",
                 "extended generalized fat tree XGFT(h; m; w): level-i switches have m_i children and w_(i+1) parents "
                 "(lists as 16x32; w_1 = 1)",
                 with_link_params({text_param("m", "16x32", "children per switch, leaf level first"),
                                   text_param("w", "1x16", "parents per vertex, nodes first (w_1 = 1)"),
                                   derived_param("nodes", ParamType::Integer, "all (product of m)", "compute nodes", 1, 1 << 24)}),
                 [](Spec& spec, const LinkOverrides& links) {
                   const auto nodes = spec.find_number("nodes");
                   return make_xgft(dims_value(spec, "m"), dims_value(spec, "w"), nodes ? static_cast<long>(*nodes) : 0, 0,
                                    read_link_params(spec, links, {}));
                 }});

}  // namespace mapsim
