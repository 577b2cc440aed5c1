// mapsim run: one scenario file -> results.csv, links.csv, timings.csv, summary.json and a table;
// --draw adds a Graphviz picture of the link loads per mapper.
#include <filesystem>
#include <iostream>

#include "apps/commands.h"
#include "apps/external_tool.h"
#include "apps/progress.h"
#include "scenario/run.h"
#include "support/atomic_file.h"
#include "support/error.h"

namespace mapsim {
namespace {

struct RunCommandOptions {
  std::string scenario, output, draw;
  std::vector<std::string> sets;
};

// net.svg for one mapper; net-switch.svg, net-binary.svg, ... for several.
std::string draw_path(const std::string& path, const std::string& mapper, bool several) {
  if (!several) return path;
  std::string tag;
  for (char c : mapper) tag += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "-" + tag + p.extension().string())).string();
}

std::string draw_format(const std::string& path) {
  const std::string format = std::filesystem::path(path).extension().string();
  if (format != ".svg" && format != ".png" && format != ".pdf" && format != ".dot")
    throw Error("--draw " + path + ": expected a .svg, .png, .pdf or .dot file");
  return format;
}

void draw(const std::string& path, const std::vector<RunRow>& rows) {
  const std::string format = draw_format(path);
  size_t mappers = 0;
  for (const RunRow& row : rows) mappers += row.replicate == 0;
  for (const RunRow& row : rows) {
    if (row.replicate != 0) continue;
    const std::string out = draw_path(path, row.mapper, mappers > 1);
    if (format == ".dot")
      write_file_atomically(out, [&](std::ostream& o) { o << row.network_dot; });
    else
      run_tool("dot", "graphviz", {"-T" + format.substr(1), "-o", "{out}"}, row.network_dot, out);
    std::cerr << "picture: " << out << "\n";
  }
}

void run(const RunCommandOptions& o) {
  Scenario scenario = load_scenario(o.scenario, o.sets);
  if (!o.output.empty()) scenario.output = o.output;
  if (!o.draw.empty()) draw_format(o.draw);
  ProgressBar bar("run " + scenario.name);
  RunOptions options;
  options.draw = !o.draw.empty();
  options.progress = [&](int done, int total) { bar.update(done, total); };
  const std::vector<RunRow> rows = run_scenario(scenario, options);
  bar.finish();
  write_run(scenario.output, scenario, rows);
  if (!o.draw.empty()) draw(o.draw, rows);
  std::cout << scenario.name << ": " << scenario.replicates << " replicate(s); mean (stddev)\n"
            << run_table(rows) << "results: " << (std::filesystem::path(scenario.output) / "results.csv").string() << "\n";
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run a YAML scenario: every mapper and replicate (docs/scenario.md)");
  cmd->footer("Example:\n  mapsim run configs/default.yaml -o out/ --set replicates=5 --set model.t_s=1us --draw out/net.svg");
  cmd->add_option("scenario", o->scenario, "Scenario file (YAML)")->required();
  cmd->add_option("-o,--output", o->output, "Directory for results.csv, links.csv, timings.csv, summary.json (default: the scenario's output)");
  cmd->add_option("--set", o->sets, "Override a value: KEY.PATH=VALUE (repeatable), e.g. network.switches=64");
  cmd->add_option("--draw", o->draw, "Picture of the link loads (replicate 0; one file per mapper): .svg, .png, .pdf or .dot");
  cmd->callback([o] { run(*o); });
}

}  // namespace mapsim
