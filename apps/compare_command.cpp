// mapsim compare: several mappers on one problem, replicated over the topology seed; a table of
// every metric's mean and standard deviation per mapper.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "apps/commands.h"
#include "topologies/routing.h"
#include "mappers/mapper.h"
#include "scenario/run.h"
#include "scenario/statistics.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/units.h"

namespace mapsim {
namespace {

struct CompareOptions {
  std::string topology, process, mappers = "random,default,switch,binary,greedy,best", routing, allocation, slots,
                                 replicates, seed;
  std::string csv;
};

// Mapper specs hold commas ("hypersphere:spreading=1,gamma=2"): a piece with '=' and no ':' is
// one more option of the spec before it.
std::vector<std::string> split_mappers(const std::string& list) {
  std::vector<std::string> names;
  std::string piece;
  std::istringstream in(list);
  while (std::getline(in, piece, ',')) {
    if (piece.empty()) continue;
    if (piece.find('=') != std::string::npos && piece.find(':') == std::string::npos && !names.empty())
      names.back() += "," + piece;
    else
      names.push_back(piece);
  }
  return names;
}

// `compare` is `run` with model none: the same configuration, seeding and validation.
Scenario compare_scenario(const CompareOptions& o) {
  const std::vector<std::string> mappers = split_mappers(o.mappers);
  if (mappers.empty()) throw Error("--mappers: no mapper named");
  YAML::Node list(YAML::NodeType::Sequence);
  for (const std::string& m : mappers) list.push_back(m);
  std::vector<FlagValue> values = given_flags({{"network", "--topology", o.topology},
                                               {"workload.process", "--process", o.process},
                                               {"model", "--model", "none"},
                                               {"routing", "--routing", o.routing},
                                               {"allocation", "--allocation", o.allocation},
                                               {"slots", "--slots", o.slots},
                                               {"replicates", "--replicates", o.replicates},
                                               {"seed", "--seed", o.seed}});
  values.push_back({"mapping", "--mappers", list});
  return scenario_from_flags("mapsim compare", values);
}

void run_compare(const CompareOptions& o) {
  const Scenario scenario = compare_scenario(o);
  RunOptions options;
  options.links = false;
  const std::vector<RunRow> rows = run_scenario(scenario, options);
  std::vector<std::string> keys;
  for (const auto& [key, value] : rows.front().values) keys.push_back(key);
  keys.push_back("map_seconds");
  // values[mapper][metric] over replicates
  const std::vector<std::string>& mappers = scenario.mappers;
  std::vector<std::vector<std::vector<double>>> values(mappers.size(), std::vector<std::vector<double>>(keys.size()));
  for (size_t row = 0; row < rows.size(); ++row) {
    auto& cells = values[row % mappers.size()];
    for (size_t k = 0; k + 1 < keys.size(); ++k) cells[k].push_back(rows[row].values[k].second);
    cells.back().push_back(rows[row].map_seconds);
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
        out << csv_field(mappers[i]) << "," << scenario.replicates;
        for (const auto& v : values[i]) {
          auto [mean, sd] = mean_sd(v);
          out << "," << format_number(mean) << "," << format_number(sd);
        }
        out << "\n";
      }
    });
  // The table: the headline metrics (every metric is in the CSV).
  const std::vector<std::pair<std::string, std::string>> shown = {{"weighted_cardinality", "weighted card."},
                                                                  {"cardinality", "cardinality"},
                                                                  {"hop_bytes", "hop-bytes"},
                                                                  {"dilation", "dilation"},
                                                                  {"max_link_load", "max link load"},
                                                                  {"load_variance", "load var."},
                                                                  {"zero_load_latency", "latency (us)"},
                                                                  {"congestion_bound", "cong. bound (us)"}};
  std::printf("%d replicate(s); mean (stddev)\n%-16s", scenario.replicates, "mapper");
  for (const auto& [key, label] : shown) std::printf(" %22s", label.c_str());
  std::printf("\n");
  for (size_t i = 0; i < mappers.size(); ++i) {
    std::printf("%-16s", mappers[i].c_str());
    for (const auto& [key, label] : shown) {
      const size_t k = std::find(keys.begin(), keys.end(), key) - keys.begin();
      auto [mean, sd] = mean_sd(values[i][k]);
      const double scale = key == "zero_load_latency" || key == "congestion_bound" ? 1e6 : 1;
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
  cmd->footer("Mappers: " + component_list(mapper_registry().infos()) +
              " (mapsim components)\nExample:\n  mapsim compare --topology irregular:nodes=256,switches=75 --process "
              "mesh:16x16 \\\n"
              "    --mappers random,switch,binary,adjacency,best --replicates 20 --csv compare.csv");
  cmd->add_option("--topology", o->topology, "Network spec (specs given no seed get seed S, S+1, ... per replicate)")
      ->required();
  cmd->add_option("--process", o->process, "Process topology spec")->required();
  cmd->add_option("--mappers", o->mappers, "Comma-separated mapper specs (default: random,default,switch,binary,greedy,best)");
  cmd->add_option("--routing", o->routing,
                  "Routing: " + component_list(routing_registry().infos()) + " (default: the network's own)");
  cmd->add_option("--allocation", o->allocation, "all, random[:seed=S] or list:FILE");
  cmd->add_option("--slots", o->slots, "Slots (ranks) per node (default 1)");
  cmd->add_option("--replicates", o->replicates, "Replicates (seeds S, S+1, ...) to average over (default 1)");
  cmd->add_option("--seed", o->seed, "First seed: of the mappers, allocations and specs given none (default 1)");
  cmd->add_option("--csv", o->csv, "Write mean and stddev of every metric per mapper");
  cmd->callback([o] { run_compare(*o); });
}

}  // namespace mapsim
