// Several jobs in one simulation (JobSpan): each job its own world, started at its time or after
// another job; the background traffic trace.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "sim/background.h"
#include "sim/simulate.h"
#include "sim/workload.h"
#include "support/error.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

const char* kLine = "mesh:8x1,nodes_per_router=2";  // node 2s+i on switch s

Trace concatenated(const Trace& a, const Trace& b) {
  Trace t = a;
  t.ranks.insert(t.ranks.end(), b.ranks.begin(), b.ranks.end());
  return t;
}

SimResult run(const RoutedNetwork& routed, const Placement& placement, const Trace& trace, const std::string& model,
              const std::vector<JobSpan>& jobs = {}) {
  SimOptions options;
  options.model = model;
  options.fifo_ties = true;  // without it, simultaneous events of one job are served in an order the other shifts
  return simulate(routed, placement, trace, options, jobs);
}

}  // namespace

TEST_CASE("jobs: each job is its own world; a job after another starts at its end") {
  RoutedNetwork routed(make_network(kLine));
  // A 4-rank job with an allreduce and a ring exchange: its ranks are 0..3 in its own numbering.
  const Trace job = make_workload("exchange:size=100000,iterations=2", make_process_graph("ring:4"));
  const Trace collective = read_ti_trace(temp_file("jobs-allreduce.txt",
                                                   "0 init\n0 allreduce 100000 0\n1 init\n1 allreduce 100000 0\n"
                                                   "2 init\n2 allreduce 100000 0\n3 init\n3 allreduce 100000 0\n"));
  for (const Trace& one : {job, collective})
    for (const std::string model : {"flow", "store-and-forward", "packet"}) {
      CAPTURE(model);
      CAPTURE(one.ranks[0].actions.size());
      const Placement first = {0, 1, 2, 3}, second = {12, 13, 14, 15};
      const double alone_first = run(routed, first, one, model).makespan;
      const double alone_second = run(routed, second, one, model).makespan;
      Placement both = first;
      both.insert(both.end(), second.begin(), second.end());
      const Trace two = concatenated(one, one);
      // Disjoint ends of the line, no link in common: each runs as alone.
      SimResult r = run(routed, both, two, model, {{0, 4, 0, -1}, {4, 4, 0, -1}});
      CHECK(*std::max_element(r.rank_finish.begin(), r.rank_finish.begin() + 4) == doctest::Approx(alone_first).epsilon(1e-12));
      CHECK(*std::max_element(r.rank_finish.begin() + 4, r.rank_finish.end()) == doctest::Approx(alone_second).epsilon(1e-12));
      // The second after the first, 1 ms later: it starts at the first's end + 1 ms.
      r = run(routed, both, two, model, {{0, 4, 0, -1}, {4, 4, 1e-3, 0}});
      REQUIRE(r.job_start.size() == 2);
      CHECK(r.job_start[0] == 0);
      CHECK(r.job_start[1] == doctest::Approx(alone_first + 1e-3).epsilon(1e-12));
      CHECK(r.makespan == doctest::Approx(alone_first + 1e-3 + alone_second).epsilon(1e-12));
      // A start time delays the job's ranks only.
      r = run(routed, both, two, model, {{0, 4, 0, -1}, {4, 4, 5e-3, -1}});
      CHECK(r.makespan == doctest::Approx(5e-3 + alone_second).epsilon(1e-12));
    }
}

TEST_CASE("jobs: spans are checked") {
  RoutedNetwork routed(make_network(kLine));
  const Trace job = make_workload("exchange", make_process_graph("ring:2"));
  const Trace two = concatenated(job, job);
  auto refused = [&](const std::vector<JobSpan>& jobs, const std::string& words) {
    try {
      run(routed, {0, 1, 2, 3}, two, "flow", jobs);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
  };
  refused({{0, 2, 0, -1}}, "the jobs hold 2 ranks but the trace has 4");
  refused({{0, 2, 0, -1}, {1, 3, 0, -1}}, "consecutive");
  refused({{0, 2, -1, -1}, {2, 2, 0, -1}}, ">= 0");
  refused({{0, 2, 0, 1}, {2, 2, 0, 0}}, "cycle");
  refused({{0, 2, 0, 0}, {2, 2, 0, -1}}, "another job");
}

TEST_CASE("background traffic: free nodes only, Poisson at the offered load, every send received") {
  const Network net = make_network("fattree:nodes=32,radix=8");
  std::vector<char> taken(32, 0);
  for (int n = 0; n < 8; ++n) taken[n] = 1;
  TrafficOptions traffic;
  traffic.pattern = "uniform";
  traffic.load = 0.25;
  traffic.message = 4096;
  const double duration = 2e-3;
  const BackgroundTraffic bg = background_traffic(net, taken, traffic, duration, 4096, 7);
  REQUIRE(bg.placement.size() == 24);
  std::multiset<std::pair<int, int>> sent, received;
  for (int r = 0; r < bg.trace.num_ranks(); ++r) {
    CHECK(!taken[bg.placement[r]]);
    double t = 0;
    for (const Action& a : bg.trace.ranks[r].actions) {
      if (a.type == ActionType::Sleep) t += a.flops;
      if (a.type == ActionType::Isend) sent.insert({r, a.peer});
      if (a.type == ActionType::Irecv) received.insert({a.peer, r});
    }
    CHECK(t <= duration);
    CHECK(t >= 0.95 * duration);  // the last message near the end: the gaps before unsent messages count too
  }
  CHECK(sent == received);
  CHECK(static_cast<long>(sent.size()) == bg.messages);
  // Expected: 24 nodes x load x 10 Gbit/s / 4096 B x duration, less the messages drawn to a job's node
  // (8 of the 31 other nodes): 24 x 76294 x 0.002 x 23/31 = 2717; Poisson, so within 10 %.
  CHECK(bg.messages == doctest::Approx(24 * 0.25 * 1.25e9 / 4096 * duration * 23.0 / 31).epsilon(0.1));
  // Replayed beside nothing, it ends: every message is received.
  RoutedNetwork routed(make_network("fattree:nodes=32,radix=8"));
  SimOptions options;
  options.model = "store-and-forward";
  const SimResult r = simulate(routed, bg.placement, bg.trace, options);
  CHECK(r.messages == bg.messages);
  // The same seed gives the same trace.
  CHECK(background_traffic(net, taken, traffic, duration, 4096, 7).messages == bg.messages);
}
