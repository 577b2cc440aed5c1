// Plot data from results.csv and aggregate.csv: grouping, confidence intervals, filters, numeric and
// categorical axes, Markdown tables, gnuplot scripts; CSV parsing errors.
#include <doctest/doctest.h>

#include <cmath>

#include "reporting/csv_table.h"
#include "reporting/plot.h"
#include "test_files.h"
#include "support/error.h"

using namespace mapsim;

namespace {

const char* kResults =
    "point,size,case,replicate,seed,mapper,cost\n"
    "0,16,0,0,1,random,4\n0,16,0,1,2,random,6\n0,16,0,0,1,binary,3\n0,16,0,1,2,binary,3\n"
    "1,4,0,0,1,random,2\n1,4,0,1,2,random,2\n1,4,0,0,1,binary,1\n1,4,0,1,2,binary,\n"
    "2,16,0.1,0,1,random,9\n";

}  // namespace

TEST_CASE("results.csv: one series per mapper, mean and 95% CI per x, numeric x sorted") {
  PlotOptions o;
  o.x = "size";
  o.y = "cost";
  o.where = {"case=0"};
  const PlotData d = collect_plot(temp_file("plot-r.csv", kResults), o);
  CHECK(d.numeric_x);
  CHECK(d.x_values == std::vector<std::string>{"4", "16"});
  REQUIRE(d.series.size() == 2);
  CHECK(d.series[0].first == "random");
  CHECK(d.series[0].second[0].mean == 2);
  CHECK(d.series[0].second[1].mean == 5);
  CHECK(d.series[0].second[1].ci95 == doctest::Approx(12.7062 * std::sqrt(2.0) / std::sqrt(2.0)));
  CHECK(d.series[1].second[0].n == 1);  // the empty cell is no value
  CHECK(markdown_table(d, o) == "| size | random | binary |\n|---|---|---|\n| 4 | 2 ± 0 | 1 |\n| 16 | 5 ± 13 | 3 ± 0 |\n");
  const std::string script = gnuplot_script(d, o, "fig.svg");
  CHECK(script.rfind("set terminal svg", 0) == 0);
  CHECK(script.find("$S0 << EOD\n4 2 0\n16 5 12.706") != std::string::npos);
  CHECK(script.find("title \"binary\"") != std::string::npos);
  CHECK_THROWS_AS(gnuplot_script(d, o, "fig.jpg"), Error);
}

TEST_CASE("rows from several sweep points are not pooled silently") {
  PlotOptions o;
  o.x = "size";
  o.y = "cost";
  CHECK_THROWS_WITH_AS(collect_plot(temp_file("plot-r.csv", kResults), o),
                       doctest::Contains("come from several sweep points; pick one with --where KEY=VALUE (other varied keys: case)"),
                       Error);
  o.x = "sise";
  CHECK_THROWS_WITH_AS(collect_plot(temp_file("plot-r.csv", kResults), o), doctest::Contains("(did you mean 'size'?)"), Error);
}

TEST_CASE("aggregate.csv: means and intervals are taken as they are; categories keep their order") {
  const std::string path = temp_file("plot-a.csv",
                                     "point,process,mapper,n,cost_mean,cost_sd,cost_ci95\n"
                                     "0,\"ring:8,x\",best,5,10,1,1.2\n0,\"ring:8,x\",random,5,30,2,2.5\n1,mesh:4x4,best,5,12,0,0\n");
  PlotOptions o;
  o.x = "process";
  o.y = "cost";
  o.scale = 2;
  const PlotData d = collect_plot(path, o);
  CHECK_FALSE(d.numeric_x);
  CHECK(d.x_values == std::vector<std::string>{"ring:8,x", "mesh:4x4"});
  CHECK(d.series[0].second[0].mean == 20);
  CHECK(d.series[0].second[0].ci95 == doctest::Approx(2.4));
  CHECK(d.series[1].second.size() == 1);
  CHECK(gnuplot_script(d, o, "f.png").find("set xtics (\"ring:8,x\" 0, \"mesh:4x4\" 1)") != std::string::npos);
}

TEST_CASE("tables print large numbers in fixed notation with 4 significant digits") {
  PlotOptions o;
  o.x = "l";
  o.y = "cost";
  const PlotData d = collect_plot(temp_file("plot-big.csv", "point,l,mapper,n,cost_mean,cost_sd,cost_ci95\n0,64,part,5,125888,990,1234.5\n1,16,part,5,0.000123456,0,0.0000123\n"), o);
  CHECK(markdown_table(d, o) == "| l | part |\n|---|---|\n| 16 | 0.0001235 ± 1.2e-05 |\n| 64 | 125900 ± 1200 |\n");
}

TEST_CASE("CSV errors name the file and line") {
  CHECK_THROWS_WITH_AS(read_csv(temp_file("plot-bad.csv", "a,b\n1,2\n3\n")), (temp_path("plot-bad.csv") + ":3: expected 2 fields as in the header, got 1").c_str(), Error);
  CHECK_THROWS_WITH_AS(read_csv(temp_file("plot-q.csv", "a,b\n\"1,2\n")), doctest::Contains("malformed CSV"), Error);
  CHECK_THROWS_WITH_AS(read_csv(temp_path("plot-none.csv")), doctest::Contains("no such CSV file"), Error);
  CHECK_THROWS_WITH_AS(read_csv("/dev/zero"), "/dev/zero: not a regular file (a device or pipe); expected a CSV file", Error);
  CHECK_THROWS_WITH_AS(read_csv("/tmp"), "/tmp: is a directory; expected a CSV file", Error);
  const CsvTable t = read_csv(temp_file("plot-ok.csv", "a,b\n\"x,\"\"y\"\"\",2\n"));
  CHECK(t.rows[0][0] == "x,\"y\"");
}

TEST_CASE("renamed result columns answer to their old names") {
  const std::string path = temp_file("plot-renamed.csv", "replicate,seed,mapper,zero_load_latency,sim_zero_load_latency\n0,1,random,2e-06,3e-06\n");
  PlotOptions o;
  o.x = "mapper";
  o.by = "";
  o.scale = 1;  // seconds as they are
  for (const auto& [old_name, value] : {std::pair{"avg_latency", 2e-6}, {"sim_avg_zero_load_latency", 3e-6}}) {
    o.y = old_name;
    const PlotData d = collect_plot(path, o);
    REQUIRE(d.series.size() == 1);
    CHECK(d.series[0].second[0].mean == value);
  }
  o.y = "latency";
  CHECK_THROWS_AS(collect_plot(path, o), Error);
}

TEST_CASE("a time column without --scale is shown in one unit from its means, named on the axis and in the table") {
  const std::string path = temp_file("plot-time.csv",
                                     "replicate,seed,mapper,size,sim_makespan,max_link_load\n"
                                     "0,1,random,4,2.46e-06,4096\n1,2,random,4,2.54e-06,4096\n0,1,random,16,4.9e-07,8192\n");
  PlotOptions o;
  o.x = "size";
  o.y = "sim_makespan";
  const PlotData d = collect_plot(path, o);
  CHECK(d.y_unit == "us");
  CHECK(d.y_scale == 1e6);
  REQUIRE(d.series.size() == 1);
  CHECK(d.series[0].second[0].mean == doctest::Approx(2.5));
  CHECK(d.series[0].second[1].mean == doctest::Approx(0.49));
  CHECK(markdown_table(d, o) == "| size \\ sim. makespan (us) | random |\n|---|---|\n| 4 | 2.5 ± 0.51 |\n| 16 | 0.49 |\n");
  CHECK(gnuplot_script(d, o, "f.svg").find("set ylabel \"sim. makespan (us)\"\n") != std::string::npos);
  CHECK(gnuplot_script(d, o, "f.svg").find("set title \"sim_makespan vs size\"\n") != std::string::npos);
  // The same numbers as --scale 1e6 gives.
  PlotOptions explicit_scale = o;
  explicit_scale.scale = 1e6;
  const PlotData e = collect_plot(path, explicit_scale);
  CHECK(e.series[0].second[0].mean == d.series[0].second[0].mean);
  CHECK(e.series[0].second[0].ci95 == d.series[0].second[0].ci95);
  // --ylabel wins; an explicit --scale changes nothing (seconds unlabelled, as before).
  o.ylabel = "run time";
  CHECK(gnuplot_script(d, o, "f.svg").find("set ylabel \"run time\"\n") != std::string::npos);
  CHECK(markdown_table(d, o).rfind("| size \\ sim. makespan (us) |", 0) == 0);
  o.ylabel.clear();
  o.scale = 1;
  const PlotData raw = collect_plot(path, o);
  CHECK(raw.y_unit.empty());
  CHECK(raw.series[0].second[0].mean == doctest::Approx(2.5e-6));
  CHECK(markdown_table(raw, o).rfind("| size | random |\n", 0) == 0);
  CHECK(gnuplot_script(raw, o, "f.svg").find("set ylabel \"sim_makespan\"\n") != std::string::npos);
  // Byte columns and other metrics are shown as they are.
  o.scale = 0;
  o.y = "max_link_load";
  const PlotData bytes = collect_plot(path, o);
  CHECK(bytes.y_unit.empty());
  CHECK(bytes.series[0].second[1].mean == 8192);
  CHECK(markdown_table(bytes, o).rfind("| size | random |\n", 0) == 0);
}

TEST_CASE("aggregate.csv and traffic CSV times: means and intervals in the chosen unit") {
  const std::string path = temp_file("plot-time-a.csv",
                                     "point,l,mapper,n,sim_avg_latency_mean,sim_avg_latency_sd,sim_avg_latency_ci95\n"
                                     "0,2,best,5,0.0032,0.0001,0.00012\n1,4,best,5,0.0101,0.001,0.0012\n");
  PlotOptions o;
  o.x = "l";
  o.y = "sim_avg_latency";
  const PlotData d = collect_plot(path, o);
  CHECK(d.y_unit == "ms");
  CHECK(markdown_table(d, o) == "| l \\ sim. avg latency (ms) | best |\n|---|---|\n| 2 | 3.2 ± 0.12 |\n| 4 | 10.1 ± 1.2 |\n");
  const std::string traffic = temp_file("plot-time-t.csv", "routing,offered,latency_mean\nminimal,0.1,3e-09\nminimal,0.2,8e-09\n");
  o.x = "offered";
  o.y = "latency_mean";
  o.by = "routing";
  const PlotData t = collect_plot(traffic, o);
  CHECK(t.y_unit == "ns");
  CHECK(gnuplot_script(t, o, "f.svg").find("set ylabel \"latency mean (ns)\"\n") != std::string::npos);
}

TEST_CASE("column units and labels") {
  CHECK(column_unit("sim_makespan") == "s");
  CHECK(column_unit("sim_makespan_ci95") == "s");
  CHECK(column_unit("zero_load_latency") == "s");
  CHECK(column_unit("sim_neighbour_latency_p99") == "s");
  CHECK(column_unit("congestion_bound") == "s");
  CHECK(column_unit("traffic_latency_mean") == "s");
  CHECK(column_unit("sim_eps_only_makespan") == "s");
  CHECK(column_unit("sim_relative_makespan") == "fraction");
  CHECK(column_unit("sim_bytes") == "B");
  CHECK(column_unit("max_link_load") == "B");
  CHECK(column_unit("max_link_load", false) == "weight");
  CHECK(column_unit("hop_bytes") == "B x links");
  CHECK(column_unit("sim_messages") == "count");
  CHECK(column_unit("cardinality") == "hops");
  CHECK(column_unit("mapper").empty());
  CHECK(column_unit("workload.process").empty());
  CHECK(column_label("sim_makespan") == "sim. makespan");
  CHECK(column_label("zero_load_latency") == "zero-load latency");
  CHECK(column_label("sim_zero_load_latency") == "sim. zero-load latency");
}
