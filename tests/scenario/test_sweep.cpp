// Sweeps: expansion (product, zip, ranges), point identity, parallel runs equal to serial ones and
// to merged cluster points, resume, isolation of a failing point, statistics.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/run_checkpoint.h"
#include "support/statistics.h"
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
  REQUIRE(s.size == 2 * 3 * 2);
  CHECK(s.varied_keys == std::vector<std::string>{"mapping", "seed", "network", "workload.process"});
  CHECK(s.point(0).values == std::vector<std::pair<std::string, std::string>>{
                                  {"mapping", "default"}, {"seed", "1"}, {"network", "mesh:4x4"}, {"workload.process", "mesh:4x4"}});
  CHECK(s.point(1).values[2].second == "mesh:8x2");
  CHECK(s.point(1).values[3].second == "mesh:8x2");  // zipped with network
  CHECK(s.point(2).values[1].second == "2");
  CHECK(s.point(11).values[0].second == "switch");
  const Scenario last = s.scenario(s.point(11));
  CHECK(last.network == "mesh:8x2");
  CHECK(last.mappers == std::vector<std::string>{"switch"});
  CHECK(last.seed == 3);
  for (size_t i = 0; i < s.size; ++i)
    for (size_t j = i + 1; j < s.size; ++j) CHECK(s.point(i).hash != s.point(j).hash);
  // The hash is the point's document, not its position or the sweep it came from.
  const Sweep other = sweep_text("sw-b.yaml", "scenario: mapsim-test-sw-base.yaml\nvary: {seed: [3], mapping: [switch]}\n"
                                 "zip: {network: [mesh:8x2], workload.process: [mesh:8x2]}\n", "sw-b");
  REQUIRE(other.size == 1);
  CHECK(other.point(0).hash == s.point(11).hash);
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
  REQUIRE(s.size == 6);
  CHECK(s.point(0).values[0].second == "64");
  CHECK(s.point(2).values[0].second == "256");
  CHECK(s.point(4).values[0].second == "1024");
  CHECK(s.scenario(s.point(5)).pattern == "exchange:size=1024");
}

TEST_CASE("bad sweeps are refused before anything runs, naming the point") {
  temp_file("sw-base.yaml", kBase);
  auto bad = [](const std::string& text) {
    return error_of([&] { for_each_point(load_sweep(temp_file("sw-bad.yaml", text)), [](const SweepPoint&, const Scenario&) {}); });
  };
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
  for (size_t p = 0; p < cluster.size; ++p) CHECK(run_point(cluster, cluster.point(p)));  // as array tasks would
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
  std::filesystem::remove(parallel.output + "/points/" + parallel.point(3).hash + ".json");
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
  // Equal values deviate by nothing, not by the rounding of their mean (1.573 three times: sd 6.8e-16 before).
  const Statistics equal = summarise({1.573, 1.573, 1.573});
  CHECK(equal.sd == 0);
  CHECK(equal.ci95 == 0);
  CHECK(equal.mean == 1.573);
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
  REQUIRE(s.size == 9);
  CHECK(s.point(0).values[0].second == "125000000");  // 1 Gbps in bytes/s
  CHECK(s.point(6).values[0].second == "500000000");
  CHECK(s.point(0).values[1].second == "1e-06");
  CHECK(s.point(1).values[1].second == "1.5e-06");
  CHECK(s.point(2).values[1].second == "2e-06");
  auto bad = [](const std::string& range) {
    return error_of([&] {
      load_sweep(temp_file("sw-ubad.yaml", "scenario: {network: mesh:2x2, workload: {process: ring:4}}\nvary:\n  model.t_s: " + range + "\n"));
    });
  };
  CHECK(bad("{from: 1us, to: 4KiB, step: 1us}").find("model.t_s.to: expected a time like the range's from") != std::string::npos);
  CHECK(bad("{from: 1us, to: 3us, step: 2}").find("model.t_s.step: expected a time") != std::string::npos);
  CHECK(bad("{from: fast, to: 3us, step: 1us}").find("expected a number or a quantity with a unit") != std::string::npos);
}

TEST_CASE("points are built one at a time: point K of 100,000 without the others") {
  const Sweep s = sweep_text("sw-big.yaml", R"(scenario: mapsim-test-sw-base.yaml
vary:
  seed: {from: 1, to: 10, step: 1}
  slots: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]
  model.t_s: {from: 1us, to: 10us, step: 1us}
  model.t_p: {from: 10ns, to: 100ns, step: 10ns}
  model.t_r: {from: 100ns, to: 1000ns, step: 100ns}
)",
                             "sw-big");
  REQUIRE(s.size == 100000);
  const SweepPoint point = s.point(54321);  // slots=0 elsewhere does not stop this point
  CHECK(point.values[0].second == "6");
  CHECK(point.values[1].second == "5");
  CHECK(point.values[4].second == "2e-07");
  CHECK(s.checked_scenario(point).seed == 6);
  CHECK(error_of([&] { s.checked_scenario(s.point(9000)); }).find(": point 9000 (seed=1, slots=0, ") != std::string::npos);
  // for_each_point builds the same points, in order.
  const Sweep small = sweep_text("sw-p.yaml", "scenario: mapsim-test-sw-base.yaml\nvary: {network: [mesh:4x4, mesh:8x2], seed: [1, 2]}\n", "sw-p");
  std::vector<std::string> hashes;
  for_each_point(small, [&](const SweepPoint& p, const Scenario&) { hashes.push_back(p.hash); });
  CHECK(hashes == std::vector<std::string>{small.point(0).hash, small.point(1).hash, small.point(2).hash, small.point(3).hash});
}

TEST_CASE("resume and merge run again, or leave out, point files that are not their point's") {
  const Sweep s = sweep_text("sw-d.yaml", "scenario: mapsim-test-sw-base.yaml\nvary: {seed: [1, 2, 3]}\n", "sw-damaged");
  std::filesystem::remove_all(s.output);
  run_sweep(s, SweepOptions{});
  const std::string results = read_text(s.output + "/results.csv");
  const std::string file = s.output + "/points/" + s.point(1).hash + ".json";
  const std::string text = read_text(file);
  SweepOptions resume;
  resume.resume = true;
  auto damage = [&](const std::string& from, const std::string& to) {
    std::string edited = text;
    REQUIRE(edited.find(from) != std::string::npos);
    edited.replace(edited.find(from), from.size(), to);
    std::ofstream(file) << edited;
  };
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"random\"", "\"evil\""},                  // a foreign mapper
           {"\"rows\":[", "\"rows\":[[0,2,\"default\",1,2,3,4,5,6,7,8,9,10,11,12,13],"},  // a row too many
           {"\"default\"", "\"random\""},               // a mapper twice in a replicate, another missing
           {"[1,3,\"", "[1,7,\""},                      // a seed that is not replicate 1's
           {"\"failed\"", "\"failures\""},              // a field missing
           {text.substr(text.size() / 2), ""}}) {       // truncated
    CAPTURE(from);
    damage(from, to);
    const SweepStatus merged = merge_sweep(s);
    CHECK(merged.done == 2);
    CHECK(read_text(s.output + "/results.csv").find(",evil,") == std::string::npos);
    const SweepStatus again = run_sweep(s, resume);
    CHECK(again.skipped == 2);
    CHECK(again.done == 3);
    CHECK(read_text(s.output + "/results.csv") == results);
  }
  // Another point's file in its place.
  std::ofstream(file) << read_text(s.output + "/points/" + s.point(0).hash + ".json");
  CHECK(merge_sweep(s).done == 2);
  CHECK(run_sweep(s, resume).skipped == 2);
  CHECK(read_text(s.output + "/results.csv") == results);
}

TEST_CASE("rows read back are checked against the scenario") {
  Scenario s;
  s.mappers = {"default", "adjacency", "random"};
  s.replicates = 3;
  s.seed = 5;
  auto row = [](long r, const std::string& mapper) { return RowKey{r, static_cast<uint64_t>(5 + r), mapper, false}; };
  auto failure = [](long r, const std::string& mapper) { return RowKey{r, 0, mapper, true}; };
  std::vector<RowKey> run;
  for (long r = 0; r < 3; ++r) {
    run.push_back(row(r, "default"));
    run.push_back(row(r, "random"));
  }
  run.push_back(failure(0, "adjacency"));  // dropped: it does not fit
  CHECK(rows_mismatch(s, run) == "");
  auto with = [&](std::vector<RowKey> rows, const RowKey& extra) {
    rows.push_back(extra);
    return rows_mismatch(s, rows);
  };
  CHECK(with(run, row(1, "evil")) == "mapper 'evil' is not one of the scenario's");
  CHECK(with(run, row(2, "random")) == "mapper 'random' is in replicate 2 twice");
  CHECK(with(run, row(3, "adjacency")) == "replicate 3 is not one of the scenario's 0..2");
  CHECK(with(run, {1, 9, "adjacency", false}) == "replicate 1 has seed 9, not 6");
  std::vector<RowKey> gap = run;
  gap.insert(gap.begin() + 5, row(2, "adjacency"));
  CHECK(rows_mismatch(s, gap) == "mapper 'adjacency' has no row in replicate 1");
  std::vector<RowKey> short_run(run.begin() + 1, run.end());
  CHECK(rows_mismatch(s, short_run) == "mapper 'default' has no row in replicate 0");
  std::swap(run[0], run[1]);
  CHECK(rows_mismatch(s, run) == "replicate 0: its rows are out of order");
  // One replicate (a checkpoint): a mapper may be missing only after it failed before.
  const std::vector<RowKey> one{row(1, "default"), row(1, "random")};
  CHECK(rows_mismatch(s, one, 1) == "mapper 'adjacency' has no row in replicate 1");
  CHECK(rows_mismatch(s, one, 1, {"adjacency"}) == "");
  // Optical circuits' CP policy runs default as metis.
  s.ocs = "pathways=2,policy=cp";
  CHECK(rows_mismatch(s, {row(0, "metis"), failure(0, "adjacency"), row(0, "random")}, 0) == "");
  CHECK(columns_mismatch({"hop_bytes", "sim_latency_p99"}) == "");
  CHECK(columns_mismatch({"hop_bytes", "a,b"}) == "column 1 is not a metric's name");
  CHECK(columns_mismatch({"hop_bytes", "hop_bytes"}) == "column 'hop_bytes' is given twice");
}

TEST_CASE("an output folder that is a file, a device or an empty name is refused, naming it") {
  const std::string file = temp_file("sw-a-file", "x");
  CHECK(error_of([&] { check_output_folder(file, "the results"); }) ==
        file + ": is a file, not a folder; expected a folder for the results");
  CHECK(error_of([&] { check_output_folder(file + "/sub/", "the results"); }) ==
        file + "/sub/: " + file + " is a file, not a folder; expected a folder for the results");
  CHECK(error_of([&] { check_output_folder("/dev/null", "the results"); }) ==
        "/dev/null: is a device or pipe, not a folder; expected a folder for the results");
  CHECK(error_of([&] { check_output_folder("", "the results"); }) == "expected a folder for the results, got an empty name");
  CHECK(error_of([&] { check_output_folder(temp_path("sw-new/a/b"), "the results"); }) == "");
  Sweep s = sweep_text("sw-o.yaml", "scenario: mapsim-test-sw-base.yaml\n", "sw-o");
  s.output = file;
  CHECK(error_of([&] { run_sweep(s, SweepOptions{}); }).find("is a file, not a folder") != std::string::npos);
  CHECK(error_of([&] { merge_sweep(s); }).find("is a file, not a folder") != std::string::npos);
  CHECK(error_of([&] { run_point(s, s.point(0)); }).find("is a file, not a folder") != std::string::npos);
}
