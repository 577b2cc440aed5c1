// A run's results as files and as a text table: write_run() stores run_scenario()'s rows as
// results.csv, links.csv, timings.csv and summary.json (summary.json last: it marks a complete
// directory); run_table() is the table `mapsim run` prints.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scenario/run.h"

namespace mapsim {

// Writes results.csv, links.csv, timings.csv, failed.csv (when a mapper failed), timeline.csv (when
// recorded) and summary.json into `dir`.
void write_run(const std::string& dir, const Scenario& scenario, const std::vector<RunRow>& rows,
               const std::vector<RunFailure>& failures = {});
// `mapsim run --launch`: the launch files (reporting/launch_files.h) of replicate 0's placements, one
// DIR/LABEL.FORMAT per format and row label (row_label: the mapper, or the job of a multi-job scenario)
// of `labels` (empty: every one that ran); characters of the label other than letters and digits become
// '_'. `network` is replicate 0's, for the node names. Returns the paths written.
std::string launch_file_path(const std::string& dir, const std::string& label, const std::string& format);
std::vector<std::string> write_run_launch_files(const std::string& dir, const std::vector<RunRow>& rows, const Network& network,
                                                const std::vector<std::string>& formats, const std::vector<std::string>& labels);
// Mean (sd) per mapper of the headline metrics, as a text table; below it, with simulations, how
// well each static metric ranks the placements by makespan, and what `best` chose.
std::string run_table(const std::vector<RunRow>& rows);
// Per static metric, Spearman's correlation with sim_makespan across the mappers' placements of a
// replicate, averaged over the replicates where it is defined (NaN where never: a metric equal for
// every placement, as the weighted cardinality of an all-to-all). Empty without simulations.
std::vector<std::pair<std::string, double>> metric_correlations(const std::vector<RunRow>& rows);

}  // namespace mapsim
