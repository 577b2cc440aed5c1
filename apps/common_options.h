// The flags that map, compare, simulate and traffic share -- the network, its routing, the allocation,
// slots per node and the seed (topo takes --routing) -- declared once: name, help text and scenario key.
// A command adds each where its --help lists it; a `help` argument replaces the shared text only where
// the flag means more in that command (compare's replicate seeds, traffic's seed of the arrivals).
#pragma once
#include <CLI/CLI.hpp>
#include <array>
#include <string>

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

}  // namespace mapsim
