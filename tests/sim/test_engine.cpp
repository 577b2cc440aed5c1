// The engine against closed forms: zero-load latency, serialisation per model, contention on
// one link, eager vs rendezvous, deadlock diagnostics, collective message counts, determinism.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/simulate.h"
#include "sim/workload.h"
#include "test_files.h"
#include "support/error.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// A line of 8 switches (dimension-order routes) with 2 nodes each: node 2s+i on switch s.
const char* kLine = "mesh:8x1,nodes_per_router=2";
constexpr double ts = 2e-6, tp = 20e-9, tr = 300e-9, B = 1.25e9;

Trace trace_text(const std::string& name, const std::string& text) { return read_ti_trace(temp_file(name, text)); }

SimResult run(const RoutedNetwork& routed, const Placement& placement, const Trace& trace, std::string model,
              double eager = 65536) {
  SimOptions options;
  options.model = model;
  options.eager_threshold = eager;
  options.envelope = 0;  // the closed forms below count payload only
  return simulate(routed, placement, trace, options);
}

const std::string kModels[] = {"flow", "store-and-forward", "packet"};

}  // namespace

TEST_CASE("zero-load latency of a small message is t_s + d t_p + (d+1) t_r in every model") {
  RoutedNetwork routed(make_network(kLine));
  Trace trace = trace_text("zero.txt", "0 init\n0 send 1 0 0\n1 init\n1 recv 0 0 0\n");
  for (std::string model : kModels)
    for (int d = 0; d <= 6; ++d) {
      SimResult r = run(routed, {0, 2 * d + 1}, trace, model);
      const double expected = ts + d * tp + (d + 1) * tr;
      CAPTURE(model);
      CAPTURE(d);
      CHECK(std::fabs(r.makespan - expected) <= 1e-9 * expected);
      CHECK(std::fabs(r.latency.mean - expected) <= 1e-9 * expected);
      CHECK(r.zero_load_latency == doctest::Approx(expected).epsilon(1e-12));
      CHECK(r.messages == 1);
    }
}

TEST_CASE("one message: one serialisation (flow), d+2 (store-and-forward), pipelined packets") {
  RoutedNetwork routed(make_network(kLine));
  const double P = 4096, m = 3 * P;
  Trace trace = trace_text("one.txt", "0 init\n0 send 1 0 12288\n1 init\n1 recv 0 0 12288\n");
  for (int d = 0; d <= 6; ++d) {
    const double L = ts + d * tp + (d + 1) * tr;
    CAPTURE(d);
    CHECK(run(routed, {0, 2 * d + 1}, trace, "flow").makespan == doctest::Approx(L + m / B).epsilon(1e-9));
    CHECK(run(routed, {0, 2 * d + 1}, trace, "store-and-forward").makespan ==
          doctest::Approx(L + (d + 2) * m / B).epsilon(1e-9));
    CHECK(run(routed, {0, 2 * d + 1}, trace, "packet").makespan ==
          doctest::Approx(L + (d + 2) * P / B + 2 * P / B).epsilon(1e-9));
  }
}

TEST_CASE("two messages crossing one link are serialised") {
  // Nodes 0 and 1 (switch 0) send m bytes to nodes 2 and 3 (switch 1) at once: link 0->1 is shared.
  RoutedNetwork routed(make_network(kLine));
  const double P = 4096, k = 3, m = k * P, L = ts + tp + 2 * tr;
  Trace trace = trace_text("two.txt",
                           "0 send 2 0 12288\n1 send 3 0 12288\n2 recv 0 0 12288\n3 recv 1 0 12288\n");
  const Placement placement{0, 1, 2, 3};
  SimResult flow = run(routed, placement, trace, "flow");
  CHECK(flow.makespan == doctest::Approx(L + 2 * m / B).epsilon(1e-9));  // fair share B/2 each
  CHECK(flow.rank_finish[2] == doctest::Approx(flow.rank_finish[3]).epsilon(1e-12));
  SimResult saf = run(routed, placement, trace, "store-and-forward");
  CHECK(saf.makespan == doctest::Approx(L + 4 * m / B).epsilon(1e-9));  // the second waits one m/B
  CHECK(saf.latency.mean == doctest::Approx(L + 3.5 * m / B).epsilon(1e-9));
  SimResult packet = run(routed, placement, trace, "packet");
  CHECK(packet.makespan == doctest::Approx(L + (2 * k + 2) * P / B).epsilon(1e-9));
  for (const SimResult* r : {&flow, &saf, &packet}) {
    CHECK(r->channels[0].bytes == 2 * m);  // channel 0 runs switch 0 -> switch 1
    CHECK(r->max_link_load == 2 * m);
    CHECK(r->switch_bytes[1] == 2 * m);
  }
}

TEST_CASE("eager sends return at once, rendezvous sends when the data has arrived") {
  RoutedNetwork routed(make_network(kLine));
  Trace trace = trace_text("rdv.txt", "0 send 1 0 100000\n1 compute 1000000\n1 recv 0 0 100000\n");
  const double delivery = 1e-3 + ts + 2 * tp + 3 * tr + 100000 / B;  // the receive is posted after 1 ms
  SimResult rendezvous = run(routed, {0, 5}, trace, "flow");
  CHECK(rendezvous.rank_finish[0] == doctest::Approx(delivery).epsilon(1e-9));
  CHECK(rendezvous.rank_finish[1] == doctest::Approx(delivery).epsilon(1e-9));
  SimResult eager = run(routed, {0, 5}, trace, "flow", 1e6);
  CHECK(eager.rank_finish[0] == 0);
  CHECK(eager.rank_finish[1] == doctest::Approx(delivery).epsilon(1e-9));
}

TEST_CASE("ranks on one node exchange through memory, not the network") {
  RoutedNetwork routed(make_network(kLine));
  Trace trace = trace_text("local.txt", "0 send 1 0 1000\n1 recv 0 0 1000\n");
  SimResult r = run(routed, {3, 3}, trace, "store-and-forward");
  CHECK(r.makespan == doctest::Approx(ts + 1000 / 1e10).epsilon(1e-12));
  CHECK(r.max_link_load == 0);
  CHECK(r.node_out[3].bytes == 0);
}

TEST_CASE("deadlocks and inconsistent traces name the ranks and what they wait for") {
  RoutedNetwork routed(make_network(kLine));
  auto error_of = [&](const std::string& name, const std::string& text, std::string model, Placement placement = {0, 1}) {
    try {
      run(routed, placement, trace_text(name, text), model);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (std::string model : kModels) {
    CAPTURE(model);
    CHECK(error_of("dl1.txt", "0 recv 1 0 10\n1 recv 0 0 10\n", model) ==
          "deadlock at t=0s: rank 0 at " + temp_path("dl1.txt") + ":1 (recv) waits for recv from rank 1 tag 0; rank 1 at " +
              temp_path("dl1.txt") + ":2 (recv) waits for recv from rank 0 tag 0");
    // Two rendezvous sends towards each other block in MPI too.
    CHECK(error_of("dl2.txt", "0 send 1 7 100000\n0 recv 1 7 100000\n1 send 0 7 100000\n1 recv 0 7 100000\n", model)
              .find("rank 1 at " + temp_path("dl2.txt") + ":3 (send) waits for send to rank 0 tag 7 (100000 B, rendezvous)") !=
          std::string::npos);
    CHECK(error_of("dl3.txt", "0 isend 1 5 10\n0 finalize\n1 finalize\n", model) ==
          temp_path("dl3.txt") + ": inconsistent trace: a send from rank 0 to rank 1 tag 5 was never received");
    CHECK(error_of("dl4.txt", "0 irecv 1 5 10\n1 finalize\n", model) ==
          temp_path("dl4.txt") + ": inconsistent trace: rank 0 ended with a pending recv from rank 1 tag 5");
  }
  CHECK(error_of("dl5.txt", "0 init\n1 init\n", "flow", {0}) == "the trace has 2 ranks but the placement places 1");
}

TEST_CASE("collectives complete with MPICH's message counts for 1..9 ranks, any root") {
  RoutedNetwork routed(make_network("mesh:8x1,nodes_per_router=2"));
  for (int p = 1; p <= 9; ++p) {
    const int root = p / 2;
    int log2p = 0;
    while ((1 << log2p) < p) ++log2p;
    int pof2 = 1 << (log2p - ((1 << log2p) > p ? 1 : 0));
    std::string text;
    auto counts = [&](int value) {
      std::string s;
      for (int i = 0; i < p; ++i) s += " " + std::to_string(value + i);
      return s;
    };
    for (int r = 0; r < p; ++r) {
      const std::string R = std::to_string(r) + " ";
      text += R + "init\n" + R + "barrier\n" + R + "bcast 100 " + std::to_string(root) + "\n";
      text += R + "reduce 100 0 " + std::to_string(root) + "\n" + R + "allreduce 100 50\n";
      text += R + "alltoall 10 10\n" + R + "gather 10 10 " + std::to_string(root) + "\n";
      text += R + "scatter 10 10 " + std::to_string(root) + "\n" + R + "allgather 10 10\n";
      text += R + "gatherv 10" + counts(10) + " " + std::to_string(root) + "\n";
      text += R + "scatterv" + counts(10) + " 10 " + std::to_string(root) + "\n";
      text += R + "allgatherv 10" + counts(10) + "\n" + R + "reducescatter" + counts(10) + " 0\n";
      text += R + "scan 10 0\n" + R + "exscan 10 0\n";
      text += R + "alltoallv 100" + counts(1) + " 100" + counts(1) + "\n" + R + "finalize\n";
    }
    long scan = 0;
    for (int mask = 1; mask < p; mask <<= 1)
      for (int r = 0; r < p; ++r) scan += (r ^ mask) < p;
    const long expected = p * log2p              // barrier (dissemination)
                          + 2 * (p - 1)          // bcast, reduce (binomial)
                          + (pof2 * log2(pof2) + 2 * (p - pof2))  // allreduce (recursive doubling)
                          + p * (p - 1)          // alltoall (pairwise)
                          + 2 * (p - 1)          // gather, scatter (binomial)
                          + p * (p - 1)          // allgather (ring)
                          + 2 * (p - 1)          // gatherv, scatterv (linear)
                          + 2 * p * (p - 1)      // allgatherv (ring), reducescatter (pairwise)
                          + 2 * scan             // scan, exscan (recursive doubling)
                          + p * (p - 1);         // alltoallv (pairwise)
    Placement placement(p);
    for (int r = 0; r < p; ++r) placement[r] = r;
    Trace trace = trace_text("coll" + std::to_string(p) + ".txt", text);
    for (std::string model : kModels) {
      CAPTURE(p);
      SimResult r = run(routed, placement, trace, model);
      CHECK(r.messages == expected);
      CHECK(r.makespan > 0);
    }
  }
}

TEST_CASE("results are deterministic and the models agree on volumes") {
  RoutedNetwork routed(make_network("irregular:nodes=64,switches=20,seed=3"));
  ProcessGraph graph = make_process_graph("pattern:mesh:8x8,distant=0.2,seed=2");
  Trace trace = make_workload("exchange:size=3000,iterations=2", graph);
  Placement placement(64);
  for (int r = 0; r < 64; ++r) placement[r] = (r * 37) % 64;
  for (std::string model : kModels) {
    SimResult a = run(routed, placement, trace, model), b = run(routed, placement, trace, model);
    CHECK(a.makespan == b.makespan);
    CHECK(a.latency.mean == b.latency.mean);
    CHECK(a.rank_finish == b.rank_finish);
    CHECK(a.messages == 2 * 2 * static_cast<long>(graph.edges().size()));
    CHECK(a.distant_latency.count > 0);
    CHECK(a.neighbour_latency.count + a.distant_latency.count == a.messages);
    // Contention can only add to the zero-load latency.
    CHECK(a.latency.mean >= a.zero_load_latency + 3000 / B - 1e-15);
  }
}
