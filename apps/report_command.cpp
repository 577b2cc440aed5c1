// mapsim report: a run's or sweep's output directory as one self-contained HTML page.
#include <filesystem>
#include <iostream>

#include "apps/commands.h"
#include "apps/external_tool.h"
#include "reporting/report.h"
#include "support/atomic_file.h"

namespace mapsim {
namespace {

struct ReportCommandOptions {
  std::string dir, output;
};

void report(const ReportCommandOptions& o) {
  const std::string output = o.output.empty() ? (std::filesystem::path(o.dir) / "report.html").string() : o.output;
  const SvgRenderer render = [&](const std::string& program, const std::vector<std::string>& args, const std::string& input) {
    return tool_output(program, program == "dot" ? "graphviz" : "gnuplot-nox", args, input, output);
  };
  const std::string page = html_report(o.dir, render);
  write_file_atomically(output, [&](std::ostream& out) { out << page; });
  std::cout << "report: " << output << "\n";
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportCommandOptions>();
  CLI::App* cmd = app.add_subcommand("report", "One self-contained HTML page of a run or sweep: tables and figures");
  cmd->footer("Example:\n  mapsim run configs/default.yaml -o out/ --timeline && mapsim report out/ -o out/report.html");
  cmd->add_option("dir", o->dir, "Output directory of mapsim run or mapsim sweep")->required();
  cmd->add_option("-o,--output", o->output, "HTML file (default: DIR/report.html)");
  cmd->callback([o] { report(*o); });
}

}  // namespace mapsim
