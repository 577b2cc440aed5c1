// The result columns' one declaration (mappers/result_columns.h): a column added there reaches every
// output derived from it, and a column that does not apply is empty in CSV and null in JSON, never 0.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "mappers/result_columns.h"
#include "reporting/compare_report.h"
#include "reporting/plot.h"
#include "reporting/report.h"
#include "reporting/run_report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "test_files.h"

using namespace mapsim;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string first_line(const std::string& path) { return read_text(path).substr(0, read_text(path).find('\n')); }

// A test's metric, declared in one line as a user would add one, and taken out again at the end of the test.
struct ToyColumn {
  ToyColumn() {
    add_result_column({"toy_tasks_per_node", "toy tasks per node", "toy per node", "tasks", false, "tasks over allocated nodes (a test's)", Better::neither, Applies::always, 200, 200, 200, true, [](const MappingProblem& p, const Placement& x) { return static_cast<double>(x.size()) / static_cast<double>(p.nodes.size()); }});
  }
  ~ToyColumn() { remove_result_column("toy_tasks_per_node"); }
};

RunOptions quiet() {
  RunOptions o;
  o.links = false;
  return o;
}

}  // namespace

TEST_CASE("result columns: a metric declared in one line reaches every output derived from the table") {
  const ToyColumn toy;
  const Scenario s = load_scenario(temp_file("toy-column.yaml", R"(name: toy
network: fattree:k=4,levels=2
workload: {process: 'mesh:2x4', pattern: 'exchange:size=4KiB'}
mapping: [default, random, switch]
model: packet
replicates: 2
)"));
  const std::vector<RunRow> rows = run_scenario(s, quiet());
  REQUIRE(rows.size() == 6);
  // 8 tasks on 16 nodes, one per node.
  const auto& values = rows.front().values;
  const auto it = std::find_if(values.begin(), values.end(), [](const auto& kv) { return kv.first == "toy_tasks_per_node"; });
  REQUIRE(it != values.end());
  CHECK(it->second == doctest::Approx(0.5));

  // results.csv's header, summary.json's statistics and units, the run table's label.
  const std::string dir = temp_path("toy-column-run");
  std::filesystem::remove_all(dir);
  write_run(dir, s, rows, {});
  CHECK(first_line(dir + "/results.csv").find(",toy_tasks_per_node") != std::string::npos);
  const auto summary = nlohmann::json::parse(read_text(dir + "/summary.json"));
  CHECK(summary["units"]["toy_tasks_per_node"] == "tasks");
  CHECK(summary["mappers"]["default"]["toy_tasks_per_node"]["mean"] == 0.5);
  CHECK(summary["rank_correlation"].contains("toy_tasks_per_node"));
  const std::string table = run_table(rows);
  CHECK(table.substr(0, table.find('\n')).find("toy per node") != std::string::npos);
  CHECK(table.find("toy per node n/a") != std::string::npos);  // the rank-correlation line (equal for every placement)

  // Plots' units, the report, compare (CSV and table), map --json and the docs' glossary.
  CHECK(column_unit("toy_tasks_per_node_mean") == "tasks");
  const std::string page = html_report(dir, [](const std::string&, const std::vector<std::string>&, const std::string&) { return std::string("<svg></svg>"); });
  CHECK(page.find("<th>toy tasks per node</th>") != std::string::npos);
  const CompareSummary compare = summarise_compare({"default", "random", "switch"}, 2, rows);
  std::ostringstream csv, text;
  write_compare_csv(compare, csv);
  write_compare_table(compare, text);
  CHECK(csv.str().find(",toy_tasks_per_node_mean,toy_tasks_per_node_sd") != std::string::npos);
  CHECK(text.str().find("toy per node") != std::string::npos);
  RunPipeline pipeline(s);
  const MappingRun run = pipeline.run(pipeline.replicate(0), "default");
  CHECK(map_json("default", run, 8, 8)["toy_tasks_per_node"] == 0.5);
  CHECK(result_columns_markdown().find("| `toy_tasks_per_node` | `tasks` | always |  | toy tasks per node: tasks over allocated nodes (a test's) |") !=
        std::string::npos);
  CHECK(result_columns_text().find("toy_tasks_per_node\n") != std::string::npos);
}

TEST_CASE("result columns: one that does not apply is empty in results.csv and null in summary.json, never 0") {
  const Scenario s = load_scenario(temp_file("blank-column.yaml", R"(name: blank
network: fattree:k=4,levels=2
workload: {process: 'mesh:2x4', pattern: 'exchange:size=4KiB'}
mapping: [default]
model: packet
)"));
  const std::vector<RunRow> rows = run_scenario(s, quiet());
  REQUIRE(rows.size() == 1);
  auto value = [&](const std::string& name) {
    for (const auto& [key, v] : rows.front().values)
      if (key == name) return v;
    FAIL("no column " << name);
    return 0.0;
  };
  // No optical circuits, no distant partners: those columns do not apply.
  for (const char* name : {"sim_circuits", "sim_relative_makespan", "sim_eps_only_makespan", "sim_distant_latency_mean", "sim_neighbour_latency_p99"}) {
    CAPTURE(name);
    CHECK(std::isnan(value(name)));
  }
  CHECK(value("sim_makespan") > 0);
  const std::string dir = temp_path("blank-column-run");
  std::filesystem::remove_all(dir);
  write_run(dir, s, rows, {});
  const std::string csv = read_text(dir + "/results.csv");
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::getline(lines, row);
  std::vector<std::string> names, cells;
  for (std::istringstream h(header); std::getline(h, names.emplace_back(), ',');) {}
  for (std::istringstream r(row); std::getline(r, cells.emplace_back(), ',');) {}
  names.pop_back();
  cells.pop_back();
  if (!row.empty() && row.back() == ',') cells.emplace_back();  // a last empty cell
  REQUIRE(names.size() == cells.size());
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == "sim_circuits" || names[k] == "sim_relative_makespan") CHECK(cells[k].empty());
    else if (names[k] == "sim_makespan") CHECK(!cells[k].empty());
  const auto summary = nlohmann::json::parse(read_text(dir + "/summary.json"));
  const auto& circuits = summary["mappers"]["default"]["sim_circuits"];
  CHECK(circuits["n"] == 0);
  CHECK(circuits["mean"].is_null());
  CHECK(summary["units"]["sim_circuits"] == "count");
  // With optical circuits they apply, 0 pathways included (a value, not a gap).
  const Scenario hybrid = load_scenario(temp_file("blank-column-ocs.yaml", R"(name: hybrid
network: tree2:up_bw=64Gbps
workload: {process: 'mesh:4x4', pattern: 'exchange:size=4KiB'}
mapping: [default]
model: packet
ocs: {pathways: 0}
)"));
  const std::vector<RunRow> hybrid_rows = run_scenario(hybrid, quiet());
  for (const auto& [key, v] : hybrid_rows.front().values)
    if (key == "sim_circuits" || key == "sim_relative_makespan") CHECK(!std::isnan(v));
}

TEST_CASE("result columns: every column written by a run is declared, with a unit where it has one") {
  for (const ResultColumn& c : result_columns()) {
    CAPTURE(c.name);
    CHECK(!c.label.empty());
    CHECK(!c.short_label.empty());
    CHECK(!c.description.empty());
  }
  const Scenario s = load_scenario(temp_file("declared-columns.yaml", R"(name: declared
network: fattree:k=4,levels=2
workload: {process: 'pattern:mesh:2x4,distant=0.5,seed=1', pattern: 'exchange:size=4KiB'}
mapping: [default]
model: flit
)"));
  const std::vector<RunRow> rows = run_scenario(s, quiet());
  for (const auto& [key, v] : rows.front().values) {
    CAPTURE(key);
    CHECK(find_result_column(key) != nullptr);
    if (key.find("distant") != std::string::npos || key.find("congestion_") != std::string::npos) CHECK(!std::isnan(v));
  }
}
