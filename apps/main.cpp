// mapsim: process mapping and interconnect simulation on switch-based networks.
#include <cstdio>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "apps/commands.h"
#include "support/error.h"

int main(int argc, char** argv) {
  // Logs go to stderr; results go to stdout or files.
  spdlog::set_default_logger(spdlog::stderr_color_mt("mapsim"));
  spdlog::set_pattern("mapsim: %l: %v");
  spdlog::set_level(spdlog::level::info);

  CLI::App app{"mapsim: process mapping and interconnect simulation for switch-based networks"};
  app.set_version_flag("--version", std::string("mapsim ") + MAPSIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough();  // -v / --quiet also after the subcommand ("mapsim topo SPEC -v")
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "Debug logging on stderr");
  app.add_flag("--quiet", quiet, "Only errors on stderr");
  app.parse_complete_callback([&] {
    if (verbose) spdlog::set_level(spdlog::level::debug);
    if (quiet) spdlog::set_level(spdlog::level::err);
  });
  mapsim::add_topo_command(app);
  mapsim::add_map_command(app);
  mapsim::add_compare_command(app);
  mapsim::add_simulate_command(app);
  mapsim::add_traffic_command(app);
  mapsim::add_run_command(app);
  mapsim::add_sweep_command(app);
  mapsim::add_plot_command(app);
  mapsim::add_trace_command(app);
  mapsim::add_components_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const mapsim::Error& e) {
    std::fprintf(stderr, "mapsim: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapsim: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
