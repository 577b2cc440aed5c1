// Every result column mapsim writes, declared once: its results.csv name, the words the tables and the
// report use, its unit, what it is, which way is better and when it applies. The run table, compare,
// map --json, results.csv / summary.json (units, empty or null where a column does not apply), the
// report, plots' units and docs/scenario.md's column glossary (`mapsim components columns --markdown`)
// all read this table. A new placement metric is one line: a declaration with its `compute`.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mappers/mapping.h"

namespace mapsim {

// When a column has a value. Columns of a kind that did not run are not written at all (no sim_ columns
// without a model); the others are written, empty in CSV and null in JSON (NaN in memory) where they do
// not apply -- never 0.
enum class Applies {
  always,    // every placement
  model,     // a simulation ran (the sim_ columns)
  distant,   // the workload has random distant partners (a pattern's distant=F): the neighbour / distant split
  ocs,       // a hybrid network with optical circuits (ocs:)
  flit,      // the flit model (its congestion figures)
  jobs,      // several jobs on one machine (jobs:)
  traffic,   // open-loop synthetic traffic (workload.traffic)
};

enum class Better { lower, higher, neither };

struct ResultColumn {
  std::string name;         // results.csv column; a trailing '*' stands for any ending (sim_slowdown_with_*)
  std::string label;        // the report's and the glossary's words ("mean message latency")
  std::string short_label;  // the fixed-width tables' (run, compare, rank correlations: "sim. latency")
  std::string unit;         // "s", "B", "B x links", "count", "hops", "fraction", ...; "" none
  bool volume = false;      // its "B" counts the process graph's edge weights ("weight") when the workload gives no message sizes
  std::string description;  // one line
  Better better = Better::lower;
  Applies applies = Applies::always;
  int run_table = 0, compare_table = 0, report = 0;  // position in mapsim run's table, compare's and the report's; 0: not shown
  bool correlation = false;  // in the run table's rank-correlation line (a static metric users rank placements by)
  // A placement metric that MappingMetrics does not hold: its value, appended to the built-in metrics.
  std::function<double(const MappingProblem&, const Placement&)> compute;
};

// Every column, in results.csv order within each kind (static metrics, then sim_, jobs', traffic's).
const std::vector<ResultColumn>& result_columns();
// The declaration of `name` (its _mean, _sd and _ci95 suffixes not stripped), or nullptr.
const ResultColumn* find_result_column(const std::string& name);
// Adds a column (a placement metric computed outside MappingMetrics, or a test's); an Error when the name is taken.
void add_result_column(ResultColumn column);
void remove_result_column(const std::string& name);

// A column's unit: `unit`, with edge weights for bytes when `volume` and the workload gives no message sizes.
std::string result_unit(const ResultColumn& column, bool workload_bytes);
// The columns of a table, in its order: the declarations with a position in `which` (&ResultColumn::run_table, ...).
std::vector<const ResultColumn*> table_columns(int ResultColumn::*which);

// What a run is, for the columns that apply only to some runs.
struct RunKind {
  bool simulated = false, distant = false, ocs = false, flit = false, jobs = false, traffic = false;
};
bool column_applies(const ResultColumn& column, const RunKind& run);
// Sets the values of the columns that do not apply to `run` to NaN (written empty / null).
void blank_not_applicable(std::vector<std::pair<std::string, double>>& values, const RunKind& run);

// The glossary of docs/scenario.md: a Markdown table of every column (name, unit, applies, better, meaning).
std::string result_columns_markdown();
// The same as plain text (mapsim components columns).
std::string result_columns_text();

}  // namespace mapsim
