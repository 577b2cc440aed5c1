// The flags that map, compare, simulate and traffic share -- the network, its routing, the allocation,
// slots per node and the seed (topo takes --routing) -- declared once: name, help text and scenario key.
// A command adds each where its --help lists it; a `help` argument replaces the shared text only where
// the flag means more in that command (compare's replicate seeds, traffic's seed of the arrivals).
#pragma once
#include <CLI/CLI.hpp>
#include <array>
#include <string>
#include <vector>

namespace mapsim {

// The shared flags as given (empty: not given, so the scenario's default holds).
struct SharedFlags {
  std::string topology, routing, allocation, slots, seed;

  // Each as {scenario key, flag, value}, for given_flags() (scenario/scenario.h).
  std::array<std::string, 3> topology_key() const { return {"network", "--topology", topology}; }
  std::array<std::string, 3> routing_key() const { return {"routing", "--routing", routing}; }
  std::array<std::string, 3> allocation_key() const { return {"allocation", "--allocation", allocation}; }
  std::array<std::string, 3> slots_key() const { return {"slots", "--slots", slots}; }
  std::array<std::string, 3> seed_key() const { return {"seed", "--seed", seed}; }
};

// --topology (required).
CLI::Option* add_topology_option(CLI::App* cmd, std::string& topology,
                                 const std::string& help = "Network spec (see mapsim topo --help)");
// --routing, listing the registered routings.
CLI::Option* add_routing_option(CLI::App* cmd, std::string& routing);
CLI::Option* add_allocation_option(CLI::App* cmd, std::string& allocation);
CLI::Option* add_slots_option(CLI::App* cmd, std::string& slots);
// --seed: text handed to the scenario, or a number (traffic).
template <class Seed>
CLI::Option* add_seed_option(
    CLI::App* cmd, Seed& seed,
    const std::string& help = "Seed of the mapper, the allocation and of specs given none (default 1)") {
  return cmd->add_option("--seed", seed, help);
}

// --format with the formats the command has (table, csv, json: `formats`, the first the default), and
// --json, kept as an alias of --format json (they exclude each other). The format chosen is
// chosen_format(format, json).
CLI::Option* add_format_option(CLI::App* cmd, std::string& format, bool& json, const std::vector<std::string>& formats,
                               const std::string& json_help = "Same as --format json");
inline std::string chosen_format(const std::string& format, bool json) { return json ? "json" : format; }

// The mapper flags: `--mapper` and `--mappers` are one flag, of either name, in every command that takes
// mappers. map and simulate run one mapper (add_mapper_option), compare a comma-separated list
// (add_mappers_option).
CLI::Option* add_mapper_option(CLI::App* cmd, std::string& mapper, const std::string& help);
CLI::Option* add_mappers_option(CLI::App* cmd, std::string& mappers, const std::string& help);
// Mapper specs hold commas ("hypersphere:spreading=1,gamma=2"): a piece with '=' and no ':' is one
// more option of the spec before it.
std::vector<std::string> split_mappers(const std::string& list);
// `mapper` as given to a one-mapper command; an Error when it names several ("mapsim compare" does that).
std::string one_mapper(const std::string& command, const std::string& mapper);

}  // namespace mapsim
