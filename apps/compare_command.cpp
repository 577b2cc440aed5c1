// mapsim compare: several mappers on one problem, replicated over the topology seed; a table of
// every metric's mean and standard deviation per mapper.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <algorithm>
#include <spdlog/spdlog.h>

#include "apps/commands.h"
#include "support/atomic_file.h"
#include "mappers/mapper.h"
#include "sim/workload.h"
#include "mappers/metrics.h"
#include "scenario/statistics.h"
#include "support/error.h"
#include "topologies/network_factory.h"
#include "support/spec.h"
#include "support/units.h"

namespace mapsim {
namespace {

struct CompareOptions {
  std::string topology, process, mappers = "random,default,switch,binary,greedy,best", routing = "default",
                                  allocation = "all";
  int slots = 1, replicates = 1;
  uint64_t seed = 1;
  std::string csv;
};

// The network spec of replicate r: random generators get seed + r, regular ones stay as they are.
std::string replicate_spec(const std::string& text, uint64_t seed) {
  Spec spec = Spec::parse(text);
  if (spec.name() != "irregular") return text;
  const size_t at = text.find("seed=");
  if (at == std::string::npos) return text + (text.find(':') == std::string::npos ? ":" : ",") + "seed=" + std::to_string(seed);
  const size_t end = text.find(',', at);
  return text.substr(0, at) + "seed=" + std::to_string(seed) + (end == std::string::npos ? "" : text.substr(end));
}

// Mapper specs hold commas ("hypersphere:spreading=1,gamma=2"): a piece with '=' and no ':' is
// one more option of the spec before it.
std::vector<std::string> split_mappers(const std::string& list) {
  std::vector<std::string> names;
  std::string piece;
  std::istringstream in(list);
  while (std::getline(in, piece, ',')) {
    if (piece.empty()) continue;
    if (piece.find('=') != std::string::npos && piece.find(':') == std::string::npos && !names.empty()) names.back() += "," + piece;
    else names.push_back(piece);
  }
  return names;
}

void run_compare(const CompareOptions& o) {
  const std::vector<std::string> mappers = split_mappers(o.mappers);
  if (mappers.empty()) throw Error("--mappers: no mapper named");
  for (const std::string& name : mappers) make_mapper(name);  // reject bad names before any work
  ProcessGraph graph = make_process_graph(o.process);
  // values[mapper][metric] over replicates
  std::vector<std::vector<std::vector<double>>> values(mappers.size());
  std::vector<std::string> keys;
  for (int r = 0; r < o.replicates; ++r) {
    const uint64_t seed = o.seed + static_cast<uint64_t>(r);
    RoutedNetwork routed(make_network(replicate_spec(o.topology, seed)), o.routing);
    MappingProblem problem = make_problem(routed, graph, o.allocation, o.slots, seed);
    for (size_t i = 0; i < mappers.size(); ++i) {
      auto start = std::chrono::steady_clock::now();
      Placement placement = make_mapper(mappers[i])->map(problem);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      check_placement(problem, placement);
      auto list = metric_list(evaluate(problem, placement));
      list.push_back({"map_seconds", seconds});
      if (keys.empty())
        for (const auto& kv : list) keys.push_back(kv.first);
      values[i].resize(list.size());
      for (size_t k = 0; k < list.size(); ++k) values[i][k].push_back(list[k].second);
      spdlog::debug("replicate {} {}: weighted cardinality {}", r, mappers[i], list[0].second);
    }
  }
  auto mean_sd = [](const std::vector<double>& v) {
    const Statistics st = summarise(v);
    return std::pair{st.mean, st.sd};
  };
  if (!o.csv.empty())
    write_file_atomically(o.csv, [&](std::ostream& out) {
      out << "mapper,replicates";
      for (const std::string& k : keys) out << "," << k << "_mean," << k << "_sd";
      out << "\n";
      for (size_t i = 0; i < mappers.size(); ++i) {
        out << csv_field(mappers[i]) << "," << o.replicates;
        for (const auto& v : values[i]) {
          auto [mean, sd] = mean_sd(v);
          out << "," << format_number(mean) << "," << format_number(sd);
        }
        out << "\n";
      }
    });
  // The table: the headline metrics (every metric is in the CSV).
  const std::vector<std::pair<std::string, std::string>> shown = {
      {"weighted_cardinality", "weighted card."}, {"cardinality", "cardinality"}, {"hop_bytes", "hop-bytes"},
      {"dilation", "dilation"}, {"max_link_load", "max link load"}, {"load_variance", "load var."},
      {"avg_latency", "latency (us)"}};
  std::printf("%d replicate(s); mean (stddev)\n%-16s", o.replicates, "mapper");
  for (const auto& [key, label] : shown) std::printf(" %22s", label.c_str());
  std::printf("\n");
  for (size_t i = 0; i < mappers.size(); ++i) {
    std::printf("%-16s", mappers[i].c_str());
    for (const auto& [key, label] : shown) {
      const size_t k = std::find(keys.begin(), keys.end(), key) - keys.begin();
      auto [mean, sd] = mean_sd(values[i][k]);
      const double scale = key == "avg_latency" ? 1e6 : 1;
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.4g (%.3g)", mean * scale, sd * scale);
      std::printf(" %22s", cell);
    }
    std::printf("\n");
  }
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "Compare mappers on one problem over replicated topology seeds");
  cmd->footer("Example:\n  mapsim compare --topology irregular:nodes=256,switches=75 --process mesh:16x16 \\\n"
              "    --mappers random,switch,binary,adjacency,best --replicates 20 --csv compare.csv");
  cmd->add_option("--topology", o->topology, "Network spec (irregular networks get seed S, S+1, ... per replicate)")->required();
  cmd->add_option("--process", o->process, "Process topology spec")->required();
  cmd->add_option("--mappers", o->mappers, "Comma-separated mapper specs");
  cmd->add_option("--routing", o->routing, "Routing (default: the network's own)");
  cmd->add_option("--allocation", o->allocation, "all, random[:seed=S] or list:FILE");
  cmd->add_option("--slots", o->slots, "Slots (ranks) per node")->check(CLI::PositiveNumber);
  cmd->add_option("--replicates", o->replicates, "Topology seeds to average over")->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", o->seed, "First seed (of the topology and the mappers)");
  cmd->add_option("--csv", o->csv, "Write mean and stddev of every metric per mapper");
  cmd->callback([o] { run_compare(*o); });
}

}  // namespace mapsim
