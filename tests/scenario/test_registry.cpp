// Extension points: a component added the documented way -- one registration in its own file --
// is found by name, listed, checked against its declared parameters and run by the pipeline.
#include <doctest/doctest.h>

#include <algorithm>

#include "mappers/mapper.h"
#include "scenario/run.h"
#include "sim/workload.h"
#include "support/error.h"
#include "test_files.h"

using namespace mapsim;

namespace {

// A toy mapper: tasks on the slots in reverse allocation order, `skip` slots left free first.
class ReverseMapper : public Mapper {
 public:
  explicit ReverseMapper(int skip) : skip_(skip) {}
  std::string name() const override { return "reverse"; }
  Placement map(const MappingProblem& problem) const override {
    std::vector<int> slots = slot_list(problem);
    std::reverse(slots.begin(), slots.end());
    if (static_cast<size_t>(skip_) + problem.graph->num_tasks() > slots.size())
      throw NotApplicable("reverse: not enough slots to skip " + std::to_string(skip_));
    return Placement(slots.begin() + skip_, slots.begin() + skip_ + problem.graph->num_tasks());
  }

 private:
  int skip_;
};

}  // namespace

MAPSIM_REGISTER(mapper_registry(),
                {"reverse",
                 "test: slots in reverse allocation order",
                 {integer_param("skip", 0, "slots left free first", 0, 64)},
                 [](Spec& spec) { return std::make_unique<ReverseMapper>(static_cast<int>(spec.get_int("skip"))); }});

TEST_CASE("a registered toy mapper is listed, validated and run by the pipeline") {
  const std::vector<std::string> names = mapper_names();
  CHECK(std::find(names.begin(), names.end(), "reverse") != names.end());
  CHECK_THROWS_WITH_AS(make_mapper("reverse:skip=65"), doctest::Contains("skip must be in 0..64, got 65"), Error);
  CHECK_THROWS_WITH_AS(make_mapper("reverse:skp=1"),
                       doctest::Contains("unknown key 'skp' for reverse (did you mean 'skip'?) (valid keys: skip)"),
                       Error);
  CHECK_THROWS_WITH_AS(make_mapper("revers"), doctest::Contains("expected one of adjacency, annealing"), Error);

  const Scenario s = load_scenario(temp_file("reg-toy.yaml",
                                             "network: mesh:4x4,nodes_per_router=2\n"
                                             "workload: {process: ring:8}\n"
                                             "mapping: [default, 'reverse:skip=2']\nmodel: none\n"));
  const std::vector<RunRow> rows = run_scenario(s);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].mapper == "reverse:skip=2");
  // 32 slots on 16 routers: reverse order skipping 2 puts task t on node 29 - t.
  for (int t = 0; t < 8; ++t) CHECK(rows[1].placement[t] == 29 - t);
  // Weighted cardinality (routed hops per ring edge): default puts tasks 0..7 on routers 0,0,1,1,2,2,3,3
  // (1 + 1 + 1 hops between pairs, 3 back from router 3 to 0); reverse on routers 14,14,13,13,12,12,11,11
  // (1 + 1 + 4 from router 12 = (0,3) to 11 = (3,2), and 2 back from 11 to 14 = (2,3)).
  REQUIRE(rows[0].values[0].first == "weighted_cardinality");
  CHECK(rows[0].values[0].second == 6);
  CHECK(rows[1].values[0].second == 8);

  // Too many slots skipped: the mapper says it does not apply; the run fails naming it.
  const Scenario tight = load_scenario(temp_file("reg-tight.yaml",
                                                 "network: mesh:2x2\nworkload: {process: ring:4}\n"
                                                 "mapping: 'reverse:skip=1'\nmodel: none\n"));
  CHECK_THROWS_WITH_AS(run_scenario(tight), (temp_path("reg-tight.yaml") + ":3:10: mapping: reverse: not enough slots to skip 1").c_str(),
                       NotApplicable);
}

TEST_CASE("every registry lists its components with their declared parameters") {
  for (const char* name : {"exchange", "alltoall", "permutation"}) CHECK(workload_registry().find(name));
  CHECK(workload_registry().find("alltoall")->params.front().name == "size");
  CHECK(process_registry().find("trace"));           // registered by sim/, beside the mappers' own
  CHECK(parse_model("saf") == "store-and-forward");  // an alias
  CHECK_THROWS_WITH_AS(make_workload("permutation:seed=-1", make_process_graph("ring:4")),
                       doctest::Contains("seed must be >= 0, got -1"), Error);
  CHECK(make_workload("alltoall:size=2KiB,iterations=3", make_process_graph("ring:4")).ranks[0].actions.size() == 5);
}
