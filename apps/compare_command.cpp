// mapsim compare: several mappers on one problem, replicated over the topology seed; a table of
// every metric's mean and standard deviation per mapper.
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/commands.h"
#include "apps/common_options.h"
#include "mappers/mapper.h"
#include "reporting/compare_report.h"
#include "scenario/run.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/json_text.h"

namespace mapsim {
namespace {

struct CompareOptions {
  SharedFlags shared;
  std::string process, mappers = "random,default,switch,binary,greedy,best", replicates;
  std::string csv, format;
  bool json = false;
};

// `compare` is `run` with model none: the same configuration, seeding and validation.
Scenario compare_scenario(const CompareOptions& o) {
  const std::vector<std::string> mappers = split_mappers(o.mappers);
  if (mappers.empty()) throw Error("--mappers: no mapper named");
  YAML::Node list(YAML::NodeType::Sequence);
  for (const std::string& m : mappers) list.push_back(m);
  std::vector<FlagValue> values = given_flags({o.shared.topology_key(),
                                               {"workload.process", "--process", o.process},
                                               {"model", "--model", "none"},
                                               o.shared.routing_key(),
                                               o.shared.allocation_key(),
                                               o.shared.slots_key(),
                                               {"replicates", "--replicates", o.replicates},
                                               o.shared.seed_key()});
  values.push_back({"mapping", "--mappers", list});
  return scenario_from_flags("mapsim compare", values);
}

// {"replicates": N, "mappers": [{"mapper": M, "KEY": {"mean": .., "sd": ..}, ...}]}: the CSV's values.
nlohmann::ordered_json compare_json(const CompareSummary& summary) {
  nlohmann::ordered_json mappers = nlohmann::ordered_json::array();
  for (size_t m = 0; m < summary.mappers.size(); ++m) {
    nlohmann::ordered_json row{{"mapper", summary.mappers[m]}};
    for (size_t k = 0; k < summary.keys.size(); ++k)
      row[summary.keys[k]] = {{"mean", summary.per_mapper[m][k].mean}, {"sd", summary.per_mapper[m][k].sd}};
    mappers.push_back(row);
  }
  return {{"replicates", summary.replicates}, {"mappers", mappers}};
}

void run_compare(const CompareOptions& o) {
  const Scenario scenario = compare_scenario(o);
  RunOptions options;
  options.links = false;
  const CompareSummary summary = summarise_compare(scenario.mappers, scenario.replicates, run_scenario(scenario, options));
  if (!o.csv.empty()) write_file_atomically(o.csv, [&](std::ostream& out) { write_compare_csv(summary, out); });
  const std::string format = chosen_format(o.format, o.json);
  if (format == "csv") write_compare_csv(summary, std::cout);
  else if (format == "json") std::cout << json_text(compare_json(summary), 2) << "\n";
  else write_compare_table(summary, std::cout);
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "Compare mappers on one problem over replicated topology seeds");
  cmd->footer("Mappers: " + component_list(mapper_registry().infos()) +
              " (mapsim components)\nExample:\n  mapsim compare --topology irregular:nodes=256,switches=75 --process "
              "mesh:16x16 \\\n"
              "    --mappers random,switch,binary,adjacency,best --replicates 20 --csv compare.csv");
  add_topology_option(cmd, o->shared.topology, "Network spec (specs given no seed get seed S, S+1, ... per replicate)");
  cmd->add_option("--process", o->process, "Process topology spec")->required();
  add_mappers_option(cmd, o->mappers, "Comma-separated mapper specs (default: random,default,switch,binary,greedy,best)");
  add_routing_option(cmd, o->shared.routing);
  add_allocation_option(cmd, o->shared.allocation);
  add_slots_option(cmd, o->shared.slots);
  cmd->add_option("--replicates", o->replicates, "Replicates (seeds S, S+1, ...) to average over (default 1)");
  add_seed_option(cmd, o->shared.seed, "First seed: of the mappers, allocations and specs given none (default 1)");
  cmd->add_option("--csv", o->csv, "Also write the CSV (mean and stddev of every metric per mapper) to this file");
  add_format_option(cmd, o->format, o->json, {"table", "csv", "json"},
                    "Same as --format json");
  cmd->callback([o] { run_compare(*o); });
}

}  // namespace mapsim
