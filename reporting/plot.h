// Figures from results.csv (or aggregate.csv, or mapsim traffic's CSV; one file or several): one series per value of a column (`by`, e.g.
// mapper), y's mean and 95 % confidence interval over the rows sharing x, drawn by gnuplot as
// lines with error bars, or printed as a Markdown table. x is numeric when every value is a
// number or a quantity of one kind ("1Gbps", "2.5Gbps": placed by value, labelled as written),
// otherwise categories in the order they first appear.
#pragma once
#include <string>
#include <vector>

namespace mapsim {

struct PlotOptions {
  std::string x, y, by = "mapper";
  std::vector<std::string> where;  // KEY=VALUE filters on the rows
  std::string title, xlabel, ylabel;
  // y is multiplied by this (e.g. 1e6 for microseconds). 0 (no --scale): a time column (column_unit "s") is
  // shown in one unit chosen from its means as the run table does (s, ms, us, ns), named on the axis and in the
  // table; every other column as it is.
  double scale = 0;
  bool logx = false, logy = false;
};

struct PlotPoint {
  std::string x;
  double mean = 0, ci95 = 0;
  long n = 0;
};

struct PlotData {
  std::vector<std::string> x_values;  // in axis order
  std::vector<double> x_numbers;      // numeric x: each x value in SI base units
  bool numeric_x = true;
  bool labelled_x = false;            // numeric x written with units: ticks show the text
  std::vector<std::pair<std::string, std::vector<PlotPoint>>> series;  // label -> points in x order
  std::string y_unit;                 // the unit chosen for a time column without --scale ("us"), else empty
  double y_scale = 1;                 // the factor the values were multiplied by
};

// The unit of a column of results.csv, aggregate.csv (its _mean, _sd and _ci95 columns too), summary.json or
// mapsim traffic's CSV, as declared in mappers/result_columns.h: "s" (times), "B" (bytes), "B x links"
// (hop-bytes), "weight" (the process graph's edge weights), "weight x hops", "weight x s", "hops", "count",
// "tasks^2", "fraction"; "" for the keys and names (point, replicate, mapper, varied keys) and columns it does
// not know. `workload_bytes`: the volumes are the workload's message bytes (a pattern or trace gives them);
// otherwise the process graph's edge weights.
std::string column_unit(const std::string& column, bool workload_bytes = true);
// A column's name as an axis label: "sim_makespan" -> "sim. makespan", "zero_load_latency" -> "zero-load latency".
std::string column_label(const std::string& column);

// `text` as a gnuplot string: the one quoting of every text that reaches a gnuplot script (titles,
// labels, names, paths in saved scripts). Double-quoted with backslash and quote escaped, a backquote
// (command substitution) as \140, control characters (a newline would end the command) as spaces.
// Not single quotes: gnuplot 5.4 cannot read a leading doubled quote there.
std::string gnuplot_quote(const std::string& text);

PlotData collect_plot(const std::string& csv_path, const PlotOptions& options);
// Several files read as one table, each file's columns found by name (the traffic CSVs of two
// routings, the results.csv of two runs); the rows of one series and x from several files are pooled
// as one file's rows are. Rows repeating the header (files concatenated by hand) are skipped.
PlotData collect_plot(const std::vector<std::string>& csv_paths, const PlotOptions& options);
// A gnuplot script drawing `data` into `output` with the terminal its extension names (.svg, .png, .pdf).
// It writes the figure to standard output (run_tool saves it atomically); saved_script() names
// `output` in its `set output`, quoted, so that the saved script reruns as is.
std::string gnuplot_script(const PlotData& data, const PlotOptions& options, const std::string& output);
std::string saved_script(std::string script, const std::string& output);
// | x | series ... | with "mean ± ci95" cells.
std::string markdown_table(const PlotData& data, const PlotOptions& options);

}  // namespace mapsim
