// The flow model's max-min solver: closed forms, the incremental solve against a solve from
// scratch and the max-min conditions over random add/remove sequences, and whole simulations
// against SimGrid's own CM02 solver (--flow-solver simgrid).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "sim/internal/max_min.h"
#include "sim/simulate.h"
#include "sim/workload.h"
#include "topologies/network_factory.h"

using namespace mapsim;
using mapsim::sim::MaxMinSharing;

namespace {

std::vector<double> solve_all(MaxMinSharing& sharing, const std::vector<int>& flows) {
  std::vector<int> changed;
  sharing.solve(changed);
  std::vector<double> rates;
  for (int f : flows) rates.push_back(sharing.rate(f));
  return rates;
}

bool close(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::max({std::fabs(a), std::fabs(b), 1e-300}); }

}  // namespace

TEST_CASE("max-min sharing: equal shares, the parking lot, weights") {
  {
    MaxMinSharing s({12});
    std::vector<int> f{s.add({0}, 1), s.add({0}, 1), s.add({0}, 1)};
    CHECK(solve_all(s, f) == std::vector<double>{4, 4, 4});
    s.remove(f[1]);
    CHECK(solve_all(s, {f[0], f[2]}) == std::vector<double>{6, 6});
  }
  {
    // Flow 0 crosses both links, 1 only the first, 2 only the second (capacity 3): 0 and 1 split
    // link 0; flow 2 takes what flow 0 leaves of link 1.
    MaxMinSharing s({1, 3});
    std::vector<int> f{s.add({0, 1}, 1), s.add({0}, 1), s.add({1}, 1)};
    CHECK(solve_all(s, f) == std::vector<double>{0.5, 0.5, 2.5});
    s.remove(f[1]);  // flow 0 now gets all of link 0; flow 2 loses what flow 0 gains
    CHECK(solve_all(s, {f[0], f[2]}) == std::vector<double>{1, 2});
  }
  {
    MaxMinSharing s({8});
    std::vector<int> f{s.add({0}, 1), s.add({0}, 3)};
    CHECK(solve_all(s, f) == std::vector<double>{2, 6});
  }
}

TEST_CASE("incremental max-min equals a solve from scratch and meets the max-min conditions (300 random runs)") {
  for (int seed = 1; seed <= 300; ++seed)
    for (bool tolerant : {false, true}) {
      CAPTURE(seed);
      CAPTURE(tolerant);
      std::mt19937 rng(seed);
      const int num_resources = 3 + seed % 13;
      const bool weighted = seed % 2 == 0;
      std::vector<double> caps(num_resources);
      for (double& c : caps) c = std::uniform_int_distribution<int>(1, 4)(rng) * (seed % 3 == 0 ? 1.0 : 1.25e9);
      MaxMinSharing sharing(caps, tolerant);
      struct Live {
        std::vector<int> resources;
        double weight;
      };
      std::map<int, Live> live;
      std::vector<int> changed;
      int batch = 0;  // changes since the last solve
      int added = -1;
      double added_floor = 0;  // entry_floors of `added` just before it was added
      for (int step = 0; step < 80; ++step) {
        if (live.empty() || std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
          std::vector<int> all(num_resources);
          for (int r = 0; r < num_resources; ++r) all[r] = r;
          std::shuffle(all.begin(), all.end(), rng);
          all.resize(std::uniform_int_distribution<int>(1, std::min(5, num_resources))(rng));
          const double weight = weighted ? std::uniform_real_distribution<double>(0.2, 3)(rng) : 1;
          const MaxMinSharing::EntryFloors floors = sharing.entry_floors(all, weight);
          CHECK(floors.tangent >= floors.equal);
          added_floor = tolerant ? floors.tangent : floors.equal;
          added = sharing.add(all, weight);
          live[added] = Live{all, weight};
        } else {
          auto it = std::next(live.begin(), std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng));
          sharing.remove(it->first);
          live.erase(it);
          added = -1;
        }
        ++batch;
        if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) continue;  // batch some changes
        changed.clear();
        sharing.solve(changed);
        // Alone in its solve, an added flow gets at least its entry floor.
        if (batch == 1 && added >= 0) CHECK(sharing.level(added) >= added_floor * (1 - 1e-9));
        batch = 0;

        MaxMinSharing fresh(caps);
        std::map<int, int> fresh_id;
        for (const auto& [id, flow] : live) fresh_id[id] = fresh.add(flow.resources, flow.weight);
        std::vector<int> ignored;
        fresh.solve(ignored);
        std::vector<double> load(num_resources, 0);
        for (const auto& [id, flow] : live) {
          CHECK(close(sharing.rate(id), fresh.rate(fresh_id[id]), 1e-12));
          for (int r : flow.resources) load[r] += sharing.rate(id);
        }
        // Feasible, and every flow has a bottleneck: a saturated resource where no flow has a
        // higher level (rate per unit of weight).
        for (int r = 0; r < num_resources; ++r) CHECK(load[r] <= caps[r] * (1 + 1e-12));
        for (const auto& [id, flow] : live) {
          const double level = sharing.rate(id) / flow.weight;
          bool bottleneck = false;
          for (int r : flow.resources) {
            if (load[r] < caps[r] * (1 - 1e-9)) continue;
            bool highest = true;
            for (const auto& [other, o] : live)
              if (std::count(o.resources.begin(), o.resources.end(), r) && sharing.rate(other) / o.weight > level * (1 + 1e-9))
                highest = false;
            bottleneck = bottleneck || highest;
          }
          CHECK(bottleneck);
        }
      }
    }
}

TEST_CASE("flow model: mapsim's solver gives the times of SimGrid's CM02 solver, fair and SMPI sharing") {
  RoutedNetwork routed(make_network("irregular:nodes=64,switches=20,seed=3"));
  Placement placement(64);
  for (int r = 0; r < 64; ++r) placement[r] = (r * 37) % 64;
  const ProcessGraph mesh = make_process_graph("pattern:mesh:8x8,distant=0.2,seed=2");
  const ProcessGraph ring = make_process_graph("ring:64");
  // A contended all-to-all is chaotic: changing t_s by 1e-9 relative moves its makespan by 5e-4,
  // so rounding-level differences between the two solvers grow; it gets a loose bound.
  const struct {
    std::string spec;
    const ProcessGraph* graph;
    double tolerance;
  } workloads[] = {{"exchange:size=30000,iterations=2", &mesh, 1e-9},
                   {"permutation:size=200000,seed=4,iterations=3", &ring, 1e-9},
                   {"exchange:size=70000,iterations=3", &ring, 1e-9},
                   {"alltoall:size=5000", &ring, 3e-3}};
  for (const auto& w : workloads)
    for (bool smpi : {false, true}) {
      CAPTURE(w.spec);
      CAPTURE(smpi);
      const Trace trace = make_workload(w.spec, *w.graph);
      SimOptions options;
      options.smpi_sharing = smpi;
      options.record_messages = true;
      SimResult ours = simulate(routed, placement, trace, options);
      options.flow_solver = FlowSolver::SimGrid;
      SimResult simgrid = simulate(routed, placement, trace, options);
      CHECK(close(ours.makespan, simgrid.makespan, w.tolerance));
      REQUIRE(ours.message_log.size() == simgrid.message_log.size());
      // Both in one order: deliveries at equal dates may be logged in either order.
      for (auto* log : {&ours.message_log, &simgrid.message_log})
        std::sort(log->begin(), log->end(), [](const MessageRecord& a, const MessageRecord& b) {
          return std::tie(a.src, a.dst, a.tag, a.posted) < std::tie(b.src, b.dst, b.tag, b.posted);
        });
      if (w.tolerance > 1e-9) continue;
      int differ = 0;  // SimGrid's clock merges dates within 1e-12 s
      for (size_t i = 0; i < ours.message_log.size(); ++i)
        differ += std::fabs(ours.message_log[i].delivered - simgrid.message_log[i].delivered) >
                  1e-9 * simgrid.message_log[i].delivered + 1e-11;
      CHECK(differ == 0);
    }
}

TEST_CASE("flow solver names: mapsim and simgrid, anything else is an error") {
  CHECK(parse_flow_solver("mapsim") == FlowSolver::Mapsim);
  CHECK(parse_flow_solver("simgrid") == FlowSolver::SimGrid);
  CHECK_THROWS_WITH(parse_flow_solver("lmm"), "unknown flow solver 'lmm': expected mapsim or simgrid");
}

// The tolerance (docs/simulation.md, the flow solver): flows enter up to eps x their transfer-time bound late
// and free their links up to eps x their transfer time early. Makespans stay within 2 eps of the exact
// solver's (measured: 1.1 eps at eps = 1e-3, 0.6 eps at 1e-2); a contended all-to-all is chaotic (above)
// and only reported.
TEST_CASE("flow model: flow_tolerance eps keeps makespans within 2 eps of the exact solver (200 random runs)") {
  std::mt19937 rng(7);
  const char* specs[] = {"exchange:size=100000,iterations=3", "permutation:size=200000,seed=4,iterations=3",
                         "exchange:size=30000,iterations=4", "alltoall:size=20000"};
  double worst[4][2] = {};
  for (int run = 0; run < 200; ++run) {
    const int nodes = 4 * (4 + static_cast<int>(rng() % 13));
    const int switches = std::max(2, nodes * (25 + static_cast<int>(rng() % 15)) / 100);
    RoutedNetwork routed(make_network("irregular:nodes=" + std::to_string(nodes) + ",switches=" + std::to_string(switches) +
                                      ",seed=" + std::to_string(run + 1)));
    Placement placement(nodes);
    for (int r = 0; r < nodes; ++r) placement[r] = r;
    std::shuffle(placement.begin(), placement.end(), rng);
    const ProcessGraph graph = make_process_graph(run % 2 ? "ring:" + std::to_string(nodes)
                                                          : "pattern:mesh:" + std::to_string(nodes / 4) + "x4,distant=0.3,seed=" +
                                                                std::to_string(run));
    const std::string spec = specs[run % 4];
    const Trace trace = make_workload(spec, graph);
    SimOptions options;
    options.smpi_sharing = run % 3 == 0;
    const double exact = simulate(routed, placement, trace, options).makespan;
    for (int k = 0; k < 2; ++k) {
      options.flow_tolerance = k ? 1e-2 : 1e-3;
      const double tolerant = simulate(routed, placement, trace, options).makespan;
      CAPTURE(run);
      CAPTURE(spec);
      CAPTURE(options.flow_tolerance);
      if (run % 4 != 3) CHECK(close(tolerant, exact, 2 * options.flow_tolerance));
      worst[run % 4][k] = std::max(worst[run % 4][k], std::fabs(tolerant - exact) / exact);
    }
  }
  for (int i = 0; i < 4; ++i) MESSAGE(std::string(specs[i]) << ": worst relative makespan difference " << worst[i][0] << " at eps 1e-3, " << worst[i][1] << " at 1e-2");
}

TEST_CASE("flow model: flow_tolerance 0 is the exact solver; the simgrid solver refuses a tolerance") {
  RoutedNetwork routed(make_network("irregular:nodes=32,switches=10,seed=5"));
  Placement placement(32);
  for (int r = 0; r < 32; ++r) placement[r] = (r * 7) % 32;
  const Trace trace = make_workload("exchange:size=100000,iterations=2", make_process_graph("mesh:8x4"));
  SimOptions options;
  options.record_messages = true;
  const SimResult exact = simulate(routed, placement, trace, options);
  options.flow_tolerance = 0;
  const SimResult zero = simulate(routed, placement, trace, options);
  CHECK(zero.makespan == exact.makespan);
  REQUIRE(zero.message_log.size() == exact.message_log.size());
  for (size_t i = 0; i < zero.message_log.size(); ++i) CHECK(zero.message_log[i].delivered == exact.message_log[i].delivered);
  options.flow_tolerance = 1e-3;
  const SimResult tolerant = simulate(routed, placement, trace, options);
  CHECK(tolerant.messages == exact.messages);
  CHECK(close(tolerant.makespan, exact.makespan, 2e-3));
  options.flow_solver = FlowSolver::SimGrid;
  CHECK_THROWS_WITH(simulate(routed, placement, trace, options), doctest::Contains("flow_tolerance"));
}
