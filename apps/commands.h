// Subcommands of the mapsim CLI. Each registers its options on the app and runs when chosen;
// the CLI only wires modules together.
#pragma once
#include <CLI/CLI.hpp>
#include <vector>

#include "support/component_reference.h"

namespace mapsim {

void add_topo_command(CLI::App& app);
void add_map_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_plot_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_components_command(CLI::App& app);
void add_traffic_command(CLI::App& app);

// The registered components by kind, for `components` and the commands' --help lists.
std::vector<ComponentSection> component_sections();

}  // namespace mapsim
