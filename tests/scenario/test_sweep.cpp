// Sweeps: expansion (product, zip, ranges), point identity, parallel runs equal to serial ones and
// to merged cluster points, resume, isolation of a failing point, statistics.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/statistics.h"
#include "scenario/sweep_runner.h"
#include "test_files.h"
#include "support/error.h"

using namespace mapsim;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* kBase = R"(network: mesh:4x4
workload: {process: mesh:4x4}
mapping: [default, random]
model: none
replicates: 2
)";

Sweep sweep_text(const std::string& name, const std::string& text, const std::string& output) {
  temp_file("sw-base.yaml", kBase);
  Sweep sweep = load_sweep(temp_file(name, text));
  sweep.output = temp_path(output);
  return sweep;
}

}  // namespace

TEST_CASE("vary is a cartesian product, the last key fastest; zip pairs values; ranges expand") {
  const Sweep s = sweep_text("sw-a.yaml", R"(scenario: mapsim-test-sw-base.yaml
vary:
  mapping: [default, switch]
  seed: {from: 1, to: 3, step: 1}
zip:
  network: [mesh:4x4, mesh:8x2]
  workload.process: [mesh:4x4, mesh:8x2]
)",
                             "sw-a");
  REQUIRE(s.points.size() == 2 * 3 * 2);
  CHECK(s.varied_keys == std::vector<std::string>{"mapping", "seed", "network", "workload.process"});
  CHECK(s.points[0].values == std::vector<std::pair<std::string, std::string>>{
                                  {"mapping", "default"}, {"seed", "1"}, {"network", "mesh:4x4"}, {"workload.process", "mesh:4x4"}});
  CHECK(s.points[1].values[2].second == "mesh:8x2");
  CHECK(s.points[1].values[3].second == "mesh:8x2");  // zipped with network
  CHECK(s.points[2].values[1].second == "2");
  CHECK(s.points[11].values[0].second == "switch");
  const Scenario last = s.scenario(s.points[11]);
  CHECK(last.network == "mesh:8x2");
  CHECK(last.mappers == std::vector<std::string>{"switch"});
  CHECK(last.seed == 3);
  for (size_t i = 0; i < s.points.size(); ++i)
    for (size_t j = i + 1; j < s.points.size(); ++j) CHECK(s.points[i].hash != s.points[j].hash);
  // The hash is the point's document, not its position or the sweep it came from.
  const Sweep other = sweep_text("sw-b.yaml", "scenario: mapsim-test-sw-base.yaml\nvary: {seed: [3], mapping: [switch]}\n"
                                 "zip: {network: [mesh:8x2], workload.process: [mesh:8x2]}\n", "sw-b");
  REQUIRE(other.points.size() == 1);
  CHECK(other.points[0].hash == s.points[11].hash);
}

TEST_CASE("geometric ranges and inline scenarios") {
  const Sweep s = sweep_text("sw-g.yaml", R"(scenario:
  network: mesh:2x2
  workload: {process: ring:4, pattern: exchange}
  model: none
vary:
  workload.pattern.size: {from: 64, to: 1024, factor: 4}
  model.t_s: [1us, 2us]
)",
                             "sw-g");
  REQUIRE(s.points.size() == 6);
  CHECK(s.points[0].values[0].second == "64");
  CHECK(s.points[2].values[0].second == "256");
  CHECK(s.points[4].values[0].second == "1024");
  CHECK(s.scenario(s.points[5]).pattern == "exchange:size=1024");
}

TEST_CASE("bad sweeps are refused before anything runs, naming the point") {
  temp_file("sw-base.yaml", kBase);
  auto bad = [](const std::string& text) { return error_of([&] { load_sweep(temp_file("sw-bad.yaml", text)); }); };
  const std::string f = temp_path("sw-bad.yaml");
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nzip: {seed: [1, 2], replicates: [1]}\n") ==
        f + ":2:33: zip.replicates: has 1 values but zip.seed has 2");
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nvary: {seed: {from: 1, to: 3}}\n") ==
        f + ":2:14: vary.seed: a range needs from, to and one of step or factor");
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nvary: {seed: [1]}\nzip: {seed: [2]}\n") == f + ": key 'seed' is varied twice");
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nvari: {seed: [1]}\n").find("did you mean 'vary'") != std::string::npos);
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nvary: {slots: [1, 0]}\n") ==
        f + ": point 1 (slots=0): " + temp_path("sw-base.yaml") + ": slots must be in 1..1048576");
  CHECK(bad("scenario: mapsim-test-sw-base.yaml\nvary: {replicate: [1]}\n").find("did you mean 'replicates'") != std::string::npos);
}

TEST_CASE("parallel, serial and merged cluster runs write identical tables; resume skips finished points") {
  const std::string text = "scenario: mapsim-test-sw-base.yaml\nvary: {network: [mesh:4x4, mesh:8x2, mesh:16x1], seed: [1, 2]}\n";
  const Sweep parallel = sweep_text("sw-p.yaml", text, "sw-par");
  const Sweep serial = sweep_text("sw-p.yaml", text, "sw-ser");
  const Sweep cluster = sweep_text("sw-p.yaml", text, "sw-clu");
  for (const Sweep* s : {&parallel, &serial, &cluster}) std::filesystem::remove_all(s->output);
  SweepOptions two;
  two.jobs = 2;
  const SweepStatus status = run_sweep(parallel, two);
  CHECK(status.done == 6);
  CHECK(status.failed == 0);
  run_sweep(serial, SweepOptions{});
  for (const SweepPoint& point : cluster.points) CHECK(run_point(cluster, point));  // as array tasks would
  CHECK(merge_sweep(cluster).done == 6);
  const std::string results = read_text(parallel.output + "/results.csv");
  CHECK(results == read_text(serial.output + "/results.csv"));
  CHECK(results == read_text(cluster.output + "/results.csv"));
  CHECK(read_text(parallel.output + "/aggregate.csv") == read_text(cluster.output + "/aggregate.csv"));
  // The varied seed is replicate 0's seed: results.csv shows it once, in its per-replicate column.
  CHECK(results.rfind("point,network,replicate,seed,mapper,weighted_cardinality,", 0) == 0);
  CHECK(results.find("\n0,mesh:4x4,0,1,default,24,") != std::string::npos);  // identity embedding: 24 one-hop edges
  CHECK(read_text(parallel.output + "/aggregate.csv").rfind("point,network,seed,mapper,n,", 0) == 0);
  // 6 points x 2 replicates x 2 mappers
  CHECK(std::count(results.begin(), results.end(), '\n') == 1 + 24);
  SweepOptions resume;
  resume.resume = true;
  std::filesystem::remove(parallel.output + "/points/" + parallel.points[3].hash + ".json");
  const SweepStatus again = run_sweep(parallel, resume);
  CHECK(again.skipped == 5);
  CHECK(again.done == 6);
  CHECK(read_text(parallel.output + "/results.csv") == results);
}

TEST_CASE("a failing point is recorded with its error; the others finish") {
  const Sweep s = sweep_text("sw-f.yaml", "scenario: mapsim-test-sw-base.yaml\nvary: {workload.process: [mesh:4x4, mesh:2x2x4, ring:32]}\nset: {mapping: adjacency}\n", "sw-fail");
  std::filesystem::remove_all(s.output);
  SweepOptions two;
  two.jobs = 2;
  const SweepStatus status = run_sweep(s, two);
  CHECK(status.done == 1);
  CHECK(status.failed == 2);  // adjacency handles 2-D grids only; 32 tasks do not fit 16 nodes
  const std::string failed = read_text(s.output + "/failed.csv");
  CHECK(failed.find("1,mesh:2x2x4,") != std::string::npos);
  CHECK(failed.find("2,ring:32,") != std::string::npos);
  CHECK(failed.find("allocation") != std::string::npos);
  CHECK(read_text(s.output + "/results.csv").find("\n0,mesh:4x4,") != std::string::npos);
}

TEST_CASE("statistics: mean, sample deviation, Student-t confidence interval") {
  const Statistics s = summarise({1, 2, 3, 4});
  CHECK(s.n == 4);
  CHECK(s.mean == 2.5);
  CHECK(s.sd == doctest::Approx(std::sqrt(5.0 / 3.0)));
  CHECK(s.ci95 == doctest::Approx(3.1824 * std::sqrt(5.0 / 3.0) / 2));
  CHECK(summarise({7}).ci95 == 0);
  CHECK(student_t975(1) == doctest::Approx(12.706).epsilon(1e-4));
  CHECK(student_t975(60) == doctest::Approx(2.000).epsilon(2e-3));
  CHECK(student_t975(1000) == doctest::Approx(1.962).epsilon(2e-3));
}

TEST_CASE("ranges with units give values in SI base units; mixed kinds are refused") {
  const Sweep s = sweep_text("sw-u.yaml", R"(scenario:
  network: mesh:2x2
  workload: {process: ring:4, pattern: exchange}
  model: {name: flow}
vary:
  model.link_bandwidth: {from: 1Gbps, to: 4Gbps, factor: 2}
  model.t_s: {from: 1us, to: 2us, step: 500ns}
)",
                             "sw-u");
  REQUIRE(s.points.size() == 9);
  CHECK(s.points[0].values[0].second == "125000000");  // 1 Gbps in bytes/s
  CHECK(s.points[6].values[0].second == "500000000");
  CHECK(s.points[0].values[1].second == "1e-06");
  CHECK(s.points[1].values[1].second == "1.5e-06");
  CHECK(s.points[2].values[1].second == "2e-06");
  auto bad = [](const std::string& range) {
    return error_of([&] {
      load_sweep(temp_file("sw-ubad.yaml", "scenario: {network: mesh:2x2, workload: {process: ring:4}}\nvary:\n  model.t_s: " + range + "\n"));
    });
  };
  CHECK(bad("{from: 1us, to: 4KiB, step: 1us}").find("model.t_s.to: expected a time like the range's from") != std::string::npos);
  CHECK(bad("{from: 1us, to: 3us, step: 2}").find("model.t_s.step: expected a time") != std::string::npos);
  CHECK(bad("{from: fast, to: 3us, step: 1us}").find("expected a number or a quantity with a unit") != std::string::npos);
}
