// Several jobs in one scenario (jobs:): concurrent jobs on one network, each its own world, their
// allocations from the nodes left free, per-job makespans, slowdowns and the interference matrix.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "support/error.h"
#include "scenario/row_value.h"
#include "test_files.h"

using namespace mapsim;

namespace {

Scenario jobs_scenario(const std::string& name, const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_scenario(temp_file(name, text), sets);
}

std::vector<RunRow> run(const Scenario& s) {
  RunOptions options;
  options.links = false;
  return run_scenario(s, options);
}

// Two end switches under one top switch, two nodes each, 10 Gbps everywhere: nodes 0, 1 on switch 0,
// nodes 2, 3 on switch 1.
const char* kTwoSwitches = "network: tree2:switches=2,nodes_per_switch=2,up_bw=10Gbps,down_bw=10Gbps\n";

}  // namespace

TEST_CASE("jobs: two identical jobs on the two halves of a symmetric network run equally long") {
  for (const char* model : {"flow", "store-and-forward", "packet"}) {
    CAPTURE(model);
    const Scenario s = jobs_scenario("jobs-halves.yaml", std::string(R"(network: fattree:nodes=32,radix=8
model: )") + model + R"(
jobs:
  - {name: a, workload: {process: mesh:4x4, pattern: "exchange:size=200000,iterations=3"}, mapping: default}
  - {name: b, workload: {process: mesh:4x4, pattern: "exchange:size=200000,iterations=3"}, mapping: default}
)");
    const std::vector<RunRow> rows = run(s);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].job == "a");
    CHECK(rows[1].job == "b");
    std::set<int> nodes;
    for (const RunRow& row : rows) nodes.insert(row.placement.begin(), row.placement.end());
    CHECK(nodes.size() == 32);  // contiguous: disjoint halves
    CHECK(row_value(rows[0], "sim_makespan") == row_value(rows[1], "sim_makespan"));
    CHECK(row_value(rows[0], "sim_makespan") > 0);
    CHECK(row_value(rows[0], "sim_slowdown_with_a") == 1);
  }
}

TEST_CASE("jobs: a job alone in a jobs list gives the single-job run's numbers") {
  const std::string base = R"(network: fattree:nodes=32,radix=8
model: store-and-forward
)";
  const std::vector<RunRow> single =
      run(jobs_scenario("jobs-single.yaml", base + "workload: {process: mesh:4x4, pattern: \"exchange:size=100000\"}\n"
                                                   "mapping: greedy\nallocation: contiguous\n"));
  const std::vector<RunRow> jobs = run(jobs_scenario(
      "jobs-one.yaml", base + "jobs:\n  - {workload: {process: mesh:4x4, pattern: \"exchange:size=100000\"}, mapping: greedy}\n"));
  REQUIRE(single.size() == 1);
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].job == "job0");
  CHECK(jobs[0].placement == single[0].placement);
  CHECK(row_value(jobs[0], "sim_makespan") == row_value(single[0], "sim_makespan"));
  CHECK(row_value(jobs[0], "sim_alone_makespan") == row_value(single[0], "sim_makespan"));
  CHECK(row_value(jobs[0], "sim_slowdown") == 1);
  CHECK(row_value(jobs[0], "sim_shared_link_bytes") == 0);
  for (const auto& [key, v] : single[0].values)  // every mapping metric
    if (key.rfind("sim_", 0) != 0) CHECK(row_value(jobs[0], key) == v);
}

TEST_CASE("jobs: two jobs sharing one up-link: slowdown matches the closed form") {
  // Job a on nodes 0 and 2, job b on 1 and 3: both exchanges cross switch 0's and switch 1's up-links.
  const std::string lists = "jobs:\n  - {name: a, workload: {process: ring:2, pattern: \"exchange:size=1000000\"}, allocation: \"list:" +
                            temp_file("jobs-a.txt", "0\n2\n") + "\"}\n"
                            "  - {name: b, workload: {process: ring:2, pattern: \"exchange:size=1000000\"}, allocation: \"list:" +
                            temp_file("jobs-b.txt", "1\n3\n") + "\"}\n";
  const double wire = 1000000 + 16;  // bytes on the wire: the message and SMPI's envelope
  const double bandwidth = 10e9 / 8;
  SUBCASE("flow: the two flows share each up-link fairly, so each takes wire / (B/2)") {
    const std::vector<RunRow> rows = run(jobs_scenario("jobs-share-flow.yaml", std::string(kTwoSwitches) + "model: flow\n" + lists));
    REQUIRE(rows.size() == 2);
    for (const RunRow& row : rows) {
      CHECK(row_value(row, "sim_makespan") - row_value(row, "sim_alone_makespan") == doctest::Approx(wire / bandwidth).epsilon(1e-9));
      CHECK(row_value(row, "sim_slowdown") > 1);
      // One message each way, each over an up-link and a down-link that the other job's messages use too.
      CHECK(row_value(row, "sim_shared_link_bytes") == 4 * wire);
    }
    CHECK(row_value(rows[0], "sim_slowdown_with_b") == row_value(rows[0], "sim_slowdown"));  // two jobs: the pair is the run
  }
  SUBCASE("store-and-forward: one message waits for the other's whole transfer on the shared port") {
    const std::vector<RunRow> rows =
        run(jobs_scenario("jobs-share-saf.yaml", std::string(kTwoSwitches) + "model: store-and-forward\n" + lists));
    REQUIRE(rows.size() == 2);
    std::vector<double> delay;
    for (const RunRow& row : rows) delay.push_back(row_value(row, "sim_makespan") - row_value(row, "sim_alone_makespan"));
    std::sort(delay.begin(), delay.end());
    CHECK(delay[0] == doctest::Approx(0).epsilon(1e-9));
    CHECK(delay[1] == doctest::Approx(wire / bandwidth).epsilon(1e-9));
  }
}

TEST_CASE("jobs: start times and 'after' order the jobs") {
  const std::string base = std::string(kTwoSwitches) + "model: flow\n";
  const std::string a = R"({name: a, workload: {process: ring:2, pattern: "exchange:size=1000000"}, allocation: "list:)" +
                        temp_file("jobs-after-a.txt", "0\n2\n") + "\"";
  const std::string b = R"({name: b, workload: {process: ring:2, pattern: "exchange:size=1000000"}, allocation: "list:)" +
                        temp_file("jobs-after-b.txt", "1\n3\n") + "\"";
  // b after a: they never overlap, so neither is slowed down.
  std::vector<RunRow> rows = run(jobs_scenario("jobs-after.yaml", base + "jobs:\n  - " + a + "}\n  - " + b + ", after: a}\n"));
  REQUIRE(rows.size() == 2);
  CHECK(row_value(rows[0], "sim_slowdown") == 1);
  CHECK(row_value(rows[1], "sim_slowdown") == 1);
  // b starting 1 s later: no overlap either (its times then carry the rounding of times near 1 s).
  rows = run(jobs_scenario("jobs-start.yaml", base + "jobs:\n  - " + a + "}\n  - " + b + ", start: 1s}\n"));
  CHECK(row_value(rows[1], "sim_slowdown") == doctest::Approx(1).epsilon(1e-9));
  CHECK(row_value(rows[1], "sim_makespan") == doctest::Approx(row_value(rows[1], "sim_alone_makespan")).epsilon(1e-9));
}

TEST_CASE("jobs: the interference matrix of three jobs") {
  const Scenario s = jobs_scenario("jobs-three.yaml", R"(network: fattree:nodes=32,radix=8
model: store-and-forward
jobs:
  - {name: x, workload: {process: ring:8, pattern: "alltoall:size=100000"}, allocation: spread}
  - {name: y, workload: {process: ring:8, pattern: "alltoall:size=100000"}, allocation: spread}
  - {name: z, workload: {process: ring:4, pattern: "exchange:size=1000"}, allocation: contiguous}
)");
  const std::vector<RunRow> rows = run(s);
  REQUIRE(rows.size() == 3);
  Scenario none = s;
  none.interference_pairs = false;  // interference: none -- the same jobs, no pair runs, no matrix columns
  const std::vector<RunRow> unpaired = run(none);
  for (size_t j = 0; j < 3; ++j) {
    CHECK(row_value(unpaired[j], "sim_makespan") == row_value(rows[j], "sim_makespan"));
    for (const auto& [key, v] : unpaired[j].values) CHECK(key.find("with") == std::string::npos);
  }
  for (const RunRow& row : rows) {
    CHECK(row_value(row, "sim_slowdown_with_" + row.job) == 1);
    for (const char* other : {"x", "y", "z"}) CHECK(row_value(row, std::string("sim_slowdown_with_") + other) >= 1);
    CHECK(row_value(row, "sim_slowdown") >= 1);
  }
}

TEST_CASE("jobs: bad input is refused at its key before anything runs") {
  const std::string base = std::string(kTwoSwitches) + "model: flow\n";
  auto refused = [&](const std::string& name, const std::string& text, const std::string& words) {
    CAPTURE(name);
    try {
      run(jobs_scenario(name, base + text));
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(words) != std::string::npos);
      CHECK(std::string(e.what()).find(name) != std::string::npos);  // FILE:LINE
    }
  };
  const std::string job = "{workload: {process: ring:2, pattern: exchange}";
  refused("jobs-bad-after.yaml", "jobs:\n  - " + job + ", after: nobody}\n", "expected another job's name");
  refused("jobs-cycle.yaml", "jobs:\n  - " + job + ", name: p, after: q}\n  - " + job + ", name: q, after: p}\n", "cycle");
  refused("jobs-twice.yaml", "jobs:\n  - " + job + ", name: p}\n  - " + job + ", name: p}\n", "named twice");
  refused("jobs-both.yaml", "workload: {process: ring:2}\njobs:\n  - " + job + "}\n", "gives each job its own");
  refused("jobs-list.yaml", "jobs:\n  - " + job + ", mapping: [default, random]}\n", "one mapper per job");
  refused("jobs-too-many.yaml", "jobs:\n  - {workload: {process: ring:3, pattern: exchange}}\n  - " + job + "}\n", "free");
  const std::string list = temp_file("jobs-overlap.txt", "0\n2\n");
  refused("jobs-overlap.yaml", "jobs:\n  - " + job + ", allocation: \"list:" + list + "\"}\n  - " + job + ", allocation: \"list:" + list + "\"}\n",
          "taken");
  refused("jobs-start.yaml", "jobs:\n  - " + job + ", start: -1s}\n", "jobs-start.yaml");
  refused("jobs-name.yaml", "jobs:\n  - " + job + ", name: \"a,b\"}\n", "letters, digits");
}

TEST_CASE("jobs: background traffic between the free nodes slows the jobs, the same for the same seed") {
  // Four switches of 8 nodes under one top switch by 10 Gbps links: the job's messages between switches
  // share the up-links with the background's (on a fat tree with d-mod-k routes they need not).
  const std::string base = R"(network: tree2:switches=4,nodes_per_switch=8,up_bw=10Gbps
model: store-and-forward
jobs:
  - {name: a, workload: {process: ring:8, pattern: "alltoall:size=20000"}, allocation: spread}
)";
  const std::vector<RunRow> quiet = run(jobs_scenario("jobs-quiet.yaml", base));
  const std::vector<RunRow> busy = run(jobs_scenario("jobs-busy.yaml", base + "background: {name: uniform, load: 0.6, message: 4KiB}\n"));
  REQUIRE(busy.size() == 1);
  CHECK(row_value(quiet[0], "sim_slowdown") == 1);
  CHECK(row_value(busy[0], "sim_alone_makespan") == row_value(quiet[0], "sim_makespan"));  // alone: without the background
  CHECK(row_value(busy[0], "sim_slowdown") > 1);
  CHECK(row_value(run(jobs_scenario("jobs-busy2.yaml", base + "background: {name: uniform, load: 0.6, message: 4KiB}\n"))[0],
              "sim_makespan") == row_value(busy[0], "sim_makespan"));
  // Another seed, another background.
  CHECK(row_value(run(jobs_scenario("jobs-busy3.yaml", base + "seed: 9\nbackground: {name: uniform, load: 0.6, message: 4KiB}\n"))[0],
              "sim_makespan") != row_value(busy[0], "sim_makespan"));
  try {
    run(jobs_scenario("jobs-bg-alone.yaml", "network: fattree:nodes=32,radix=8\nworkload: {process: ring:4}\nbackground: uniform\n"));
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("jobs-bg-alone.yaml:3:13: background: runs beside jobs") != std::string::npos);
  }
}

TEST_CASE("jobs: the jobs share one machine, built and routed once per replicate") {
  const Scenario s = jobs_scenario("jobs-share.yaml", std::string(kTwoSwitches) + R"(failures: {links: 0}
jobs:
  - {workload: {process: ring:2, pattern: exchange}}
  - {workload: {process: ring:2, pattern: exchange}}
)");
  RunPipeline first(s.jobs[0].scenario), second(s.jobs[1].scenario);
  const RoutedNetwork* machine = first.replicate(0).routed;
  second.share_network(first);
  CHECK(second.replicate(0).routed == machine);
  RunPipeline alone(s.jobs[1].scenario);  // without sharing: a network of its own
  CHECK(alone.replicate(0).routed != machine);
}
