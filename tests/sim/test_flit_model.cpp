// The flit model against closed forms: zero-load latency over H hops (cut-through and wormhole), one
// flow's throughput with and without buffers that cover the credit round trip, round-robin sharing of
// an output, output queues (speedup into the queue, its bound, zero load unchanged), and a ring that
// deadlocks without its dateline VC and completes with it.
#include <doctest/doctest.h>

#include "sim/simulate.h"
#include "support/error.h"
#include "support/spec.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// 16-byte flits at 16 GB/s: one cycle is 1 ns. A hop costs the link's cycle plus t_r = 3 cycles (as
// BookSim's 3-stage router over a 1-cycle channel).
const std::string kLinks = ",link_bandwidth=16GB/s,node_bandwidth=16GB/s,t_s=1ns,t_p=0ns,t_r=3ns,node_latency=0ns";
constexpr double kCycle = 1e-9;

SimOptions flit_options(double mtu, const std::string& extra = "") {
  SimOptions options;
  options.model = "flit";
  options.envelope = 0;
  options.mtu = mtu;
  options.eager_threshold = 1e15;  // every message eager: flows start together
  options.record_messages = true;
  set_model_option(options, "flit", "16B");
  set_model_option(options, "mtu", std::to_string(static_cast<long>(mtu)));
  if (!extra.empty()) {
    const Spec spec = Spec::parse("x:" + extra);
    for (const auto& [key, value] : spec.values()) set_model_option(options, key, value);
  }
  return options;
}

// Rank 0 sends `bytes` to rank 1.
Trace one_message(double bytes) {
  const std::string b = std::to_string(static_cast<long>(bytes));
  return read_ti_trace(temp_file("flit-one.txt", "0 init\n0 send 1 0 " + b + "\n1 init\n1 recv 0 0 " + b + "\n"));
}

double one_message_time(const std::string& network, int dst_node, double bytes, const SimOptions& options) {
  const RoutedNetwork routed(make_network(network + kLinks));
  return simulate(routed, {0, dst_node}, one_message(bytes), options).makespan / kCycle;
}

}  // namespace

TEST_CASE("flit model: zero-load latency of one packet over H hops, cut-through and wormhole") {
  // t_s + injection link + (H + 1) routers + H links + ejection link, then the other P - 1 flits
  // one cycle apart behind the head.
  for (const char* switching : {"vct", "wormhole"})
    for (int hops : {1, 3, 6})
      for (int flits : {1, 4, 32}) {
        CAPTURE(switching);
        CAPTURE(hops);
        CAPTURE(flits);
        const SimOptions options = flit_options(16.0 * flits, std::string("switching=") + switching + ",buffer=64");
        const double expected = 1 + 1 + (hops + 1) * 3 + hops * 1 + 1 + (flits - 1);
        CHECK(one_message_time("mesh:7x1", hops, 16.0 * flits, options) == doctest::Approx(expected).epsilon(1e-9));
      }
}

TEST_CASE("flit model: one flow runs at link bandwidth when the buffer covers the credit round trip, else at buffer/RTT") {
  // Round trip of a credit over one link: the flit's link cycle, the router's 3 cycles, the credit's
  // link cycle back = 5 cycles. 1-flit packets, F flits: the makespan grows by F / rate cycles.
  const double rtt = 5;
  for (int buffer : {1, 2, 3, 4, 5, 8}) {
    CAPTURE(buffer);
    const SimOptions options = flit_options(16, "vcs=1,buffer=" + std::to_string(buffer));
    const double small = one_message_time("mesh:3x1", 2, 16.0 * 600, options);
    const double large = one_message_time("mesh:3x1", 2, 16.0 * 1200, options);
    const double rate = std::min(1.0, buffer / rtt);  // flits per cycle
    CHECK((large - small) == doctest::Approx(600 / rate).epsilon(1e-9));
  }
  // Multi-flit packets in wormhole mode follow the same rule.
  const SimOptions options = flit_options(16 * 8, "vcs=1,buffer=2,switching=wormhole");
  const double small = one_message_time("mesh:3x1", 2, 16.0 * 800, options);
  const double large = one_message_time("mesh:3x1", 2, 16.0 * 1600, options);
  CHECK((large - small) == doctest::Approx(800 * rtt / 2).epsilon(1e-9));
  // Cut-through refuses a buffer smaller than a packet.
  CHECK_THROWS_WITH_AS(one_message_time("mesh:3x1", 2, 16, flit_options(16 * 8, "buffer=4")),
                       doctest::Contains("virtual cut-through needs a buffer of at least one packet"), Error);
}

TEST_CASE("flit model: two flows into one output share it evenly under round-robin") {
  // Nodes 0 and 1 of a 3-switch line both send F flits to node 2 over link s1 -> s2: each gets half.
  const RoutedNetwork routed(make_network("mesh:3x1" + kLinks));
  const long flits = 2000;
  const std::string b = std::to_string(16 * flits);
  const Trace trace = read_ti_trace(temp_file("flit-share.txt", "0 init\n0 send 2 0 " + b + "\n1 init\n1 send 2 1 " + b +
                                                                    "\n2 init\n2 irecv 0 0 " + b + "\n2 irecv 1 1 " + b +
                                                                    "\n2 waitall\n"));
  for (const char* arbitration : {"round-robin", "age"}) {
    CAPTURE(arbitration);
    const SimResult r = simulate(routed, {0, 1, 2}, trace, flit_options(16, std::string("arbitration=") + arbitration));
    REQUIRE(r.message_log.size() == 2);
    const double a = r.message_log[0].delivered / kCycle, b2 = r.message_log[1].delivered / kCycle;
    if (std::string(arbitration) == "round-robin") {
      CHECK(std::abs(a - b2) <= 5);  // together, but for flow 0's one more hop (4 cycles)
      CHECK(std::max(a, b2) == doctest::Approx(2.0 * flits).epsilon(0.01));  // the shared link was never idle
    } else {
      CHECK(std::max(a, b2) == doctest::Approx(2.0 * flits).epsilon(0.01));
    }
  }
}

TEST_CASE("flit model: an output queue takes `speedup` flits a cycle and drains at the link's bandwidth") {
  // Four nodes on one switch. Nodes 0 and 1 each send F 1-flit packets to node 2; node 1 then sends G to
  // node 3, behind its first message in the one VC of its injection port. A flit takes 6 cycles (t_s,
  // injection link, router, ejection link), so node 2's link, one flit a cycle, delivers the 2F flits
  // by 2F + 5, queue or not. Without an output queue node 1's flits leave its buffer at half a flit a
  // cycle (round-robin with node 0): its second message starts at 2F and arrives at 2F + G + 5. With a
  // queue of Q flits (the one on the link counts) and speedup 2 both inputs move one flit a cycle into
  // it until it is full, Q - 1 cycles, then half each: the second message arrives Q - 1 cycles
  // earlier; with Q >= F node 1 never waits, F + G + 5.
  const RoutedNetwork routed(make_network("mesh:2x1,nodes_per_router=4" + kLinks));
  const long F = 200, G = 100;
  const std::string f = std::to_string(16 * F), g = std::to_string(16 * G);
  const Trace trace = read_ti_trace(temp_file("flit-oq.txt", "0 init\n0 send 2 0 " + f + "\n1 init\n1 send 2 1 " + f +
                                                                 "\n1 send 3 2 " + g + "\n2 init\n2 irecv 0 0 " + f +
                                                                 "\n2 irecv 1 1 " + f + "\n2 waitall\n3 init\n3 recv 1 2 " + g + "\n"));
  auto delivered = [&](int queue) {  // the last message to node 2, the message to node 3 (cycles)
    const SimResult r = simulate(routed, {0, 1, 2, 3}, trace,
                                 flit_options(16, "vcs=1,buffer=64,speedup=2,output_queue=" + std::to_string(queue)));
    std::pair<double, double> t{0, 0};
    for (const MessageRecord& m : r.message_log) {
      double& into = m.dst == 3 ? t.second : t.first;
      into = std::max(into, m.delivered / kCycle);
    }
    return t;
  };
  for (int queue : {0, 1, 8, 32, 150, 1000}) {
    CAPTURE(queue);
    const auto [to2, to3] = delivered(queue);
    CHECK(to2 == doctest::Approx(2 * F + 5).epsilon(1e-9));
    const double expected = queue >= F ? F + G + 5 : 2 * F + G + 5 - std::max(queue - 1, 0);
    CHECK(to3 == doctest::Approx(expected).epsilon(1e-9));
  }
  // Zero load: one packet goes straight onto the free link, queue or not (any packet size, both switchings).
  for (const char* switching : {"vct", "wormhole"})
    for (int flits : {1, 4, 32}) {
      CAPTURE(switching);
      CAPTURE(flits);
      const std::string spec = std::string("switching=") + switching + ",buffer=64,speedup=2,output_queue=";
      CHECK(one_message_time("mesh:7x1", 3, 16.0 * flits, flit_options(16.0 * flits, spec + "64")) ==
            one_message_time("mesh:7x1", 3, 16.0 * flits, flit_options(16.0 * flits, spec + "0")));
    }
  // Cut-through needs a queue of one packet.
  CHECK_THROWS_WITH_AS(one_message_time("mesh:3x1", 2, 16 * 8, flit_options(16 * 8, "buffer=8,output_queue=4")),
                       doctest::Contains("an output queue of at least one packet"), Error);
}

TEST_CASE("flit model: a ring deadlocks without its dateline VC and completes with it") {
  // An 8-node ring, each node sending 3 hops ahead in one direction: the dateline routing needs two VC
  // classes. With one VC the ring of full buffers is found and named; with two every message arrives.
  const RoutedNetwork routed(make_network("torus:8" + kLinks));
  std::string text;
  for (int r = 0; r < 8; ++r) text += std::to_string(r) + " init\n";
  for (int r = 0; r < 8; ++r) text += std::to_string(r) + " send " + std::to_string((r + 3) % 8) + " 0 16000\n";
  for (int r = 0; r < 8; ++r) text += std::to_string(r) + " recv " + std::to_string((r + 5) % 8) + " 0 16000\n";
  const Trace trace = read_ti_trace(temp_file("flit-ring.txt", text));
  std::vector<int> placement(8);
  for (int r = 0; r < 8; ++r) placement[r] = r;
  CHECK_THROWS_WITH_AS(simulate(routed, placement, trace, flit_options(128, "switching=wormhole,buffer=2,vcs=1")),
                       doctest::Contains("these full buffers wait on each other in a cycle"), Error);
  const SimResult ok = simulate(routed, placement, trace, flit_options(128, "switching=wormhole,buffer=2,vcs=2"));
  CHECK(ok.messages == 8);
  CHECK(ok.makespan > 0);
  // The same with output queues: flits in a queue hold their credits downstream, so the cycle is the same.
  CHECK_THROWS_WITH_AS(
      simulate(routed, placement, trace, flit_options(128, "switching=wormhole,buffer=2,vcs=1,speedup=2,output_queue=4")),
      doctest::Contains("these full buffers wait on each other in a cycle"), Error);
  CHECK(simulate(routed, placement, trace, flit_options(128, "switching=wormhole,buffer=2,vcs=2,speedup=2,output_queue=4"))
            .messages == 8);
}

TEST_CASE("flit model: options are read as a spec, and bad ones are refused") {
  SimOptions options;
  options.model = "flit";
  CHECK_THROWS_WITH_AS(set_model_option(options, "vcs", "0"), doctest::Contains("must be 1..64"), Error);
  CHECK_THROWS_WITH_AS(set_model_option(options, "credits", "4"), doctest::Contains("unknown key 'credits' for model flit"),
                       Error);
  set_model_option(options, "switching", "store");
  CHECK_THROWS_WITH_AS(one_message_time("mesh:2x1", 1, 16, options), doctest::Contains("expected vct or wormhole"), Error);
}

TEST_CASE("flit model: tree saturation -- a hot spot slows a victim that shares only upstream links with it") {
  // A 4-ary 2-tree (16 nodes, 4 leaves, 4 spines), d-mod-k routing. Nodes 4, 8 and 9 stream to node 15,
  // whose link is the bottleneck; node 1 sends to node 15 at 60 % of its link, more than the third of
  // the spine's down link that round-robin leaves it. The victim, node 0 sending 4 KB every 4 us to
  // node 7, shares only node 1's leaf-to-spine link (at 70 % load): it never crosses a saturated link.
  // With credits node 1's packets back up into that link's buffers and the victim waits behind them;
  // with unbounded output queues (packet) nothing pushes back and the victim runs as alone.
  const RoutedNetwork routed(make_network("fattree:k=4,levels=2,link_bandwidth=10GB/s,node_bandwidth=10GB/s"), "dmodk");
  auto trace = [](bool hot) {
    std::string t;
    for (int r = 0; r < 16; ++r) t += std::to_string(r) + " init\n";
    for (int i = 0; i < 40; ++i) t += "0 sleep 0.000004\n0 send 7 0 4096\n7 recv 0 0 4096\n";
    if (hot) {
      for (int h : {4, 8, 9}) t += std::to_string(h) + " send 15 1 1048576\n15 irecv " + std::to_string(h) + " 1 1048576\n";
      for (int i = 0; i < 240; ++i) t += "1 sleep 0.00000068\n1 isend 15 2 4096\n15 irecv 1 2 4096\n";
      t += "1 waitall\n15 waitall\n";
    }
    return read_ti_trace(temp_file(hot ? "flit-hot.txt" : "flit-alone.txt", t));
  };
  std::vector<int> placement(16);
  for (int r = 0; r < 16; ++r) placement[r] = r;
  auto victim = [&](const std::string& model, bool hot) {
    SimOptions options;
    options.model = model;
    options.eager_threshold = 1e15;
    return simulate(routed, placement, trace(hot), options).rank_finish[7];
  };
  const double flit_slowdown = victim("flit", true) / victim("flit", false);
  const double packet_slowdown = victim("packet", true) / victim("packet", false);
  MESSAGE("victim slowdown: flit " << flit_slowdown << ", packet " << packet_slowdown);
  CHECK(flit_slowdown > 2);
  CHECK(packet_slowdown < 1.05);
}

TEST_CASE("flit model: BookSim's VC choices -- any idle VC for a head, and the NIC's first VC in turn or at random") {
  // With one VC per port there is nothing to choose: every choice gives the default's makespan.
  const double base = one_message_time("mesh:3x1", 2, 16.0 * 600, flit_options(16, "vcs=1,buffer=2"));
  for (const char* allocation : {"room", "any"})
    for (const char* injection : {"first", "round-robin", "random"}) {
      CAPTURE(allocation);
      CAPTURE(injection);
      const std::string extra = std::string("vcs=1,buffer=2,vc_allocation=") + allocation + ",injection_vc=" + injection;
      CHECK(one_message_time("mesh:3x1", 2, 16.0 * 600, flit_options(16, extra)) == base);
    }
  // Two VCs of one flit each, a credit round trip of 5 cycles: a head that takes only a VC with room uses
  // both VCs (2 flits per round trip); one that takes the first idle VC waits there for its credit while
  // the other VC idles, once the NIC, too, always starts at the first VC (1 flit per round trip).
  auto rate = [](const std::string& extra) {
    const SimOptions options = flit_options(16, "vcs=2,buffer=1," + extra);
    const double small = one_message_time("mesh:3x1", 2, 16.0 * 600, options);
    const double large = one_message_time("mesh:3x1", 2, 16.0 * 1200, options);
    return 600 / (large - small);  // flits per cycle
  };
  CHECK(rate("vc_allocation=room,injection_vc=first") == doctest::Approx(2.0 / 5).epsilon(1e-9));
  CHECK(rate("vc_allocation=any,injection_vc=first") == doctest::Approx(1.0 / 5).epsilon(1e-9));
  CHECK(rate("vc_allocation=room,injection_vc=round-robin") == doctest::Approx(2.0 / 5).epsilon(1e-9));
  SimOptions bad;
  bad.model = "flit";
  set_model_option(bad, "vc_allocation", "eager");
  CHECK_THROWS_WITH_AS(one_message_time("mesh:2x1", 1, 16, bad), doctest::Contains("model.vc_allocation: expected room or any"), Error);
  set_model_option(bad, "vc_allocation", "any");
  set_model_option(bad, "injection_vc", "last");
  CHECK_THROWS_WITH_AS(one_message_time("mesh:2x1", 1, 16, bad),
                       doctest::Contains("model.injection_vc: expected first, round-robin or random"), Error);
}
