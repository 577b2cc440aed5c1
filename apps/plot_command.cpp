// mapsim plot: a figure (gnuplot) or a Markdown table of one metric against one key, one series
// per mapper, from a run's or a sweep's results.csv / aggregate.csv or mapsim traffic's CSV; several
// files are read as one table (two routings' load curves in one figure).
#include <iostream>

#include "apps/cli_checks.h"
#include "apps/commands.h"
#include "apps/external_tool.h"
#include "reporting/plot.h"
#include "support/atomic_file.h"
#include "support/error.h"

namespace mapsim {
namespace {

struct PlotCommandOptions {
  std::vector<std::string> csvs;
  std::string output, script;
  PlotOptions plot;
  bool table = false;
};

void plot(const PlotCommandOptions& o) {
  if (o.output.empty() && !o.table) throw Error("plot: give -o FIGURE (.svg, .png, .pdf) and/or --table");
  if (!o.output.empty()) require_output_folder("-o", o.output);  // before anything is printed
  refuse_same_output("-o", o.output, "--script", o.script);
  const PlotData data = collect_plot(o.csvs, o.plot);
  if (o.table) std::cout << markdown_table(data, o.plot);
  if (o.output.empty()) return;
  const std::string script = gnuplot_script(data, o.plot, o.output);
  if (!o.script.empty()) write_file_atomically(o.script, [&](std::ostream& out) { out << saved_script(script, o.output); });
  run_tool("gnuplot", "gnuplot-nox", {}, script, o.output);
  std::cerr << "figure: " << o.output << "\n";
}

}  // namespace

void add_plot_command(CLI::App& app) {
  auto o = std::make_shared<PlotCommandOptions>();
  CLI::App* cmd = app.add_subcommand("plot", "Plot a metric against a key from results.csv, aggregate.csv or traffic CSVs (gnuplot)");
  cmd->footer("Example:\n  mapsim plot results/moh2001-fig6/results.csv --x workload.process.base "
              "--y weighted_cardinality -o fig6.svg --table\n"
              "  mapsim plot minimal.csv ugal-g.csv --x offered --y latency_mean --by routing --scale 1e6 -o curves.svg");
  cmd->add_option("csv", o->csvs,
                  "results.csv or aggregate.csv of mapsim run / sweep, or mapsim traffic --format csv; several files are "
                  "read as one table (columns by name; repeated header lines skipped)")
      ->required();
  cmd->add_option("--x", o->plot.x, "Column on the x axis (a varied key, replicate, ...)")->required();
  cmd->add_option("--y", o->plot.y, "Metric column (mean and 95% CI over the rows that share x)")->required();
  cmd->add_option("--by", o->plot.by, "One series per value of this column (default mapper; empty: one series)");
  cmd->add_option("--where", o->plot.where, "Keep rows with KEY=VALUE (repeatable)");
  cmd->add_option("-o,--output", o->output, "Figure file: .svg, .png or .pdf");
  cmd->add_option("--script", o->script, "Also save the gnuplot script");
  cmd->add_flag("--table", o->table, "Print the values as a Markdown table");
  cmd->add_option("--title", o->plot.title, "Figure title");
  cmd->add_option("--xlabel", o->plot.xlabel, "x axis label");
  cmd->add_option("--ylabel", o->plot.ylabel, "y axis label");
  cmd->add_option("--scale", o->plot.scale, "Multiply y by this (e.g. 1e6: seconds -> microseconds); without it a time column is shown in one unit "
                  "(s, ms, us, ns) chosen from its values and named on the axis and in the table, other columns as they are")
      ->check(finite_nonzero());
  cmd->add_flag("--logx", o->plot.logx, "Logarithmic x axis");
  cmd->add_flag("--logy", o->plot.logy, "Logarithmic y axis");
  cmd->callback([o] { plot(*o); });
}

}  // namespace mapsim
