#include "mappers/process_graph.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "support/error.h"
#include "support/input_file.h"
#include "support/random.h"
#include "support/spec.h"
#include "support/units.h"

namespace mapsim {

void ProcessGraph::add_edge(int a, int b, double volume, bool distant) {
  if (a == b || a < 0 || b < 0 || a >= tasks_ || b >= tasks_)
    throw Error("process edge " + std::to_string(a) + "-" + std::to_string(b) + " is invalid for " +
                std::to_string(tasks_) + " tasks");
  if (a > b) std::swap(a, b);
  edges_.push_back({a, b, volume, distant});
  adjacency_.clear();
}

double ProcessGraph::total_volume() const {
  double total = 0;
  for (const ProcessEdge& e : edges_) total += e.volume;
  return total;
}

const std::vector<ProcessGraph::Neighbour>& ProcessGraph::neighbours(int task) const {
  if (adjacency_.empty()) {
    adjacency_.assign(tasks_, {});
    for (const ProcessEdge& e : edges_) {
      adjacency_[e.a].push_back({e.b, e.volume});
      adjacency_[e.b].push_back({e.a, e.volume});
    }
  }
  return adjacency_[task];
}

namespace {

void add_grid(ProcessGraph& g, const std::vector<int>& dims, bool torus, double volume) {
  long stride = 1;
  const int tasks = g.num_tasks();
  for (int extent : dims) {
    for (int t = 0; t < tasks; ++t) {
      const int coord = static_cast<int>((t / stride) % extent);
      if (coord + 1 < extent) g.add_edge(t, static_cast<int>(t + stride), volume);
      else if (torus && extent > 2) g.add_edge(t, static_cast<int>(t - (extent - 1) * stride), volume);
    }
    stride *= extent;
  }
}

ProcessGraph grid(const std::vector<int>& dims, bool torus, double volume) {
  long tasks = 1;
  for (int extent : dims) tasks *= extent;
  if (tasks > (1L << 24)) throw Error("process grid: at most 2^24 tasks");
  ProcessGraph g(static_cast<int>(tasks));
  g.family = torus ? "torus" : "mesh";
  g.dims = dims;
  g.periodic = torus;
  add_grid(g, dims, torus, volume);
  return g;
}

// Edge list: "a b [volume]" per line, '#' comments; or METIS: header "n m [fmt]" then one line of
// 1-based neighbours (with weights if fmt ends in 1) per vertex.
ProcessGraph load_graph(const std::string& path, double volume) {
  std::ifstream in = open_input(path, "graph file");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  auto is_comment = [](const std::string& l) {
    size_t p = l.find_first_not_of(" \t\r");
    return p == std::string::npos || l[p] == '#' || l[p] == '%';
  };
  const bool metis = path.size() > 6 && (path.rfind(".graph") == path.size() - 6 || path.rfind(".metis") == path.size() - 6);
  std::vector<std::tuple<int, int, double, int>> edges;  // a, b, volume, line
  int tasks = 0;
  if (metis) {
    size_t i = 0;
    while (i < lines.size() && is_comment(lines[i])) ++i;
    if (i == lines.size()) throw Error(path + ": empty METIS graph: expected a header 'vertices edges [fmt]'");
    std::istringstream header(lines[i]);
    long n = 0, m = 0;
    std::string fmt = "0";
    if (!(header >> n >> m) || n < 1) throw Error(path + ":" + std::to_string(i + 1) + ": expected a METIS header 'vertices edges [fmt]'");
    header >> fmt;
    const std::string at = path + ":" + std::to_string(i + 1) + ": ";
    // fmt is up to three flags, vertex sizes, vertex weights and edge weights ("1", "011", "001").
    if (fmt.empty() || fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
      throw Error(at + "METIS format field '" + fmt.substr(0, 20) + "': expected 0, 1, 10, 11, 100, ... (up to three 0/1 flags)");
    if (fmt.size() >= 2 && fmt[fmt.size() - 2] == '1') throw Error(at + "METIS vertex weights are not supported");
    if (fmt.size() == 3 && fmt[0] == '1') throw Error(at + "METIS vertex sizes are not supported");
    if (std::string more; header >> more) throw Error(at + "expected a METIS header 'vertices edges [fmt]', got more fields");
    if (m < 0) throw Error(at + "expected a METIS header 'vertices edges [fmt]' with edges >= 0");
    const bool weighted = fmt.back() == '1';
    tasks = static_cast<int>(n);
    int vertex = 0;
    for (++i; i < lines.size(); ++i) {
      if (is_comment(lines[i]) && lines[i].find_first_not_of(" \t\r") != std::string::npos) continue;
      if (vertex >= tasks) {
        if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
        throw Error(path + ":" + std::to_string(i + 1) + ": more vertex lines than the header's " + std::to_string(n));
      }
      std::istringstream row(lines[i]);
      long neighbour;
      while (row >> neighbour) {
        double w = volume;
        if (weighted && !(row >> w)) throw Error(path + ":" + std::to_string(i + 1) + ": expected a weight after neighbour " + std::to_string(neighbour));
        if (!std::isfinite(w) || w < 0)
          throw Error(path + ":" + std::to_string(i + 1) + ": the weight of the edge to neighbour " + std::to_string(neighbour) +
                      " is " + format_number(w) + "; expected a volume >= 0");
        if (neighbour < 1 || neighbour > n) throw Error(path + ":" + std::to_string(i + 1) + ": neighbour " + std::to_string(neighbour) + " is out of 1.." + std::to_string(n));
        if (neighbour - 1 > vertex) edges.emplace_back(vertex, static_cast<int>(neighbour - 1), w, static_cast<int>(i + 1));
      }
      if (!row.eof()) throw Error(path + ":" + std::to_string(i + 1) + ": expected numbers");
      ++vertex;
    }
    if (vertex < tasks) throw Error(path + ": the header announces " + std::to_string(n) + " vertices, the file has " + std::to_string(vertex) + " lines (truncated?)");
    if (static_cast<long>(edges.size()) != m)
      throw Error(path + ": the header announces " + std::to_string(m) + " edges, the lines hold " + std::to_string(edges.size()));
  } else {
    for (size_t i = 0; i < lines.size(); ++i) {
      if (is_comment(lines[i])) continue;
      std::istringstream row(lines[i]);
      long a, b;
      double w = volume;
      std::string rest;
      if (!(row >> a >> b) || a < 0 || b < 0 || a == b) throw Error(path + ":" + std::to_string(i + 1) + ": expected 'task task [volume]' with two different task ids >= 0");
      if (row >> rest) {
        char* end = nullptr;
        w = std::strtod(rest.c_str(), &end);
        if (end != rest.c_str() + rest.size() || !(w >= 0) || !std::isfinite(w)) throw Error(path + ":" + std::to_string(i + 1) + ": bad volume '" + rest + "'");
        if (row >> rest) throw Error(path + ":" + std::to_string(i + 1) + ": expected 'task task [volume]', got more");
      }
      tasks = std::max<int>(tasks, static_cast<int>(std::max(a, b) + 1));
      edges.emplace_back(static_cast<int>(a), static_cast<int>(b), w, static_cast<int>(i + 1));
    }
    if (tasks == 0) throw Error(path + ": no edges: expected lines 'task task [volume]'");
  }
  ProcessGraph g(tasks);
  g.family = "graph";
  std::map<std::pair<int, int>, size_t> index;
  std::vector<ProcessEdge> merged;
  for (auto [a, b, w, l] : edges) {
    auto key = std::make_pair(std::min(a, b), std::max(a, b));
    auto it = index.find(key);
    if (it == index.end()) {
      index.emplace(key, merged.size());
      merged.push_back({key.first, key.second, w});
    } else {
      merged[it->second].volume += w;  // both directions listed: volumes add up
    }
  }
  for (const ProcessEdge& e : merged) g.add_edge(e.a, e.b, e.volume);
  return g;
}

// Random distant partners on top of a neighbour pattern: their number is distant/(1-distant) of the
// neighbour edges, so that a fraction `distant` of all messages goes to random non-neighbours
// (moh2001 section 5.1, cases ii and iii).
void add_distant(ProcessGraph& g, double distant, uint64_t seed, double volume) {
  if (!(distant >= 0 && distant < 1)) throw Error("pattern: distant must be in [0, 1)");
  std::set<std::pair<int, int>> present;
  for (const ProcessEdge& e : g.edges()) present.insert({e.a, e.b});
  const long wanted = std::lround(distant / (1 - distant) * static_cast<double>(g.edges().size()));
  const long possible = static_cast<long>(g.num_tasks()) * (g.num_tasks() - 1) / 2 - static_cast<long>(present.size());
  if (wanted > possible) throw Error("pattern: " + std::to_string(wanted) + " distant pairs do not fit");
  Rng rng(seed);
  for (long added = 0; added < wanted;) {
    int a = static_cast<int>(rng.below(g.num_tasks())), b = static_cast<int>(rng.below(g.num_tasks()));
    if (a == b || !present.insert({std::min(a, b), std::max(a, b)}).second) continue;
    g.add_edge(a, b, volume, true);
    ++added;
  }
}

// Points uniform in the unit square, bucketed in cells of side >= radius so that only the 3 x 3
// cells around a point are searched: O(tasks + edges) for the usual radii.
ProcessGraph random_geometric_graph(int tasks, double radius, uint64_t seed, double volume) {
  Rng rng(seed);
  std::vector<std::pair<double, double>> point(tasks);
  for (auto& [x, y] : point) x = rng.uniform(), y = rng.uniform();
  const int cells = std::max(1, std::min(4096, static_cast<int>(1 / radius)));
  auto cell = [&](double v) { return std::min(cells - 1, static_cast<int>(v * cells)); };
  std::vector<std::vector<int>> bucket(static_cast<size_t>(cells) * cells);
  for (int t = 0; t < tasks; ++t) bucket[static_cast<size_t>(cell(point[t].second)) * cells + cell(point[t].first)].push_back(t);
  ProcessGraph g(tasks);
  g.family = "rgg";
  for (int t = 0; t < tasks; ++t) {
    const int cx = cell(point[t].first), cy = cell(point[t].second);
    for (int y = std::max(0, cy - 1); y <= std::min(cells - 1, cy + 1); ++y)
      for (int x = std::max(0, cx - 1); x <= std::min(cells - 1, cx + 1); ++x)
        for (int u : bucket[static_cast<size_t>(y) * cells + x]) {
          const double dx = point[u].first - point[t].first, dy = point[u].second - point[t].second;
          if (u > t && dx * dx + dy * dy < radius * radius) g.add_edge(t, u, volume);
        }
  }
  return g;
}

const Param kVolume = above(real_param("volume", 1, "communication volume of every edge (each way)"), 0);

ProcessGraph grid_spec(Spec& spec, bool torus) {
  std::vector<int> dims = parse_dims(spec.require_positional("16x16"), "spec '" + spec.text() + "'");
  if (dims.size() > 3) throw Error("bad spec '" + spec.text() + "': a mesh or torus has 1 to 3 dimensions");
  return grid(dims, torus, spec.get_double("volume"));
}

// A required integer parameter (no default), in its declared range.
long required(Spec& spec, const std::string& key, const std::string& form) {
  const std::optional<double> value = spec.find_number(key);
  if (!value) throw Error("bad spec '" + spec.text() + "': expected " + form);
  return static_cast<long>(*value);
}

}  // namespace

ProcessRegistry& process_registry() {
  static ProcessRegistry registry("process topology");
  return registry;
}

void write_metis_graph(const ProcessGraph& graph, std::ostream& out) {
  std::vector<std::map<int, double>> rows(graph.num_tasks());
  bool unit = true;
  for (const ProcessEdge& e : graph.edges()) {
    rows[e.a][e.b] += e.volume;
    rows[e.b][e.a] += e.volume;
  }
  size_t edges = 0;
  for (const auto& row : rows)
    for (const auto& [task, volume] : row) edges += 1, unit = unit && volume == 1;
  out << graph.num_tasks() << " " << edges / 2 << (unit ? "" : " 1") << "\n";
  out.precision(17);
  for (const auto& row : rows) {
    const char* separator = "";
    for (const auto& [task, volume] : row) {
      out << separator << task + 1;
      if (!unit) out << " " << volume;
      separator = " ";
    }
    out << "\n";
  }
}

ProcessGraph make_process_graph(const std::string& text) {
  // pattern's base spec contains a ':' of its own; Spec splits on the first one only.
  Spec spec = parse_spec(process_registry(), text);
  ProcessGraph g = lookup(process_registry(), spec).factory(spec);
  spec.finish();
  return g;
}

MAPSIM_REGISTER(process_registry(), {"graph", "a task graph file: METIS format or 'task task [volume]' lines", {},
                                     [](Spec& spec) { return load_graph(spec.require_positional("PATH"), 1); }, "PATH",
                                     "path"});
MAPSIM_REGISTER(process_registry(), {"mesh", "1-D to 3-D mesh of tasks, x fastest", {kVolume},
                                     [](Spec& spec) { return grid_spec(spec, false); }, "16x16", "dims"});
MAPSIM_REGISTER(process_registry(), {"torus", "1-D to 3-D torus of tasks", {kVolume},
                                     [](Spec& spec) { return grid_spec(spec, true); }, "8x8", "dims"});
MAPSIM_REGISTER(process_registry(), {"ring", "ring of N tasks", {kVolume},
                                     [](Spec& spec) {
                                       const int n = parse_dims(spec.require_positional("N"), "spec '" + spec.text() + "'").front();
                                       if (n < 2) throw Error("bad spec '" + spec.text() + "': a ring needs at least 2 tasks");
                                       ProcessGraph g = grid({n}, n > 2, spec.get_double("volume"));
                                       g.family = "ring";
                                       return g;
                                     },
                                     "N", "tasks"});
MAPSIM_REGISTER(process_registry(),
                {"hypercube", "binary n-cube of 2^n tasks",
                 {derived_param("dim", ParamType::Integer, "required", "dimension n", 1, 24), kVolume},
                 [](Spec& spec) {
                   const long dim = required(spec, "dim", "hypercube:dim=N with N in 1..24");
                   ProcessGraph g = grid(std::vector<int>(dim, 2), false, spec.get_double("volume"));
                   g.family = "hypercube";
                   return g;
                 }});
MAPSIM_REGISTER(process_registry(),
                {"bintree", "complete binary tree of 2^levels - 1 tasks",
                 {derived_param("levels", ParamType::Integer, "required", "levels", 1, 24), kVolume},
                 [](Spec& spec) {
                   const long levels = required(spec, "levels", "bintree:levels=N with N in 1..24");
                   const double volume = spec.get_double("volume");
                   ProcessGraph g(static_cast<int>((1L << levels) - 1));
                   g.family = "bintree";
                   for (int t = 1; t < g.num_tasks(); ++t) g.add_edge((t - 1) / 2, t, volume);
                   return g;
                 }});
MAPSIM_REGISTER(process_registry(),
                {"random", "random task graph: each pair communicates with probability edges/pairs (antonio1994)",
                 {integer_param("tasks", 128, "tasks", 2, 1 << 16), real_param("edges", 448, "expected edge count", 0),
                  integer_param("seed", 1, "random seed", 0), kVolume},
                 [](Spec& spec) {
                   const long tasks = spec.get_int("tasks");
                   const double expected = spec.get_double("edges");
                   const uint64_t seed = static_cast<uint64_t>(spec.get_int("seed"));
                   const double volume = spec.get_double("volume");
                   const double pairs = tasks * (tasks - 1) / 2.0;
                   if (expected > pairs) throw Error("bad spec '" + spec.text() + "': edges must be at most tasks*(tasks-1)/2");
                   ProcessGraph g(static_cast<int>(tasks));
                   g.family = "random";
                   Rng rng(seed);
                   const double p = expected / pairs;
                   for (int a = 0; a < tasks; ++a)
                     for (int b = a + 1; b < tasks; ++b)
                       if (rng.uniform() < p) g.add_edge(a, b, volume);
                   return g;
                 }});
MAPSIM_REGISTER(process_registry(),
                {"rgg", "random geometric graph: points in the unit square, an edge between points closer than radius",
                 {integer_param("tasks", 32768, "tasks (points)", 2, 1 << 24),
                  real_param("radius", 0, "connection radius (0: 0.55 sqrt(ln(tasks)/tasks), as KaHIP's generator)", 0),
                  integer_param("seed", 1, "random seed", 0), kVolume},
                 [](Spec& spec) {
                   const long tasks = spec.get_int("tasks");
                   double radius = spec.get_double("radius");
                   if (radius == 0) radius = 0.55 * std::sqrt(std::log(static_cast<double>(tasks)) / static_cast<double>(tasks));
                   if (radius > 1) throw Error("bad spec '" + spec.text() + "': radius must be in (0, 1]");
                   return random_geometric_graph(static_cast<int>(tasks), radius, static_cast<uint64_t>(spec.get_int("seed")),
                                                 spec.get_double("volume"));
                 }});
MAPSIM_REGISTER(process_registry(),
                {"pattern", "a base topology plus random distant partners (moh2001 cases ii and iii)",
                 {real_param("distant", 0.1, "fraction of all messages to random non-neighbours, in [0, 1)"),
                  integer_param("seed", 1, "random seed", 0), kVolume},
                 [](Spec& spec) {
                   // pattern:mesh:16x16,distant=0.1,seed=1 -- the base is the positional up to the first comma.
                   const std::string base = spec.require_positional("BASE (e.g. pattern:mesh:16x16,distant=0.1)");
                   const double distant = spec.get_double("distant");
                   const uint64_t seed = static_cast<uint64_t>(spec.get_int("seed"));
                   const double volume = spec.get_double("volume");
                   ProcessGraph g = make_process_graph(base + ",volume=" + std::to_string(volume));
                   add_distant(g, distant, seed, volume);
                   g.family = "pattern";
                   return g;
                 },
                 "BASE", "base"});

}  // namespace mapsim
