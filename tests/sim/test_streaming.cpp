// Streaming replay (issue 34): a generated workload and a TI index of per-rank files read as the
// ranks advance give the SimResult of the trace held whole; a bad line deep in a rank's file is a
// FILE:LINE Error; the mappers' phase schedule, read step by step across the ranks, is the one built
// from every rank's steps whole.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>
#include <nlohmann/json.hpp>

#include "sim/internal/sample_store.h"
#include "sim/simulate.h"
#include "sim/transport.h"
#include "support/random.h"
#include "sim/workload.h"
#include "comparable_result.h"
#include "support/error.h"
#include "test_files.h"
#include "topologies/network_factory.h"
#include "traces/action_ops.h"
#include "traces/trace_source.h"

using namespace mapsim;

namespace {

SimOptions recording(const std::string& model) {
  SimOptions o;
  o.model = model;
  o.record_messages = true;
  o.record_timeline = true;
  return o;
}

void same_actions(const Trace& a, const Trace& b) {
  REQUIRE(a.num_ranks() == b.num_ranks());
  for (int r = 0; r < a.num_ranks(); ++r) {
    REQUIRE(a.ranks[r].actions.size() == b.ranks[r].actions.size());
    CHECK(a.ranks[r].counts == b.ranks[r].counts);
    for (size_t k = 0; k < a.ranks[r].actions.size(); ++k) {
      const Action &x = a.ranks[r].actions[k], &y = b.ranks[r].actions[k];
      CHECK(std::tie(x.type, x.distant, x.peer, x.tag, x.root, x.bytes, x.bytes2, x.flops, x.counts, x.line, x.datatype,
                     x.datatype2) == std::tie(y.type, y.distant, y.peer, y.tag, y.root, y.bytes, y.bytes2, y.flops,
                                              y.counts, y.line, y.datatype, y.datatype2));
    }
  }
}

Placement identity(int n) {
  Placement p(n);
  for (int r = 0; r < n; ++r) p[r] = r;
  return p;
}

}  // namespace

TEST_CASE("a generated workload replays as the one built whole: every pattern, several seeds, three models") {
  const RoutedNetwork routed(make_network("irregular:nodes=16,switches=6,seed=3"));
  const ProcessGraph mesh = make_process_graph("pattern:mesh:4x4,distant=0.2,seed=2");
  for (const std::string spec : {"exchange:iterations=3,compute=1e5", "exchange:size=100000,iterations=4",
                                 "alltoall:size=5000,iterations=2", "permutation:size=70000,seed=1,iterations=5",
                                 "permutation:size=1000,seed=7,iterations=6"}) {
    CAPTURE(spec);
    const Trace whole = make_workload(spec, mesh);
    const auto source = make_workload_source(spec, mesh);
    same_actions(whole, materialize(*source));
    CHECK(source->total_actions() == TraceView(whole).total_actions());
    for (const std::string model : {"store-and-forward", "flow", "packet"}) {
      CAPTURE(model);
      CHECK(comparable(simulate(routed, identity(16), whole, recording(model))) ==
            comparable(simulate(routed, identity(16), *source, recording(model))));
    }
    // The mappers' inputs, from a pass over the source.
    CHECK(task_traffic(whole).size() == task_traffic(*source).size());
    CHECK(communication_schedule(whole).phases.size() == communication_schedule(*source).phases.size());
  }
}

TEST_CASE("a TI index of per-rank files streams in windows and replays as the trace read whole") {
  const RoutedNetwork routed(make_network("irregular:nodes=16,switches=6,seed=5"));
  const ProcessGraph mesh = make_process_graph("mesh:4x4");
  const std::string dir = temp_path("stream-ti");
  for (const std::string spec : {"exchange:size=80000,iterations=7,compute=1e4", "permutation:size=3000,seed=4,iterations=9"}) {
    CAPTURE(spec);
    const std::string index = write_ti_trace(make_workload(spec, mesh), dir + spec.substr(0, 4));
    const Trace whole = read_ti_trace(index);
    for (int window : {1, 3, 0}) {  // windows shorter than a rank's file: read on from saved offsets
      CAPTURE(window);
      const auto source = open_ti_trace(index, false, window);
      CHECK(source->whole() == nullptr);
      same_actions(whole, materialize(*source));
      CHECK(source->total_actions() == TraceView(whole).total_actions());
      CHECK(comparable(simulate(routed, identity(16), whole, recording("store-and-forward"))) ==
            comparable(simulate(routed, identity(16), *source, recording("store-and-forward"))));
    }
  }
  // v-collectives carry their counts through the window's pool.
  std::filesystem::create_directories(dir + "-v");
  std::ofstream(dir + "-v/index.txt") << "r0.txt\nr1.txt\nr2.txt\n";
  for (int r = 0; r < 3; ++r) {
    std::ofstream out(dir + "-v/r" + std::to_string(r) + ".txt");
    out << r << " init\n";
    for (int k = 0; k < 5; ++k)
      out << r << " alltoallv 6 " << 1 + r << " 2 3 6 " << 1 + k << " 2 3\n"
          << r << " gatherv " << 10 + r << " 10 11 12 1\n"
          << r << " allreduce 100 10\n";
    out << r << " finalize\n";
  }
  const Trace whole = read_ti_trace(dir + "-v/index.txt");
  const auto source = open_ti_trace(dir + "-v/index.txt", false, 2);
  same_actions(whole, materialize(*source));
  const RoutedNetwork small(make_network("mesh:3x1"));
  CHECK(comparable(simulate(small, identity(3), whole, recording("flow"))) ==
        comparable(simulate(small, identity(3), *source, recording("flow"))));
}

TEST_CASE("a malformed line deep in a rank's file: the replay that reaches it fails with FILE:LINE, no result") {
  const RoutedNetwork routed(make_network("irregular:nodes=16,switches=6,seed=5"));
  const ProcessGraph mesh = make_process_graph("mesh:4x4");
  const std::string dir = temp_path("stream-bad");
  const std::string index = write_ti_trace(make_workload("exchange:size=1000,iterations=40", mesh), dir);
  const std::string file = dir + "/rank-5.txt";
  std::vector<std::string> lines;
  {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  REQUIRE(lines.size() > 150);
  lines[149] = "5 isend 6 0 lots";
  {
    std::ofstream out(file);
    for (const std::string& line : lines) out << line << "\n";
  }
  const auto source = open_ti_trace(index, false, 4);  // opens: the index only
  for (const std::string model : {"store-and-forward", "flow"})
    CHECK_THROWS_WITH_AS(simulate(routed, identity(16), *source, recording(model)),
                         (std::filesystem::path(file).string() + ":150: expected size, got 'lots'").c_str(), Error);
  // The passes (the mappers' inputs) find it too, as reading it whole does.
  CHECK_THROWS_WITH_AS(trace_process_graph(*source), (file + ":150: expected size, got 'lots'").c_str(), Error);
  CHECK_THROWS_WITH_AS(read_ti_trace(index), (file + ":150: expected size, got 'lots'").c_str(), Error);
  // A rank file that is gone: named with the index line that names it.
  std::filesystem::remove(dir + "/rank-9.txt");
  CHECK_THROWS_WITH_AS(simulate(routed, identity(16), *open_ti_trace(index), recording("flow")),
                       doctest::Contains("rank-9.txt"), Error);
}

TEST_CASE("latencies kept in sorted runs on disk summarise as the values held in memory") {
  Rng rng(5);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, sim::SampleStore::kRun, 3 * sim::SampleStore::kRun + 12345}) {
    CAPTURE(n);
    sim::SampleStore a, b;
    std::vector<double> all, only_a;
    for (size_t i = 0; i < n; ++i) {
      const double v = i % 5 == 0 ? 1e-6 * (i % 17) : rng.uniform() * std::pow(10, -static_cast<int>(i % 7));
      all.push_back(v);
      if (i % 3) {
        a.add(v);
        only_a.push_back(v);
      } else {
        b.add(v);
      }
    }
    auto same = [](const LatencyStats& x, const LatencyStats& y) {
      CHECK(x.count == y.count);
      CHECK(x.mean == y.mean);
      CHECK(x.p50 == y.p50);
      CHECK(x.p99 == y.p99);
      CHECK(x.max == y.max);
    };
    same(sim::summarise({&a, &b}), sim::summarise(all));
    same(sim::summarise({&a}), sim::summarise(only_a));
  }
}

TEST_CASE("a shared TI file streams from an index of each rank's runs of lines, ranks in blocks or interleaved") {
  const RoutedNetwork routed(make_network("irregular:nodes=16,switches=6,seed=5"));
  const ProcessGraph mesh = make_process_graph("mesh:4x4");
  const std::string index = write_ti_trace(make_workload("exchange:size=80000,iterations=5,compute=1e4", mesh),
                                           temp_path("stream-shared-dir"));
  const std::string blocks = convert_ti_trace(index, false, temp_path("stream-shared.txt"), true);
  // The same lines, ranks alternating line by line, with comments between and a byte-order mark.
  const Trace whole = read_ti_trace(blocks);
  std::vector<std::vector<std::string>> lines(16);
  {
    std::ifstream in(blocks);
    for (std::string line; std::getline(in, line);) lines[std::stoi(line)].push_back(line);
  }
  std::string text = "\xEF\xBB\xBF# interleaved\n";
  size_t longest = 0;
  for (const auto& rank : lines) longest = std::max(longest, rank.size());
  for (size_t k = 0; k < longest; ++k)
    for (int r = 0; r < 16; ++r)
      if (k < lines[r].size()) text += lines[r][k] + (k % 3 ? "\n" : "\n# step\n");
  const std::string interleaved = temp_file("stream-interleaved.txt", text);
  for (const std::string& path : {blocks, interleaved}) {
    CAPTURE(path);
    const Trace read = read_ti_trace(path);
    for (int window : {1, 5, 0}) {
      const auto source = open_ti_trace(path, false, window);
      CHECK(source->whole() == nullptr);
      CHECK(source->total_actions() == TraceView(read).total_actions());
      same_actions(read, materialize(*source));
      CHECK(comparable(simulate(routed, identity(16), read, recording("store-and-forward"))) ==
            comparable(simulate(routed, identity(16), *source, recording("store-and-forward"))));
    }
  }
  // A malformed line deep in the shared file: FILE:LINE from the replay and from the pass.
  text.replace(text.find("5 isend 6", text.size() / 2), 9, "5 isend 66");
  const std::string bad = temp_file("stream-interleaved-bad.txt", text);
  std::string expected;
  try {
    read_ti_trace(bad);
  } catch (const Error& e) {
    expected = e.what();
  }
  REQUIRE(expected.find("destination rank 66 is out of range") != std::string::npos);
  CHECK_THROWS_WITH_AS(simulate(routed, identity(16), *open_ti_trace(bad, false, 2), recording("flow")), expected.c_str(), Error);
  CHECK_THROWS_WITH_AS(trace_process_graph(*open_ti_trace(bad)), expected.c_str(), Error);
}

namespace {

// The schedule as communication_schedule() built it before it read step by step: every rank's steps
// whole, rank after rank, then deduplicated in step order.
CommSchedule reference_schedule(const TraceSource& source, const CollectiveChoice& choice, long max_messages) {
  std::vector<std::vector<std::tuple<int, int, double>>> steps;
  long messages = 0;
  std::vector<Op> ops;
  const int n = source.num_ranks();
  const auto stream = source.open();
  for (int r = 0; r < n; ++r) {
    size_t step = 0;
    bool sent = false;
    while (const Action* a = stream->next(r)) {
      ops.clear();
      expand_action(*a, stream->context(r), r, n, ops, choice);
      for (const Op& op : ops) {
        if (op.kind == Op::Isend && op.peer != r) {
          if (steps.size() <= step) steps.resize(step + 1);
          steps[step].emplace_back(r, op.peer, op.amount);
          sent = true;
          ++messages;
        } else if (sent && (op.kind == Op::WaitGroup || op.kind == Op::WaitKey || op.kind == Op::WaitAll)) {
          ++step;
          sent = false;
        }
      }
    }
  }
  CommSchedule schedule;
  if (messages > max_messages) {
    schedule.phases.emplace_back();
    for (const TaskTraffic& t : task_traffic(source, choice)) schedule.phases[0].messages.push_back({t.from, t.to, t.bytes});
    return schedule;
  }
  std::map<std::vector<std::tuple<int, int, double>>, size_t> seen;
  for (auto& step : steps) {
    std::sort(step.begin(), step.end());
    auto [it, inserted] = seen.emplace(step, schedule.phases.size());
    if (!inserted) {
      schedule.phases[it->second].repeat += 1;
      continue;
    }
    CommPhase phase;
    for (const auto& [from, to, bytes] : step) phase.messages.push_back({from, to, bytes});
    schedule.phases.push_back(std::move(phase));
  }
  return schedule;
}

long schedule_messages(const CommSchedule& s) {
  long total = 0;
  for (const CommPhase& p : s.phases) total += static_cast<long>(p.messages.size() * p.repeat);
  return total;
}

void same_schedule(const CommSchedule& a, const CommSchedule& b) {
  REQUIRE(a.phases.size() == b.phases.size());
  for (size_t k = 0; k < a.phases.size(); ++k) {
    CAPTURE(k);
    CHECK(a.phases[k].repeat == b.phases[k].repeat);
    REQUIRE(a.phases[k].messages.size() == b.phases[k].messages.size());
    for (size_t m = 0; m < a.phases[k].messages.size(); ++m) {
      const PhaseMessage &x = a.phases[k].messages[m], &y = b.phases[k].messages[m];
      CHECK(std::tie(x.from, x.to, x.bytes) == std::tie(y.from, y.to, y.bytes));
    }
  }
}

// The schedule read step by step equals the reference, and so does its fallback to the job's totals
// when the limit is one message short of the total.
void check_schedule(const TraceSource& source, const CollectiveChoice& choice = {}) {
  const CommSchedule expected = reference_schedule(source, choice, kMaxScheduleMessages);
  REQUIRE(!expected.phases.empty());
  CHECK((expected.phases.size() > 1 || expected.phases[0].repeat > 1));  // several steps
  same_schedule(communication_schedule(source, choice), expected);
  const long total = schedule_messages(expected);
  same_schedule(communication_schedule(source, choice, total), expected);
  const CommSchedule totals = communication_schedule(source, choice, total - 1);
  CHECK(totals.phases.size() == 1);
  same_schedule(totals, reference_schedule(source, choice, total - 1));
  // The bytes summed in the same pass are task_traffic's (its own pass, rank by rank), to the bit,
  // with the phases and with the fallback (which reads the rest of every rank after the limit).
  const auto as_tuples = [](const std::vector<TaskTraffic>& traffic) {
    std::vector<std::tuple<int, int, double>> out;
    for (const TaskTraffic& t : traffic) out.emplace_back(t.from, t.to, t.bytes);
    return out;
  };
  const auto traffic = as_tuples(task_traffic(source, choice));
  REQUIRE(!traffic.empty());
  for (const long limit : {kMaxScheduleMessages, total - 1, 1L}) {
    CAPTURE(limit);
    const WorkloadTraffic both = workload_traffic(source, choice, limit);
    CHECK(as_tuples(both.traffic) == traffic);
    same_schedule(both.schedule, reference_schedule(source, choice, limit));
  }
}

}  // namespace

TEST_CASE("the schedule read step by step across the ranks is the one built from every rank's steps whole") {
  const ProcessGraph mesh = make_process_graph("pattern:mesh:4x4,distant=0.2,seed=2");
  for (const std::string spec : {"exchange:size=100000,iterations=4", "alltoall:size=5000,iterations=3",
                                 "permutation:size=1000,seed=7,iterations=6"}) {
    CAPTURE(spec);
    check_schedule(*make_workload_source(spec, mesh));
    check_schedule(TraceView(make_workload(spec, mesh)));
  }
  // Collectives that run a rank several steps at once (pairwise alltoall, recursive doubling, trees),
  // and ranks with different numbers of steps: rank 0 sends five times, ranks 1 to 3 once or twice,
  // and rank 3 ends on sends it never waits for; ranks 4 to 7 only take part in the collectives.
  std::string text;
  for (int r = 0; r < 8; ++r) {
    const std::string p = std::to_string(r) + " ";
    text += p + "init\n";
    if (r == 0)
      for (int k = 0; k < 5; ++k) text += p + "isend 1 " + std::to_string(k) + " 100\n" + p + "wait 0 1 " + std::to_string(k) + "\n";
    if (r == 1) {
      for (int k = 0; k < 5; ++k) text += p + "irecv 0 " + std::to_string(k) + " 100\n";
      text += p + "waitall\n" + p + "isend 2 9 50\n" + p + "isend 3 9 70\n" + p + "waitall\n";
    }
    if (r == 2) text += p + "irecv 1 9 50\n" + p + "waitall\n" + p + "isend 3 8 30\n" + p + "wait 2 3 8\n";
    if (r == 3) text += p + "irecv 1 9 70\n" + p + "irecv 2 8 30\n" + p + "waitall\n";
    text += p + "alltoall 100 100\n" + p + "allreduce 1000 10\n" + p + "bcast 500 2\n" + p + "barrier\n";
    if (r == 3) text += p + "isend 4 5 20\n" + p + "isend 5 5 20\n";
    if (r == 4 || r == 5) text += p + "irecv 3 5 20\n" + p + "waitall\n";
    text += p + "finalize\n";
  }
  const std::string file = temp_file("schedule.txt", text);
  for (const std::string choice : {"", "alltoall=bruck,allreduce=rab_rdb", "bcast=ompi,barrier=ompi_tree"}) {
    CAPTURE(choice);
    const CollectiveChoice collectives = parse_collectives(choice);
    check_schedule(TraceView(read_ti_trace(file)), collectives);
    check_schedule(*open_ti_trace(file, false, 1), collectives);  // windows of one action: read on from offsets
  }
}
