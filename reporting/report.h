// mapsim report: one self-contained HTML page (inline SVG, no network access) of a run or sweep
// output directory: the scenario, per-mapper tables with 95 % confidence intervals and figures --
// makespan and latency (or the mapping metrics) per mapper and per swept key, link loads per switch
// level as CDFs, the network with its link loads on one scale per mapper, and each rank's compute
// and wait intervals when the run recorded them (run --timeline). The figures are gnuplot and
// Graphviz scripts that `render` turns into SVG text.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace mapsim {

// (program, arguments, input) -> the SVG the program wrote to its standard output.
using SvgRenderer = std::function<std::string(const std::string& program, const std::vector<std::string>& args,
                                              const std::string& input)>;

// Throws Error when `dir` holds no run or sweep results (results.csv and summary.json, or aggregate.csv).
std::string html_report(const std::string& dir, const SvgRenderer& render);

}  // namespace mapsim
