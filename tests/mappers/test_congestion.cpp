// The contention-aware metrics against values worked out by hand, and best's portfolio.
#include <doctest/doctest.h>

#include <algorithm>

#include "mappers/best_mapper.h"
#include "mappers/congestion.h"
#include "mappers/mapper.h"
#include "mappers/internal/load_objective.h"
#include "mappers/internal/objective_search.h"
#include "mappers/metrics.h"
#include "mappers/objective.h"
#include "support/random.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

constexpr double kBandwidth = 1e9, kBytes = 1e6;

// `leaves` switches of two nodes each, all linked to one spine (a single switch pair when leaves == 2
// and spine is false).
Network two_level(int leaves, bool spine) {
  Network net;
  for (int l = 0; l < leaves; ++l) net.add_switch("leaf" + std::to_string(l), 4, 0);
  if (spine) net.add_switch("spine", leaves, 0);
  for (int l = 0; l < leaves; ++l)
    for (int k = 0; k < 2; ++k) net.add_node("n" + std::to_string(2 * l + k), l, kBandwidth, 0);
  if (spine)
    for (int l = 0; l < leaves; ++l) net.add_link(l, leaves, kBandwidth, 0);
  else
    net.add_link(0, 1, kBandwidth, 0);
  return net;
}

MappingProblem problem_on(const RoutedNetwork& routed, const ProcessGraph& graph, const CommSchedule& schedule) {
  MappingProblem p = make_problem(routed, graph, "all", 1, 1);
  p.schedule = &schedule;
  return p;
}

// Pairwise all-to-all of 4 ranks: step i sends rank r to r + i.
CommSchedule pairwise_alltoall(int ranks) {
  CommSchedule s;
  for (int i = 1; i < ranks; ++i) {
    CommPhase phase;
    for (int r = 0; r < ranks; ++r) phase.messages.push_back({r, (r + i) % ranks, kBytes});
    s.phases.push_back(phase);
  }
  return s;
}

}  // namespace

TEST_CASE("congestion: two messages over one shared link take twice one message's time") {
  const RoutedNetwork routed(two_level(2, false), "shortest");
  const ProcessGraph graph(4);
  CommSchedule schedule;
  schedule.phases.push_back({{{0, 2, kBytes}, {1, 3, kBytes}}, 3});
  MappingProblem p = problem_on(routed, graph, schedule);
  const Placement identity{0, 1, 2, 3};
  CHECK(congestion(p, identity) == doctest::Approx(3 * 2 * kBytes / kBandwidth));
  CHECK(congestion_bound(p, identity) == doctest::Approx(3 * 2 * kBytes / kBandwidth));
  p.routes_fixed = false;  // paths chosen per message: only the node links are sure
  CHECK(congestion_bound(p, identity) == doctest::Approx(3 * kBytes / kBandwidth));
  // Across the link as pairs on one switch: the link carries nothing, each node link one message.
  const Placement paired{0, 2, 1, 3};
  CHECK(congestion(p, paired) == doctest::Approx(3 * kBytes / kBandwidth));
}

TEST_CASE("congestion: a leaf-spine all-to-all sees the steps that a job total cannot") {
  const RoutedNetwork routed(two_level(2, true), "shortest");
  const ProcessGraph graph(4);
  const CommSchedule schedule = pairwise_alltoall(4);
  const MappingProblem p = problem_on(routed, graph, schedule);
  // Contiguous (ranks 0, 1 on leaf 0): steps 1 and 3 put one message on each up-link, step 2 two.
  const Placement contiguous{0, 1, 2, 3};
  CHECK(congestion(p, contiguous) == doctest::Approx(4 * kBytes / kBandwidth));
  // Interleaved: steps 1 and 3 put two messages on each up-link, step 2 stays on the leaves (one per node link).
  const Placement interleaved{0, 2, 1, 3};
  CHECK(congestion(p, interleaved) == doctest::Approx(5 * kBytes / kBandwidth));
  // The job's totals are the same: four messages on each up-link, three out of each node.
  CHECK(congestion_bound(p, contiguous) == doctest::Approx(4 * kBytes / kBandwidth));
  CHECK(congestion_bound(p, interleaved) == doctest::Approx(4 * kBytes / kBandwidth));
}

TEST_CASE("congestion: a shift by two on a ring under dimension order loads each channel twice") {
  const RoutedNetwork routed(make_network("torus:8"), "ecube");
  const Network& net = routed.network();
  const ProcessGraph graph(8);
  CommSchedule schedule;
  schedule.phases.emplace_back();
  for (int r = 0; r < 8; ++r) schedule.phases[0].messages.push_back({r, (r + 2) % 8, kBytes});
  const MappingProblem p = problem_on(routed, graph, schedule);
  Placement identity(8);
  for (int r = 0; r < 8; ++r) identity[r] = r;
  const double expected = std::max(2 * kBytes / net.link(0).bandwidth, kBytes / net.node(0).bandwidth);
  CHECK(congestion(p, identity) == doctest::Approx(expected));
  CHECK(congestion_bound(p, identity) == doctest::Approx(expected));
}

TEST_CASE("congestion without a schedule: the graph's edges both ways, one phase") {
  const RoutedNetwork routed(two_level(2, false), "shortest");
  ProcessGraph graph(4);
  graph.add_edge(0, 2, kBytes);
  graph.add_edge(1, 3, kBytes);
  const MappingProblem p = make_problem(routed, graph, "all", 1, 1);
  CHECK(congestion(p, Placement{0, 1, 2, 3}) == doctest::Approx(2 * kBytes / kBandwidth));
}

TEST_CASE("best keeps the fastest of the candidates it simulates, and reports every candidate") {
  const RoutedNetwork routed(make_network("irregular:nodes=32,switches=10,seed=3"));
  const ProcessGraph graph = make_process_graph("mesh:4x4");
  const CommSchedule schedule = pairwise_alltoall(16);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    MappingProblem p = make_problem(routed, graph, "random", 1, seed);
    p.schedule = &schedule;
    // A stand-in for the simulation: any deterministic function of the placement will do.
    int simulations = 0;
    p.simulate = [&](const Placement& placement, const std::string&) {
      ++simulations;
      double h = 0;
      for (size_t t = 0; t < placement.size(); ++t) h += static_cast<double>((placement[t] * 7919 + t * 31) % 101);
      return h;
    };
    PortfolioReport report;
    p.portfolio = &report;
    const Placement chosen = make_mapper("best:verify=3")->map(p);
    check_placement(p, chosen);
    CHECK(report.objective == "congestion");
    REQUIRE(report.candidates.size() >= 8);
    // Near ties (within 1 % of the leader) lead, in any order; the rest by score.
    double leader = report.candidates.front().score;
    for (const PortfolioCandidate& c : report.candidates) leader = std::min(leader, c.score);
    size_t tied = 0;
    while (tied < report.candidates.size() && report.candidates[tied].score <= leader * 1.01) ++tied;
    for (size_t i = tied; i < report.candidates.size(); ++i) CHECK(report.candidates[i].score > leader * 1.01);
    // The top three, near ties up to 9, and the placements users pick.
    const size_t simulated = std::max<size_t>(3, std::min<size_t>(tied, 9));
    int simulated_count = 0;
    for (const PortfolioCandidate& c : report.candidates) {
      simulated_count += c.makespan >= 0;
      if (c.name == "default" || c.name == "random" || c.name == "random:unit=switch" || c.name == "round-robin:unit=switch")
        CHECK(c.makespan >= 0);
    }
    CHECK(simulations == simulated_count);
    const auto winner = std::find_if(report.candidates.begin(), report.candidates.end(), [](const auto& c) { return c.chosen; });
    REQUIRE(winner != report.candidates.end());
    CHECK(winner->makespan == p.simulate(chosen, ""));
    for (size_t i = 0; i < report.candidates.size(); ++i) {
      if (i > tied) CHECK(report.candidates[i - 1].score <= report.candidates[i].score);  // ranked by the objective
      if (i < simulated) CHECK(report.candidates[i].makespan >= 0);
      if (report.candidates[i].makespan >= 0) CHECK(winner->makespan <= report.candidates[i].makespan);
    }
    // Without a simulation, the best-ranked candidate.
    p.simulate = nullptr;
    const Placement ranked = make_mapper("best")->map(p);
    CHECK(report.candidates.front().chosen);
    CHECK(congestion(p, ranked) == doctest::Approx(report.candidates.front().score));
    CHECK(congestion(p, ranked) <= leader * 1.01);
  }
}

TEST_CASE("best: an unknown objective is an error") {
  CHECK_THROWS_WITH_AS(make_mapper("best:objective=speed"),
                       doctest::Contains("objective 'speed': expected hop-bytes, max-link-load, congestion or makespan"), Error);
  CHECK_THROWS_WITH_AS(make_mapper("annealing:objective=latency"), doctest::Contains("annealing: objective 'latency'"), Error);
}

TEST_CASE("best on a partial allocation is at least as good as annealing on the static cost") {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const RoutedNetwork routed(make_network("irregular:nodes=64,switches=20,seed=" + std::to_string(seed)));
    const ProcessGraph graph = make_process_graph("mesh:4x4x2");
    const MappingProblem p = make_problem(routed, graph, "random", 1, seed);
    CAPTURE(seed);
    CHECK(evaluate(p, make_mapper("best:annealing=50")->map(p)).gamma_c <=
          evaluate(p, make_mapper("annealing:moves=50")->map(p)).gamma_c);
  }
}

TEST_CASE("expected split: where the simulation picks paths, a message shares the equal-cost up-links") {
  // Two leaves of two nodes, two spines; node links four times as fast as switch links.
  Network net;
  for (const char* name : {"leaf0", "leaf1", "spine0", "spine1"}) net.add_switch(name, 4, 0);
  for (int n = 0; n < 4; ++n) net.add_node("n" + std::to_string(n), n / 2, 4 * kBandwidth, 0);
  for (int leaf : {0, 1})
    for (int spine : {2, 3}) net.add_link(leaf, spine, kBandwidth, 0);
  const RoutedNetwork routed(std::move(net), "minhop");
  const ProcessGraph graph(4);
  CommSchedule schedule;
  schedule.phases.push_back({{{0, 2, kBytes}}, 1});
  MappingProblem p = problem_on(routed, graph, schedule);
  const Placement identity{0, 1, 2, 3};
  CHECK(busiest_port(p, identity) == doctest::Approx(kBytes / kBandwidth));  // one fixed route: whole on its links
  p.routes_fixed = false;                                                     // ECMP: half over each spine
  CHECK(busiest_port(p, identity) == doctest::Approx(0.5 * kBytes / kBandwidth));
  CHECK(congestion(p, identity) == doctest::Approx(0.5 * kBytes / kBandwidth));
}

namespace {

// A random multi-phase schedule of `ranks` ranks: every phase a few random messages, some repeated.
CommSchedule random_schedule(int ranks, Rng& rng) {
  CommSchedule s;
  for (int phase = 0; phase < 6; ++phase) {
    CommPhase p;
    for (int m = 0; m < ranks; ++m) {
      const int from = static_cast<int>(rng.below(ranks)), to = static_cast<int>(rng.below(ranks));
      if (from != to) p.messages.push_back({from, to, kBytes * (1 + static_cast<double>(rng.below(4)))});
    }
    p.repeat = 1 + static_cast<double>(rng.below(3));
    s.phases.push_back(p);
  }
  return s;
}

}  // namespace

TEST_CASE("load objectives: every move's change equals the recomputed change, on fixed and spread routes") {
  struct Case {
    const char* network;
    const char* routing;
    bool fixed;
  };
  for (const Case& c : {Case{"fattree:nodes=32,radix=8,levels=2,oversubscription=2", "default", true},
                        Case{"dragonfly:a=4,p=2,h=2", "ugal-g", false}, Case{"dragonfly:a=4,p=2,h=2", "minimal", false},
                        Case{"torus:4x4", "ecube", true}, Case{"irregular:nodes=24,switches=8,seed=2", "updn", false}}) {
    const RoutedNetwork routed(make_network(c.network), c.routing);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Rng rng(seed);
      const int ranks = routed.network().num_nodes() * 2 / 3;  // with 2 slots a node, free slots remain
      const ProcessGraph graph(ranks);
      const CommSchedule schedule = random_schedule(ranks, rng);
      MappingProblem p = make_problem(routed, graph, "all", 2, seed);
      p.schedule = &schedule;
      p.routes_fixed = c.fixed;
      for (Objective objective : {Objective::Congestion, Objective::MaxLinkLoad}) {
        CAPTURE(c.network);
        CAPTURE(c.routing);
        CAPTURE(objective_name(objective));
        Placement start = make_mapper("random")->map(p);
        LoadObjective load(p, objective, start);
        SlotOccupancy slots(p, start);
        CHECK(load.value() == doctest::Approx(objective_value(p, start, objective)).epsilon(1e-9));
        for (int move = 0; move < 60; ++move) {
          const int u = static_cast<int>(rng.below(ranks));
          const int s = static_cast<int>(rng.below(static_cast<uint64_t>(slots.slots())));
          const int to = slots.node(s), x = slots.occupant(s);
          Placement after = load.placement();
          if (x >= 0) after[x] = after[u];
          after[u] = to;
          const double before = objective_value(p, load.placement(), objective);
          const double change = load.delta(u, to, x);
          CHECK(change == doctest::Approx(objective_value(p, after, objective) - before).epsilon(1e-9).scale(before));
          if (move % 2 == 0) {
            load.apply(u, to, x);
            slots.move(u, to, x);
            CHECK(load.placement() == after);
            CHECK(load.value() == doctest::Approx(objective_value(p, after, objective)).epsilon(1e-9));
          }
        }
        check_placement(p, load.placement());
      }
    }
  }
}

TEST_CASE("annealing on congestion finds the best of every placement of a leaf-spine all-to-all") {
  const RoutedNetwork routed(two_level(2, true), "shortest");
  const ProcessGraph graph(4);
  const CommSchedule schedule = pairwise_alltoall(4);
  MappingProblem p = problem_on(routed, graph, schedule);
  Placement permutation{0, 1, 2, 3};
  double optimum = 1e300;
  do optimum = std::min(optimum, congestion(p, permutation));
  while (std::next_permutation(permutation.begin(), permutation.end()));
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    p.seed = seed;
    const Placement placed = make_mapper("annealing:objective=congestion,moves=50")->map(p);
    check_placement(p, placed);
    CHECK(congestion(p, placed) == doctest::Approx(optimum));
  }
}

TEST_CASE("objective search never makes a placement worse, and annealing's makespan objective needs a workload") {
  const RoutedNetwork routed(make_network("dragonfly:a=4,p=2,h=2"));
  const ProcessGraph graph(20);
  const CommSchedule schedule = pairwise_alltoall(20);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    MappingProblem p = make_problem(routed, graph, "random", 1, seed);
    p.schedule = &schedule;
    for (Objective objective : {Objective::Congestion, Objective::MaxLinkLoad}) {
      Placement placement = make_mapper("default")->map(p);
      const double before = objective_value(p, placement, objective);
      const double after = search_objective(p, objective, placement, {}, seed);
      check_placement(p, placement);
      CHECK(after == doctest::Approx(objective_value(p, placement, objective)));
      CHECK(after <= before * (1 + 1e-9));
    }
    CHECK_THROWS_AS(make_mapper("annealing:objective=makespan")->map(p), NotApplicable);
  }
}

TEST_CASE("objective search: a work budget bounds the evaluations (one evaluation: at most one move)") {
  const RoutedNetwork routed(make_network("dragonfly:a=4,p=2,h=2"));
  const ProcessGraph graph(20);
  const CommSchedule schedule = pairwise_alltoall(20);
  MappingProblem p = make_problem(routed, graph, "random", 1, 3);
  p.schedule = &schedule;
  const Placement start = make_mapper("default")->map(p);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Placement placement = start;
    SearchLimits limits;
    limits.max_work = 1;  // less than one evaluation's writes: one evaluation
    search_objective(p, Objective::Congestion, placement, limits, seed);
    int moved = 0;
    for (size_t t = 0; t < start.size(); ++t) moved += placement[t] != start[t];
    CHECK(moved <= 2);
  }
}
