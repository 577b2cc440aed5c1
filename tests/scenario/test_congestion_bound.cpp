// The contention-aware metrics in whole runs: congestion_bound never exceeds the simulated makespan,
// under every model and path selection; congestion tells all-to-all placements apart; best's
// verified choice is the fastest of those it simulated.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "scenario/row_value.h"
#include "test_files.h"

using namespace mapsim;

TEST_CASE("congestion_bound is a lower bound on the makespan of every model, routing and workload") {
  struct Case {
    const char *network, *routing, *selection, *workload;
  };
  const Case cases[] = {
      {"irregular:nodes=24,switches=8,ports=8", "updn", "deterministic", "exchange:size=200000"},
      {"irregular:nodes=24,switches=8,ports=8", "minhop", "ecmp", "alltoall:size=30000"},
      {"irregular:nodes=24,switches=8,ports=8", "shortest", "deterministic", "permutation:size=500000,iterations=3"},
      {"fattree:k=2,levels=3", "dmodk", "deterministic", "alltoall:size=100000"},
      {"fattree:k=2,levels=3", "dmodk", "spray", "exchange:size=1000000,iterations=2"},
      {"torus:3x3", "ecube", "deterministic", "permutation:size=300000,iterations=2"},
      {"dragonfly:a=2,p=2,h=1", "ugal-g", "deterministic", "alltoall:size=60000"},
      {"dragonfly:a=2,p=2,h=1", "valiant", "deterministic", "exchange:size=400000"},
  };
  int checked = 0;
  for (const Case& c : cases)
    for (const char* model : {"flow", "store-and-forward", "packet"}) {
      const bool per_packet = std::string(c.selection) == "spray";
      const bool flow_cannot = std::string(model) == "flow" && (per_packet || std::string(c.routing).rfind("ugal", 0) == 0);
      if (flow_cannot) continue;  // the flow model refuses per-message path choices
      const std::string text = std::string("network: ") + c.network + "\nrouting: " + c.routing +
                               "\nworkload: {process: \"random:tasks=8,edges=14\", pattern: \"" + c.workload +
                               "\"}\nmapping: [random, default]\nallocation: random\nmodel: {name: " + model +
                               ", path_selection: " + c.selection + "}\nreplicates: 3\n";
      const std::vector<RunRow> rows = run_scenario(load_scenario(temp_file("bound.yaml", text)));
      for (const RunRow& row : rows) {
        CAPTURE(text);
        CAPTURE(row.mapper);
        CHECK(row_value(row, "congestion_bound") > 0);
        CHECK(row_value(row, "congestion_bound") <= row_value(row, "sim_makespan") * (1 + 1e-9));
        ++checked;
      }
    }
  CHECK(checked >= 100);
}

TEST_CASE("all-to-all on a fixed allocation: congestion tells contiguous from random placements; best simulates and keeps the fastest") {
  const std::string text = R"(network: dragonfly:a=4,p=2,h=2
routing: minimal
workload: {process: ring:32, pattern: alltoall:size=16KiB}
mapping: [default, random, best]
allocation: random:seed=5
model: store-and-forward
replicates: 2
)";
  const std::vector<RunRow> rows = run_scenario(load_scenario(temp_file("a2a.yaml", text)));
  REQUIRE(rows.size() == 6);
  for (int r = 0; r < 2; ++r) {
    const RunRow &contiguous = rows[3 * r], &random = rows[3 * r + 1], &best = rows[3 * r + 2];
    // Every rank sends every other the same bytes: only the steps tell the placements apart.
    CHECK(row_value(contiguous, "congestion") != row_value(random, "congestion"));
    REQUIRE(!best.portfolio.candidates.empty());
    CHECK(best.portfolio.objective == "congestion");
    double fastest = 1e300;
    for (const PortfolioCandidate& c : best.portfolio.candidates)
      if (c.makespan >= 0) fastest = std::min(fastest, c.makespan);
    CHECK(row_value(best, "sim_makespan") == doctest::Approx(fastest).epsilon(1e-12));  // the run repeats best's own simulation
    CHECK(row_value(best, "sim_makespan") <= row_value(contiguous, "sim_makespan") * (1 + 1e-12));
  }
}
