// The scenario key `failures`: read once, typed; applied before routing, so that mappers and the
// simulation see the degraded network; a disconnected network is an error at the key; a sweep axis.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "mappers/mapper.h"
#include "reporting/run_report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "scenario/sweep_runner.h"
#include "support/error.h"
#include "test_files.h"

using namespace mapsim;

namespace {

Scenario failures_scenario(const std::string& name, const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_scenario(temp_file(name, text), sets);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A 32-node leaf-spine (8 leaves of 4 nodes, 4 spines, 32 links): every rank sends to every other.
const char* kLeafSpine = R"(network: fattree:nodes=32,radix=8
workload: {process: ring:32, pattern: alltoall:size=65536}
)";

// sim_makespan per mapper that ran, every registered mapper asked for.
std::map<std::string, double> makespans(const std::string& name, const std::string& failures) {
  std::string mapping = "mapping: [";
  for (const auto* entry : mapper_registry().entries())
    if (entry->positional.empty()) mapping += (mapping.back() == '[' ? "" : ", ") + entry->name;
  const Scenario s = failures_scenario(name, std::string(kLeafSpine) + "model: flow\n" + mapping + "]\n" + failures);
  std::vector<RunFailure> failed;
  RunOptions options;
  options.links = false;
  options.failures = &failed;
  std::map<std::string, double> out;
  for (const RunRow& row : run_scenario(s, options))
    for (const auto& [key, value] : row.values)
      if (key == "sim_makespan") out[row.mapper] = value;
  return out;
}

}  // namespace

TEST_CASE("failures: read once, typed, errors at the key") {
  const Scenario s = failures_scenario("fl-a.yaml", std::string(kLeafSpine) + R"(failures:
  links: 3
  level: spine
  seed: 9
  names: [sw-1-0--sw-2-1, [sw-1-2, sw-2-3]]
  switches: [sw-2-0]
)");
  CHECK(s.failures_given);
  CHECK(s.failures.links == 3);
  CHECK(s.failures.spine);
  CHECK(s.failures.seed == 9);
  CHECK(s.failure_seed_given);
  CHECK(s.failures_at(4).seed == 9);
  CHECK(s.failures.names == std::vector<std::pair<std::string, std::string>>{{"sw-1-0--sw-2-1", ""}, {"sw-1-2", "sw-2-3"}});
  CHECK(s.failures.switches == std::vector<std::string>{"sw-2-0"});
  const Scenario unseeded = failures_scenario("fl-b.yaml", std::string(kLeafSpine) + "failures: {links: 2}\nseed: 5\n");
  CHECK(unseeded.failures_at(0).seed == 5);
  CHECK(unseeded.failures_at(3).seed == 8);
  CHECK_FALSE(failures_scenario("fl-c.yaml", kLeafSpine).failures_given);

  const std::string dir = temp_path("");
  auto error = [&](const std::string& name, const std::string& failures) {
    return error_of([&] { failures_scenario(name, std::string(kLeafSpine) + failures); });
  };
  CHECK(error("fl-e1.yaml", "failures: {links: 2, level: leaf}\n") ==
        dir + "fl-e1.yaml:3:29: failures.level: expected spine (the links between the top switch level and the one below), got 'leaf'");
  CHECK(error("fl-e2.yaml", "failures: {seed: 2}\n") ==
        dir + "fl-e2.yaml:3:18: failures.seed: applies to the links failed at random; give failures.links too");
  CHECK(error("fl-e3.yaml", "failures: {links: -1}\n").find("fl-e3.yaml:3:19: expected failures.links to be an integer in 0..") !=
        std::string::npos);
  CHECK(error("fl-e4.yaml", "failures: {lnks: 2}\n").find("fl-e4.yaml:3:12: unknown key 'lnks' (did you mean 'links'?)") !=
        std::string::npos);
  CHECK(error("fl-e5.yaml", "failures: {names: [sw-1-0]}\n") ==
        dir + "fl-e5.yaml:3:20: failures.names.0: expected a link as SWITCH--SWITCH or [SWITCH, SWITCH], got 'sw-1-0'");
  CHECK(error("fl-e6.yaml", "failures: 2\n").find("fl-e6.yaml:3:11: expected failures") != std::string::npos);
  // --set and a key path into the map, as for any key.
  const Scenario set = failures_scenario("fl-set.yaml", kLeafSpine, {"failures.links=4", "failures.level=spine"});
  CHECK(set.failures.links == 4);
  CHECK(set.failures.spine);
}

TEST_CASE("two failed spine links: every mapper runs, and an all-to-all takes no less than on the healthy network") {
  const std::map<std::string, double> healthy = makespans("fl-healthy.yaml", "");
  const std::map<std::string, double> none = makespans("fl-none.yaml", "failures: {links: 0}\n");
  const std::map<std::string, double> degraded = makespans("fl-two.yaml", "failures: {links: 2, level: spine, seed: 3}\n");
  CHECK(healthy.size() >= 8);
  CHECK(degraded.size() == healthy.size());  // the mappers that fit the healthy network fit the degraded one
  for (const auto& [mapper, makespan] : healthy) {
    CAPTURE(mapper);
    REQUIRE(degraded.count(mapper));
    CHECK(none.at(mapper) == doctest::Approx(makespan).epsilon(1e-12));  // nothing failed: the same routes (updn)
    CHECK(degraded.at(mapper) >= makespan * (1 - 1e-12));
  }
  // The same random placement (the mapper's seed does not see the network) on two fewer spine links:
  // strictly slower (3.94 ms against 3.59 ms).
  CHECK(degraded.at("random") > healthy.at("random") * 1.01);
}

TEST_CASE("failed links are drawn per replicate unless failures.seed fixes them; the mappers see the degraded network") {
  auto links = [](const Scenario& s, int r) {
    RunPipeline pipeline(s);
    std::set<std::pair<std::string, std::string>> names;
    const Network& net = pipeline.replicate(r).routed->network();
    for (const Link& l : net.links()) names.insert({net.switch_at(l.a).name, net.switch_at(l.b).name});
    CHECK(pipeline.replicate(r).problem.network == pipeline.replicate(r).routed);
    return names;
  };
  const Scenario drawn = failures_scenario("fl-r.yaml", std::string(kLeafSpine) + "failures: {links: 4}\nreplicates: 2\n");
  CHECK(links(drawn, 0).size() == 28);
  CHECK(links(drawn, 0) != links(drawn, 1));
  const Scenario fixed = failures_scenario("fl-f.yaml", std::string(kLeafSpine) + "failures: {links: 4, seed: 1}\nreplicates: 2\n");
  CHECK(links(fixed, 0) == links(fixed, 1));
  RunPipeline pipeline(drawn);
  CHECK_FALSE(pipeline.replicates_identical(pipeline.replicate(0)));
}

TEST_CASE("a network cut in two is an error at the failures key; summary.json shows the key") {
  const Scenario cut = failures_scenario("fl-cut.yaml", std::string(kLeafSpine) + R"(failures:
  names: [sw-1-0--sw-2-0, [sw-1-0, sw-2-1], sw-1-0--sw-2-2, sw-1-0--sw-2-3]
)");
  CHECK(error_of([&] { run_scenario(cut); }) ==
        std::string(P_tmpdir) + "/mapsim-test-fl-cut.yaml:4:3: failures: the failures disconnect the network: "
                                "nodes 'node-0' and 'node-4' cannot reach each other");
  const Scenario irregular = failures_scenario(
      "fl-irr.yaml", "network: irregular:nodes=32,switches=12,ports=8\nworkload: {process: ring:32}\nmodel: none\n"
                     "failures: {links: 1, level: spine}\n");
  CHECK(error_of([&] { run_scenario(irregular); }).find("fl-irr.yaml:4:11: failures: level: spine needs a tree network") !=
        std::string::npos);
  const Scenario dmodk = failures_scenario(
      "fl-dmodk.yaml", "network: fattree:k=2,levels=3\nrouting: dmodk\nworkload: {process: ring:8}\nmodel: none\nfailures: {links: 1}\n");
  CHECK(error_of([&] { run_scenario(dmodk); }).find("fl-dmodk.yaml:2:10: routing: dmodk routing needs a fattree network") !=
        std::string::npos);

  Scenario s = failures_scenario("fl-sum.yaml", std::string(kLeafSpine) + "failures: {links: 2, seed: 4}\nmodel: none\n");
  s.output = temp_path("fl-sum-out");
  std::filesystem::remove_all(s.output);
  write_run(s.output, s, run_scenario(s));
  const std::string summary = read_all(s.output + "/summary.json");
  CHECK(summary.find("\"failures\": {") != std::string::npos);
  CHECK(summary.find("\"links\": 2") != std::string::npos);
}

TEST_CASE("a sweep over failures.links gives one point per value, the key as a column") {
  temp_file("fl-sweep-base.yaml", std::string(kLeafSpine) + "failures: {level: spine, seed: 2}\nmodel: none\nmapping: default\n");
  Sweep sweep = load_sweep(temp_file("fl-sweep.yaml", "scenario: mapsim-test-fl-sweep-base.yaml\nvary: {failures.links: [0, 2, 4]}\n"));
  sweep.output = temp_path("fl-sweep-out");
  std::filesystem::remove_all(sweep.output);
  REQUIRE(sweep.size == 3);
  CHECK(sweep.scenario(sweep.point(2)).failures.links == 4);
  const SweepStatus status = run_sweep(sweep, SweepOptions{});
  CHECK(status.done == 3);
  CHECK(status.failed == 0);
  const std::string results = read_all(sweep.output + "/results.csv");
  CHECK(results.rfind("point,failures.links,replicate,seed,mapper,", 0) == 0);
  CHECK(results.find("\n0,0,0,1,default,") != std::string::npos);
  CHECK(results.find("\n1,2,0,1,default,") != std::string::npos);
  CHECK(results.find("\n2,4,0,1,default,") != std::string::npos);
}

TEST_CASE("failures.at: links fail during the run; the mappers see the healthy network") {
  // Two spine links fail at half the healthy run time: slower than healthy, not slower than with the
  // links gone from the start; at a time after the run, nothing changes.
  const std::string base = std::string(kLeafSpine) + "routing: updn\nmapping: random\nmodel: store-and-forward\n";
  auto makespan = [&](const std::string& name, const std::string& failures, int links = 32) {
    const Scenario s = failures_scenario(name, base + failures);
    RunPipeline pipeline(s);
    CHECK(pipeline.replicate(0).routed->network().num_links() == links);  // the mappers' network
    RunOptions options;
    options.links = false;
    for (const auto& [key, v] : run_scenario(s, options).front().values)
      if (key == "sim_makespan") return v;
    FAIL("no makespan");
    return 0.0;
  };
  const double healthy = makespan("fl-at-none.yaml", "");
  const double from_start = makespan("fl-at-start.yaml", "failures: {links: 2, level: spine, seed: 3}\n", 30);
  CHECK(from_start > healthy);
  const double midway =
      makespan("fl-at-mid.yaml", "failures: {links: 2, level: spine, seed: 3, at: " + std::to_string(healthy / 2) + "}\n");
  CHECK(midway >= healthy);
  CHECK(makespan("fl-at-late.yaml", "failures: {links: 2, level: spine, seed: 3, at: 1s}\n") == healthy);
  // Refused: switches during the run; UGAL-like choices at injection.
  CHECK_THROWS_WITH_AS(failures_scenario("fl-at-sw.yaml", base + "failures: {switches: [sw-2-0], at: 1ms}\n"),
                       doctest::Contains("fl-at-sw.yaml:6:22: failures.switches: switches fail before the run only"), Error);
  CHECK_THROWS_WITH_AS(failures_scenario("fl-at-ad.yaml", std::string(kLeafSpine) +
                                                              "model: {name: store-and-forward, path_selection: adaptive}\n"
                                                              "failures: {links: 1, at: 1us}\n"),
                       doctest::Contains("fl-at-ad.yaml:3:50: model.path_selection: links failing during the run"), Error);
}
