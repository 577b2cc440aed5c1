// Scenario files: both spellings of a spec, key paths, seeds per replicate, located errors, and
// runs checked against exact values (an identity embedding, the zero-load latency both ways).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "reporting/run_report.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "scenario/row_value.h"
#include "test_files.h"
#include "support/error.h"

using namespace mapsim;

namespace {

Scenario scenario_text(const std::string& name, const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_scenario(temp_file(name, text), sets);
}

const char* kSmall = R"(network: mesh:4x4
workload:
  process: mesh:4x4
  pattern: exchange:size=64
mapping: [default, random]
model: {name: store-and-forward, t_s: 1us}
replicates: 3
)";

}  // namespace

TEST_CASE("a spec string and a map give the same spec; model link keys reach the generator typed") {
  const Scenario a = scenario_text("sc-a.yaml", R"(network: irregular:nodes=64,switches=20,ports=8
workload: {process: mesh:8x8}
model: {name: packet, t_s: 1us, link_bandwidth: 20Gbps, mtu: 2KiB, eager_threshold: 0, sharing: smpi}
)");
  const Scenario b = scenario_text("sc-b.yaml", R"(network: {name: irregular, nodes: 64, switches: 20, ports: 8}
workload: {process: {name: mesh, dims: 8x8}}
model: {name: packet, t_s: 1us, link_bandwidth: 20Gbps, mtu: 2KiB, eager_threshold: 0, sharing: smpi}
)");
  CHECK(a.network == "irregular:nodes=64,switches=20,ports=8");
  CHECK(b.network == a.network);
  CHECK(a.links.link_bandwidth == 2.5e9);  // read once, as a bandwidth
  CHECK(a.links.startup == 1e-6);
  CHECK_FALSE(a.links.link_latency);
  CHECK(b.links.link_bandwidth == a.links.link_bandwidth);
  CHECK(a.process == "mesh:8x8");
  CHECK(b.process == a.process);
  CHECK(a.sim.model == "packet");
  CHECK(a.sim.mtu == 2048);
  CHECK(a.sim.eager_threshold == 0);
  CHECK(a.sim.smpi_sharing);
  CHECK(a.sim.flow_solver == FlowSolver::Mapsim);
  CHECK(scenario_text("sc-solver.yaml", "network: mesh:2x2\nworkload: {process: ring:4}\nmodel: {flow_solver: simgrid}\n")
            .sim.flow_solver == FlowSolver::SimGrid);
  CHECK(a.mappers == std::vector<std::string>{"default"});
  CHECK(a.pattern == "exchange");
  CHECK(a.output == "results/mapsim-test-sc-a");  // results/ + the file's stem
  CHECK_FALSE(scenario_text("sc-none.yaml", "network: mesh:2x2\nworkload: {process: ring:4}\nmodel: none\n").simulate);
}

TEST_CASE("replicate r runs with seed + r where the scenario gave no seed") {
  const Scenario s = scenario_text("sc-seed.yaml", R"(network: irregular:nodes=64,switches=20
workload:
  process: {name: pattern, base: mesh:8x8, distant: 0.1}
  pattern: permutation
seed: 10
)");
  CHECK(s.network_spec(0) == "irregular:nodes=64,switches=20,seed=10");
  CHECK(s.network_spec(2) == "irregular:nodes=64,switches=20,seed=12");
  CHECK(s.process_spec(1) == "pattern:mesh:8x8,distant=0.1,seed=11");
  CHECK(s.pattern_spec(3) == "permutation:seed=13");
  const Scenario fixed = scenario_text("sc-fixed.yaml", "network: irregular:nodes=64,switches=20,seed=5\nworkload: {process: ring:8}\n");
  CHECK(fixed.network_spec(4) == "irregular:nodes=64,switches=20,seed=5");
  CHECK(fixed.network_spec(0) == fixed.network_spec(4));
  CHECK(scenario_text("sc-mesh.yaml", "network: mesh:4x4\nworkload: {process: ring:8}\n").network_spec(3) == "mesh:4x4");
}

TEST_CASE("--set follows key paths, opening spec strings into maps") {
  const Scenario s = scenario_text("sc-set.yaml", kSmall,
                                   {"network.dims=8x2", "model.t_s=3us", "mapping.1=switch", "replicates=5", "workload.pattern.size=128"});
  CHECK(s.network == "mesh:8x2");
  CHECK(s.links.startup == 3e-6);
  CHECK(s.mappers == std::vector<std::string>{"default", "switch"});
  CHECK(s.replicates == 5);
  CHECK(s.pattern == "exchange:size=128");
  CHECK(scenario_text("sc-set2.yaml", kSmall, {"mapping=[binary, greedy, best]"}).mappers.size() == 3);
  CHECK(error_of([] { scenario_text("sc-set3.yaml", kSmall, {"replicate=4"}); }) ==
        "--set replicate=4: unknown key 'replicate' (did you mean 'replicates'?)");
  CHECK(error_of([] { scenario_text("sc-set4.yaml", kSmall, {"mapping.7=best"}); }) ==
        "--set mapping.7=best: 'mapping' is a list of 2; '7' is not an index in it");
  CHECK(error_of([] { scenario_text("sc-set5.yaml", kSmall, {"replicates.x=1"}); }).find("'replicates' holds a single value") != std::string::npos);
  CHECK(error_of([] { scenario_text("sc-set6.yaml", kSmall, {"seed"}); }) == "--set seed: expected KEY.PATH=VALUE, got 'seed'");
  // A bad value from --set is blamed on the --set, not on a line of the file it never was on; a
  // mapping of the file that holds a --set value names both.
  CHECK(error_of([] { scenario_text("sc-set7.yaml", kSmall, {"replicates=0"}); }) ==
        "--set replicates=0: replicates must be in 1..1000000");
  CHECK(error_of([] { scenario_text("sc-set8.yaml", kSmall, {"model.t_s=soon"}); }) ==
        "--set model.t_s=soon: bad time 'soon': expected a number with s, ms, us, ns or ps (e.g. 20ns)");
  CHECK(error_of([] { run_scenario(scenario_text("sc-set9.yaml", kSmall, {"network.nodes=many"})); })
            .rfind("--set network.nodes=many: " + temp_path("sc-set9.yaml") + ": network: ", 0) == 0);
}

TEST_CASE("bad scenarios: one line naming file, line, column and what was expected") {
  const std::string f = temp_path("sc-bad.yaml");
  auto bad = [&](const std::string& text) { return error_of([&] { scenario_text("sc-bad.yaml", text); }); };
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nreplicas: 3\n") ==
        f + ":3:1: unknown key 'replicas' (did you mean 'replicates'?); valid keys: name, network, failures, routing, workload, "
            "mapping, allocation, slots, model, ocs, seed, replicates, output, jobs, background, interference");
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nmodel: {name: flow, t_s: 2 parsecs}\n") ==
        f + ":3:26: bad time '2 parsecs': expected a number with s, ms, us, ns or ps (e.g. 20ns)");
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nmodel: {mtu: 0}\n") == f + ":3:14: model.mtu must be at least 1 byte");
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nmodel: {flow_solver: lmm}\n") ==
        f + ":3:22: model.flow_solver: unknown flow solver 'lmm': expected mapsim or simgrid");
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nslots: two\n") == f + ":3:8: expected slots to be an integer, got 'two'");
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4}\nmodel: warp\n") ==
        f + ":3:8: model: unknown model 'warp': expected one of flit, flow, packet, store-and-forward (or none: mapping metrics only)");
  CHECK(bad("workload: {process: ring:4}\n").rfind(f + ":1:1: missing 'network'", 0) == 0);
  CHECK(bad("network: mesh:2x2\nworkload: {process: ring:4, trace: t.txt}\n").find("either trace or process") != std::string::npos);
  CHECK(bad("network: file:x.yaml\nworkload: {process: ring:4}\nmodel: {t_s: 1us}\n").find("cannot override the link values") !=
        std::string::npos);
  CHECK(bad("network: mesh:2x2,t_s=1us\nworkload: {process: ring:4}\nmodel: {t_s: 1us}\n").find("'t_s' is given both") !=
        std::string::npos);
  CHECK(bad("network: mesh:2x2,link_bw=1Gbps\nworkload: {process: ring:4}\nmodel: {link_bandwidth: 2Gbps}\n") ==
        f + ":3:8: network: 'link_bandwidth' is given both in the network spec and in model");  // under an alias too
  CHECK(bad("network: {nodes: 4}\nworkload: {process: ring:4}\n").find("a map needs 'name'") != std::string::npos);
  CHECK(bad("network: mesh:2x2\nworkload: {process: random:tasks=8,edges=4}\n").find("must be quoted") != std::string::npos);
  CHECK(bad("network: [mesh:2x2\n").rfind(f + ":2:1: malformed YAML", 0) == 0);
}

TEST_CASE("scenarios that would run to silently wrong results are refused at their key (issue 29)") {
  const std::string f = temp_path("sc-wrong.yaml");
  auto bad = [&](const std::string& text, const std::vector<std::string>& sets = {}) {
    return error_of([&] { scenario_text("sc-wrong.yaml", text, sets); });
  };
  const std::string base = "network: mesh:2x2\nworkload: {process: ring:4}\n";
  CHECK(bad(base + "---\nreplicates: 500\n") == f + ":3: a second YAML document; expected one");
  CHECK(bad(base + "model: {name: flow, path_selection: spray}\n") ==
        f + ":3:37: model.path_selection: path selection spray chooses paths per packet from queue state: use the "
            "store-and-forward or packet model, not flow");
  CHECK(bad(base + "model: packet\n", {"model.path_selection=adaptive", "model.name=flow"}) ==
        "--set model.path_selection=adaptive: model.path_selection: path selection adaptive chooses paths per packet from "
        "queue state: use the store-and-forward or packet model, not flow");
  CHECK(bad("network: dragonfly:a=2,p=1,h=1\nrouting: ugal-g\nworkload: {process: ring:6}\n") ==
        f + ":2:10: routing: ugal-g routing chooses paths per packet from queue state: use the store-and-forward or packet "
            "model, not flow");
  CHECK(bad(base + "model: {flops: 1e-300}\n") == f + ":3:16: model.flops must be 1 to 1e18 flop/s");
  CHECK(bad(base + "model: {link_bandwidth: 1e-311}\n").find("expected 1 B/s (8bps) to 1e18 B/s") != std::string::npos);
  CHECK(bad(base + "model: {t_p: 1.7e308s}\n").find("bad time '1.7e308s': above 1e6 s") != std::string::npos);
  CHECK(bad(base + "allocation: random:seed=-1\n").empty());  // checked where the allocation is built, below
  CHECK(error_of([&] { run_scenario(scenario_text("sc-wrong.yaml", base + "allocation: random:seed=-1\nmodel: none\n")); })
            .find("seed must be >= 0, got -1") != std::string::npos);
  // Open-loop traffic: 0 is no hidden default.
  CHECK(error_of([&] { check_scenario(scenario_text("sc-wrong.yaml", "network: mesh:2x2\nworkload: {traffic: {name: uniform, message: 0}}\n")); }) ==
        f + ":2:21: workload.traffic: traffic message size must be above 0 bytes (omit it for one packet)");
  // Nothing in a scenario with a byte-order mark is lost.
  CHECK(scenario_text("sc-bom.yaml", "\xEF\xBB\xBF" + base + "replicates: 2\n").replicates == 2);
}

TEST_CASE("a run builds every part before mapping and reports the scenario key that failed") {
  const std::string f = temp_path("sc-check.yaml");
  auto check = [&](const std::string& text) { return error_of([&] { run_scenario(scenario_text("sc-check.yaml", text)); }); };
  CHECK(check(kSmall).empty());
  const std::string network = check("network:\n  name: irregular\n  nodes: 64\n  switchs: 20\nworkload: {process: ring:4}\n");
  CHECK(network.rfind(f + ":2:3: network: bad spec 'irregular:nodes=64,switchs=20,seed=1': unknown key 'switchs'", 0) == 0);
  CHECK(network.find("(did you mean 'switches'?)") != std::string::npos);
  CHECK(check("network: mesh:2x2\nrouting: updown-ish\nworkload: {process: ring:4}\n").rfind(f + ":2:10: routing: ", 0) == 0);
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:4}\nmapping: [default, magic]\n").rfind(f + ":3:20: mapping.1: ", 0) == 0);
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:4, pattern: exchange:sise=4}\n").rfind(f + ":2:38: workload.pattern: ", 0) == 0);
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:9}\n").rfind(f + ":1:1: allocation: ", 0) == 0);  // 9 tasks, 4 slots
  // An allocation policy is checked with the mappers, before any part is built.
  CHECK(error_of([&] { check_scenario(scenario_text("sc-check.yaml", "network: mesh:2x2\nworkload: {process: ring:4}\nallocation: bset-fit\n")); }) ==
        f + ":3:13: allocation: unknown allocation 'bset-fit' (did you mean 'best-fit'?): expected one of all, best-fit, "
            "contiguous, group, list, random, spread");
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:4}\nallocation: {name: spread, busy: 0.75}\n") ==
        f + ":3:13: allocation: allocation 'spread': 4 nodes needed, only 1 free of 4 (3 busy at busy=0.75)");
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:4}\nocs: {pathways: 4}\n") ==
        f + ":3:6: ocs: optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)");
  CHECK(check("network: mesh:2x2\nworkload: {process: ring:4}\nmodel: packet\nocs: {pathway: 4}\n").find("did you mean 'pathways'") !=
        std::string::npos);
}

TEST_CASE("run: an identity embedding has the exact metrics and latency of one hop per edge") {
  // A 4x4 process mesh on a 4x4 mesh network, task i on node i: every edge is one link.
  const Scenario s = scenario_text("sc-run.yaml", kSmall);
  const std::vector<RunRow> rows = run_scenario(s);
  REQUIRE(rows.size() == 6);  // 3 replicates x 2 mappers, replicate-major
  CHECK(rows[0].mapper == "default");
  CHECK(rows[1].mapper == "random");
  CHECK(rows[5].replicate == 2);
  CHECK(rows[5].seed == 3);
  for (const RunRow& row : rows) {
    if (row.mapper != "default") continue;
    CHECK(row_value(row, "weighted_cardinality") == 24);
    CHECK(row_value(row, "cardinality") == 1);
    const double zero_load = 1e-6 + 20e-9 + 2 * 300e-9;  // t_s (set to 1us) + t_p + 2 t_r
    CHECK(row_value(row, "zero_load_latency") == doctest::Approx(zero_load).epsilon(1e-12));
    CHECK(row_value(row, "sim_zero_load_latency") == doctest::Approx(zero_load).epsilon(1e-12));
    CHECK(row_value(row, "sim_messages") == 48);  // one message each way per edge
  }
  CHECK(row_value(rows[1], "weighted_cardinality") > 24);
  // Deterministic: the same scenario gives the same numbers.
  const std::vector<RunRow> again = run_scenario(s);
  for (size_t i = 0; i < rows.size(); ++i) CHECK(same_values(rows[i], again[i]));
  // links.csv rows: one per directed switch channel and per node link, led by replicate and mapper.
  CHECK(rows[0].links_csv.rfind("link,0,", 0) == 0);  // write_run leads each row with replicate and mapper
}

TEST_CASE("run: hop-bytes and link loads count the workload's bytes; weighted cardinality keeps edge volumes") {
  // The identity embedding of a 4x4 mesh: 24 edges of one link; each message crosses 3 links
  // (node, switch-switch, node) and every directed switch channel carries one message.
  const char* mesh = "network: mesh:4x4\nworkload: {process: mesh:4x4, pattern: 'exchange:size=256KiB,iterations=3'}\n"
                     "mapping: default\nmodel: none\n";
  const std::vector<RunRow> rows = run_scenario(scenario_text("sc-bytes.yaml", mesh));
  REQUIRE(rows.size() == 1);
  const double message = 256 * 1024 * 3;  // bytes each way per edge over the 3 iterations
  CHECK(row_value(rows[0], "weighted_cardinality") == 24);
  CHECK(row_value(rows[0], "hop_bytes") == 48 * message * 3);
  CHECK(row_value(rows[0], "max_link_load") == message);
  CHECK(row_value(rows[0], "max_nic_load") == 4 * message);  // a centre node sends to 4 neighbours
  CHECK(row_value(rows[0], "max_link_messages") == 1);       // still routed edges, not messages

  // An all-to-all: every ordered pair of the 8 ranks exchanges 4 KiB (on a one-switch star the
  // collective's pairwise messages cross two node links each).
  const char* star = "network: tree2:switches=1,nodes_per_switch=8\nworkload: {process: ring:8, pattern: 'alltoall:size=4KiB'}\n"
                     "mapping: default\nmodel: none\n";
  const std::vector<RunRow> all = run_scenario(scenario_text("sc-a2a.yaml", star));
  CHECK(row_value(all[0], "hop_bytes") == 8 * 7 * 4096 * 2);
  CHECK(row_value(all[0], "max_nic_load") == 7 * 4096);
  // Without a pattern the edge volumes count, as before.
  const std::vector<RunRow> plain =
      run_scenario(scenario_text("sc-plain.yaml", "network: mesh:4x4\nworkload: {process: mesh:4x4}\nmapping: default\nmodel: none\n"));
  CHECK(row_value(plain[0], "hop_bytes") == 48 * 3);
}

TEST_CASE("run: replicates that nothing seeds run once, and each copy equals that replicate run alone") {
  const std::string text = "network: irregular:nodes=64,switches=16,seed=3\nworkload: {process: mesh:8x8}\n"
                           "mapping: [default, switch, binary, greedy]\nmodel: store-and-forward\nreplicates: 3\nseed: 7\n";
  const Scenario s = scenario_text("sc-identical.yaml", text);
  RunPipeline pipeline(s);
  CHECK(pipeline.replicates_identical(pipeline.replicate(0)));
  const std::vector<RunRow> rows = run_scenario(s);
  REQUIRE(rows.size() == 12);
  for (const RunRow& row : rows) {
    const Scenario alone = scenario_text("sc-alone.yaml", text, {"replicates=1", "seed=" + std::to_string(s.replicate_seed(row.replicate))});
    const std::vector<RunRow> once = run_scenario(alone);
    const RunRow& same = *std::find_if(once.begin(), once.end(), [&](const RunRow& r) { return r.mapper == row.mapper; });
    CHECK(row.seed == same.seed);
    CHECK(same_values(row, same));
    CHECK(row.placement == same.placement);
    CHECK(row.links_csv == same.links_csv);
  }
  // Anything seeded makes replicates differ: a random mapper, a seedless generated network, a random
  // allocation, random path choices.
  for (const char* set : {"mapping=[default, random]", "network=irregular:nodes=64,switches=16", "allocation=random",
                                 "model.path_selection=spray", "workload.process=pattern:mesh:8x8,distant=0.2", "mapping=[annealing]"}) {
    const Scenario varied = scenario_text("sc-seeded.yaml", text, {set});
    RunPipeline seeded(varied);
    CHECK_MESSAGE(!seeded.replicates_identical(seeded.replicate(0)), set);
  }
  // A topology-aware allocation is seeded by its busy nodes only; `--set allocation.busy=` opens the spec.
  const Scenario fit = scenario_text("sc-fit.yaml", text, {"workload.process=mesh:4x4", "allocation=best-fit"});
  RunPipeline fitted(fit);
  CHECK(fitted.replicates_identical(fitted.replicate(0)));
  const Scenario busy = scenario_text("sc-busy.yaml", text, {"workload.process=mesh:4x4", "allocation=best-fit", "allocation.busy=0.5"});
  CHECK(busy.allocation == "best-fit:busy=0.5");
  CHECK(busy.allocation_spec(1) == "best-fit:busy=0.5,seed=8");
  RunPipeline busied(busy);
  const std::vector<int> first = busied.replicate(0).problem.nodes;
  CHECK(!busied.replicates_identical(busied.replicate(0)));
  CHECK(first.size() == 16);
  CHECK(busied.replicate(1).problem.nodes != first);
}

TEST_CASE("write_run: results.csv has one row per replicate x mapper, summary.json comes last") {
  Scenario s = scenario_text("sc-write.yaml", kSmall, {"model=none"});
  s.output = temp_path("sc-write-out");
  std::filesystem::remove_all(s.output);
  write_run(s.output, s, run_scenario(s));
  std::ifstream in(s.output + "/results.csv");
  std::string header, line;
  std::getline(in, header);
  CHECK(header.rfind("replicate,seed,mapper,weighted_cardinality,cardinality,", 0) == 0);
  CHECK(header.find("sim_") == std::string::npos);  // model none: mapping metrics only
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  CHECK(lines == 6);
  CHECK(std::filesystem::exists(s.output + "/summary.json"));
  CHECK(std::filesystem::exists(s.output + "/links.csv"));
  CHECK(std::filesystem::exists(s.output + "/timings.csv"));
  // The scenario as written: integers stay integers, specs stay text.
  std::ifstream summary_file(s.output + "/summary.json");
  const std::string summary((std::istreambuf_iterator<char>(summary_file)), std::istreambuf_iterator<char>());
  CHECK(summary.find("\"replicates\": 3\n") != std::string::npos);
  CHECK(summary.find("\"replicates\": 3.0") == std::string::npos);
  CHECK(summary.find("\"pattern\": \"exchange:size=64\"") != std::string::npos);
}

TEST_CASE("run with optical circuits: the ocs key, CP's regrouping, circuit results") {
  const Scenario s = scenario_text("sc-ocs.yaml", R"(network: tree2:switches=2,nodes_per_switch=4
workload: {process: ring:8, pattern: exchange:size=1MB}
mapping: [default]
model: store-and-forward
ocs: {pathways: 2, policy: cp, threshold: 8192, setup: 0s}
)");
  CHECK(s.ocs == "ocs:pathways=2,policy=cp,threshold=8192,setup=0s");
  const std::vector<RunRow> rows = run_scenario(s);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].mapper == "metis");  // CP regroups ranks in order with METIS
  CHECK(row_value(rows[0], "sim_circuits") == 2);  // the ring crosses the two switches twice
  CHECK(row_value(rows[0], "sim_optical_messages") == 4);  // one each way over each circuit
  CHECK(row_value(rows[0], "sim_core_switch_load") == 0);  // S0 unused
  CHECK(row_value(rows[0], "sim_relative_makespan") < 1);
  CHECK(rows[0].links_csv.find("\ncircuit,0,") != std::string::npos);
}

TEST_CASE("open-loop traffic as a scenario workload: one row per replicate, load sweepable by key path, located errors") {
  const char* text = R"(network: fattree:nodes=32,radix=8,levels=2
workload:
  traffic: {name: uniform, load: 0.2}
model: {name: packet, mtu: 1KiB}
replicates: 2
)";
  Scenario s = scenario_text("traffic.yaml", text);
  CHECK(s.traffic == "uniform:load=0.2");
  CHECK(s.mappers == std::vector<std::string>{"open-loop"});
  const std::vector<RunRow> rows = run_scenario(s);
  REQUIRE(rows.size() == 2);
  CHECK(row_value(rows[0], "traffic_offered") == 0.2);
  CHECK(row_value(rows[0], "traffic_accepted") == doctest::Approx(0.2).epsilon(0.08));
  CHECK(row_value(rows[0], "traffic_latency_p99") >= row_value(rows[0], "traffic_latency_mean"));
  CHECK(row_value(rows[0], "traffic_latency_mean") != row_value(rows[1], "traffic_latency_mean"));  // seeds 1 and 2
  // The load is a key path, as in a sweep's vary: list.
  Scenario heavier = scenario_text("traffic.yaml", text, {"workload.traffic.load=0.6"});
  CHECK(heavier.traffic == "uniform:load=0.6");
  CHECK(row_value(run_scenario(heavier)[0], "traffic_accepted") == doctest::Approx(0.6).epsilon(0.08));

  auto error = [](const std::string& name, const std::string& body) {
    return error_of([&] { run_scenario(scenario_text(name, body)); });
  };
  CHECK(error("traffic-map.yaml", "network: mesh:4x4\nworkload: {traffic: uniform}\nmapping: [best]\n")
            .find("traffic-map.yaml:2:21: workload.traffic: open-loop traffic starts at every node") != std::string::npos);
  CHECK(error("traffic-none.yaml", "network: mesh:4x4\nworkload: {traffic: uniform}\nmodel: none\n")
            .find("needs a simulation model, not none") != std::string::npos);
  CHECK(error("traffic-load.yaml", "network: mesh:4x4\nworkload: {traffic: uniform:load=2}\n")
            .find("traffic-load.yaml:2:21: workload.traffic: offered load must be in (0, 1]") != std::string::npos);
  CHECK(error("traffic-both.yaml", "network: mesh:4x4\nworkload: {traffic: uniform, process: ring:4}\n")
            .find("open-loop traffic runs alone") != std::string::npos);
  CHECK(error("traffic-pattern.yaml", "network: mesh:4x4\nworkload: {traffic: transpose}\nmodel: packet\n")
            .find("workload.traffic: transpose traffic needs a square node count") == std::string::npos);  // 16 is square
  CHECK(error("traffic-pattern2.yaml", "network: mesh:4x2\nworkload: {traffic: transpose}\nmodel: packet\n")
            .find("workload.traffic: transpose traffic needs a square node count") != std::string::npos);
}

TEST_CASE("invalid combinations of keys are refused when the scenario is read, at the key to change (issue 32)") {
  const std::string f = temp_path("sc-combo.yaml");
  auto bad = [&](const std::string& text, const std::vector<std::string>& sets = {}) {
    return error_of([&] { scenario_text("sc-combo.yaml", text, sets); });
  };
  const std::string dragonfly = "network: dragonfly:a=2,p=1,h=1\nworkload: {process: ring:6, pattern: alltoall}\n";
  const std::string queues = " chooses paths per packet from queue state: use the store-and-forward or packet model, not flow";
  // routing x model, path selection x model: the flow model has no queues to choose by.
  CHECK(bad(dragonfly + "routing: ugal-l\nmodel: flow\n") == f + ":3:10: routing: ugal-l routing" + queues);
  CHECK(bad(dragonfly + "routing: ugal-l\n") == f + ":3:10: routing: ugal-l routing" + queues);  // flow by default
  CHECK(bad(dragonfly + "model: packet\n", {"routing=ugal-g", "model=flow"}) == "--set routing=ugal-g: routing: ugal-g routing" + queues);
  CHECK(bad(dragonfly + "model: {name: flow, path_selection: adaptive}\n") ==
        f + ":3:37: model.path_selection: path selection adaptive" + queues);
  CHECK(bad(dragonfly + "routing: ugal-l\nmodel: packet\n").empty());
  // optical circuits x model, x routing, x path selection, x mapping.
  const std::string ocs_model = ": ocs: optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)";
  CHECK(bad(dragonfly + "ocs: {pathways: 2}\n") == f + ":3:6" + ocs_model);
  CHECK(bad(dragonfly + "model: none\nocs: {pathways: 2}\n") == f + ":4:6" + ocs_model);
  CHECK(bad(dragonfly + "routing: ugal-l\nmodel: packet\nocs: {pathways: 2}\n") ==
        f + ":3:10: routing: ugal-l routing is not available on a hybrid network with optical circuits (ocs)");
  CHECK(bad(dragonfly + "model: {name: store-and-forward, path_selection: spray}\nocs: {pathways: 2}\n") ==
        f + ":3:50: model.path_selection: path selection spray is not available on a hybrid network with optical circuits (ocs)");
  CHECK(bad(dragonfly + "model: packet\nocs: {pathways: 2}\n", {"model.path_selection=adaptive"}) ==
        "--set model.path_selection=adaptive: model.path_selection: path selection adaptive is not available on a hybrid "
        "network with optical circuits (ocs)");
  CHECK(bad(dragonfly + "routing: valiant\nmodel: {name: packet, path_selection: ecmp}\nocs: {pathways: 2}\n").empty());
  const std::string placement = temp_file("sc-combo-placement.txt", "0\n1\n2\n3\n4\n5\n");
  CHECK(bad(dragonfly + "mapping: [default, placement:" + placement + "]\nmodel: packet\nocs: {pathways: 2, policy: cp}\n") ==
        f + ":3:20: mapping.1: ocs policy cp places the ranks itself: drop the placement file (placement:" + placement + ")");
  CHECK(bad(dragonfly + "mapping: [default, placement:" + placement + "]\nmodel: packet\nocs: {pathways: 2, policy: sp}\n").empty());
  // open-loop traffic x model.
  CHECK(bad("network: mesh:4x4\nworkload: {traffic: uniform}\nmodel: none\n") ==
        f + ":2:21: workload.traffic: open-loop traffic needs a simulation model, not none");
}
