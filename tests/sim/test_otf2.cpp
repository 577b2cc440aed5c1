#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "comparable_result.h"
#include "otf2_writer.h"
#include "test_files.h"
#include "sim/simulate.h"
#include "topologies/network_factory.h"
#include "traces/action_ops.h"
#include "traces/otf2_trace.h"
#include "traces/trace_source.h"
#include "traces/trace_tools.h"

using namespace mapsim;

namespace {

// "type peer tag bytes" per action of a rank, for exact comparisons.
std::vector<std::string> lines(const RankTrace& rank) {
  std::vector<std::string> out;
  for (const Action& a : rank.actions) {
    std::ostringstream line;
    line << action_name(a.type);
    switch (a.type) {
      case ActionType::Send: case ActionType::Isend: case ActionType::Recv: case ActionType::Irecv:
        line << " " << a.peer << " " << a.tag << " " << a.bytes;
        break;
      case ActionType::Wait: line << " " << a.peer << " " << a.root << " " << a.tag; break;
      case ActionType::Compute: line << " " << a.flops; break;
      case ActionType::Bcast: case ActionType::Reduce: line << " " << a.bytes << " root " << a.root; break;
      case ActionType::Allreduce: case ActionType::Scan: case ActionType::Exscan: line << " " << a.bytes; break;
      case ActionType::Alltoall: case ActionType::Allgather: line << " " << a.bytes << " " << a.bytes2; break;
      case ActionType::Gatherv: case ActionType::Allgatherv: case ActionType::ReduceScatter: case ActionType::Scatterv:
      case ActionType::Alltoallv: {
        line << " " << a.bytes << " " << a.bytes2 << " [";
        const size_t n = a.type == ActionType::Alltoallv ? 6 : 3;
        for (size_t i = 0; i < n; ++i) line << (i ? " " : "") << rank.counts[a.counts + i];
        line << "]";
        break;
      }
      default: break;
    }
    out.push_back(line.str());
  }
  return out;
}

using V = std::vector<std::string>;

// Every field of an action, its v-collective counts from `context` (n ranks), as text.
std::string fields(const Action& a, const RankTrace& context, int n) {
  std::ostringstream out;
  out << action_name(a.type) << " " << a.distant << " " << a.peer << " " << a.tag << " " << a.root << " " << a.bytes << " "
      << a.bytes2 << " " << a.flops << " " << a.line << " " << a.datatype << " " << a.datatype2;
  for (size_t i = 0; i < counts_used(a, n); ++i) out << " " << context.counts.at(a.counts + i);
  return out.str();
}

// The archive streamed (open_ti_trace, open_otf2_trace) gives every rank the actions of reading it
// whole, field for field, with windows of `windows` actions (0: the default), the ranks read in turns
// (forwards and backwards, one action each) so that their windows interleave, with every location's
// reader open or only one (each reopened where it stopped); the same skipped counts; and a replay of
// the stream gives the SimResult of the whole trace (`network` with a node per rank).
void check_streamed(const std::string& anchor, const std::string& network, const std::vector<int>& windows = {1, 2, 0}) {
  const Otf2Import whole = read_otf2_trace(anchor);
  const int n = whole.trace.num_ranks();
  V expected;
  for (int r = 0; r < n; ++r)
    for (const Action& a : whole.trace.ranks[r].actions) expected.push_back(std::to_string(r) + ": " + fields(a, whole.trace.ranks[r], n));
  const long total = static_cast<long>(expected.size());
  for (int window : windows) {
    for (int mode = 0; mode < 4; ++mode) {
      const bool backwards = mode & 1;
      const int open_locations = mode & 2 ? 1 : 0;
      CAPTURE(window);
      CAPTURE(backwards);
      CAPTURE(open_locations);
      std::map<std::string, long> skipped;
      const auto source = open_otf2_trace(anchor, window, &skipped, 1e9, open_locations);
      CHECK(skipped == whole.skipped);
      REQUIRE(source->num_ranks() == n);
      CHECK(source->total_actions() == total);
      std::vector<V> got(n);
      const auto stream = source->open();
      for (bool more = true; more;) {
        more = false;
        for (int k = 0; k < n; ++k) {
          const int r = backwards ? n - 1 - k : k;
          if (const Action* a = stream->next(r)) {
            if (got[r].empty()) CHECK(stream->context(r).file == anchor);
            got[r].push_back(std::to_string(r) + ": " + fields(*a, stream->context(r), n));
            more = true;
          }
        }
      }
      V all;
      for (const V& rank : got) all.insert(all.end(), rank.begin(), rank.end());
      CHECK(all == expected);
    }
  }
  const auto streamed = open_ti_trace(anchor);
  CHECK(streamed->whole() == nullptr);  // a stream, not the trace loaded
  RoutedNetwork net(make_network(network));
  Placement placement;
  for (int r = 0; r < n; ++r) placement.push_back(r);
  CHECK(comparable(simulate(net, placement, *streamed, SimOptions{})) == comparable(simulate(net, placement, whole.trace, SimOptions{})));
}

}  // namespace

TEST_CASE("OTF2: Score-P's MPI events become replay actions, compute from the time outside MPI") {
  Otf2Writer w(temp_path("otf2-events"), 3);
  w.communicator(1, {0, 2});
  for (int r = 0; r < 3; ++r) w.call(r, "MPI_Init", 0, 10);
  // rank 0: 1 ms of compute, a send, an isend and its wait
  w.call(0, "MPI_Send", 1010, 1020, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiSend(e, nullptr, t, 1, 0, 5, 800); });
  w.call(0, "MPI_Isend", 1020, 1025, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIsend(e, nullptr, t, 2, 0, 7, 100, 1); });
  w.call(0, "MPI_Wait", 1025, 1030, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIsendComplete(e, nullptr, t, 1); });
  // rank 1: a receive; rank 2: an irecv whose source is known at its wait, and a cancelled one
  w.call(1, "MPI_Recv", 1500, 1510, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiRecv(e, nullptr, t, 0, 0, 5, 800); });
  w.call(2, "MPI_Irecv", 1100, 1101, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, t, 9); });
  w.call(2, "MPI_Irecv", 1101, 1102, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, t, 10); });
  w.call(2, "MPI_Wait", 1200, 1210, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecv(e, nullptr, t, 0, 0, 7, 100, 9); });
  w.call(2, "MPI_Cancel", 1210, 1211, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiRequestCancelled(e, nullptr, t, 10); });
  // collectives back to back from 2000 us (Score-P's byte counts, 3 ranks): bcast of 64 from 0, allreduce of
  // 16, gatherv of 10/20/30 to 1, reduce_scatter of 4/8/12, alltoallv of totals 30/60/90, and a barrier on a
  // sub-communicator of ranks 0 and 2
  for (int r = 0; r < 3; ++r) {
    uint64_t t = 2000;
    w.collective(r, "MPI_Bcast", t++, OTF2_COLLECTIVE_OP_BCAST, 0, 0, r == 0 ? 3 * 64 : 0, 64);
    w.collective(r, "MPI_Allreduce", t++, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 3 * 16, 3 * 16);
    w.collective(r, "MPI_Gatherv", t++, OTF2_COLLECTIVE_OP_GATHERV, 0, 1, 10 * (r + 1), r == 1 ? 60 : 0);
    w.collective(r, "MPI_Reduce_scatter", t++, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, 0, OTF2_UNDEFINED_UINT32, 24, 3 * 4 * (r + 1));
    w.collective(r, "MPI_Alltoallv", t++, OTF2_COLLECTIVE_OP_ALLTOALLV, 0, OTF2_UNDEFINED_UINT32, 30 * (r + 1), 60);
    if (r != 1) w.collective(r, "MPI_Barrier", t++, OTF2_COLLECTIVE_OP_BARRIER, 1, OTF2_UNDEFINED_UINT32, 0, 0);
    w.call(r, "MPI_Finalize", t, t + 1);
  }
  const std::string anchor = w.close();

  const Otf2Import in = read_otf2_trace(anchor, 1e9);
  REQUIRE(in.trace.num_ranks() == 3);
  // the sub-communicator's barrier: a dissemination step between its two members, on its own tag
  const std::string tag = std::to_string(sub_communicator_tag({0, 2}));
  const V rank0 = {"init", "compute 1e+06", "send 1 5 800", "isend 2 7 100", "wait 0 2 7", "compute 970000",
                   "bcast 64 root 0", "allreduce 16", "gatherv 10 0 [10 20 30]", "reducescatter 0 0 [4 8 12]",
                   "alltoallv 0 0 [10 10 10 10 20 30]", "isend 2 " + tag + " 0", "irecv 2 " + tag + " 0",
                   "wait 0 2 " + tag, "wait 2 0 " + tag, "finalize"};
  CHECK(lines(in.trace.ranks[0]) == rank0);
  // the cancelled irecv is gone; the other one is posted where it was, from the source its wait names
  const V rank2 = {"init", "compute 1.09e+06", "irecv 0 7 100", "compute 98000", "wait 0 2 7", "compute 789000"};
  const V got2 = lines(in.trace.ranks[2]);
  CHECK(V(got2.begin(), got2.begin() + 6) == rank2);
  const V rank1 = {"init", "compute 1.49e+06", "recv 0 5 800", "compute 490000", "bcast 64 root 0", "allreduce 16",
                   "gatherv 20 0 [10 20 30]", "reducescatter 0 0 [4 8 12]", "alltoallv 0 0 [20 20 20 10 20 30]", "finalize"};
  CHECK(lines(in.trace.ranks[1]) == rank1);
  CHECK(in.trace.ranks[1].actions[6].root == 1);
  CHECK(in.skipped == std::map<std::string, long>{{"alltoallv calls spread evenly over the ranks (OTF2 holds per-rank totals only)", 1},
                                                  {"cancelled requests, dropped", 1}});
  CHECK(lines(in.trace.ranks[2]).end()[-4] == "irecv 0 " + tag + " 0");
  // Every reader takes the archive: the replay's trace check finds every message matched.
  CHECK(check_trace(anchor, false).empty());
  CHECK(trace_stats(anchor, false).messages == 4);
  check_streamed(anchor, "tree2:switches=2,nodes_per_switch=2");
}

TEST_CASE("OTF2: a TI trace written as Score-P would record it reads back action for action") {
  // Point-to-point, waits, compute and the world collectives whose OTF2 byte counts determine them exactly.
  const std::string ti = temp_file("otf2-source.txt",
                                   "0 init\n1 init\n"
                                   "0 compute 2000000\n1 compute 500000\n"
                                   "0 isend 1 3 4096\n1 irecv 0 3 4096\n1 send 0 4 12\n0 recv 1 4 12\n"
                                   "0 wait 0 1 3\n1 wait 0 1 3\n"
                                   "0 bcast 128 1\n1 bcast 128 1\n0 reduce 40 0 1\n1 reduce 40 0 1\n"
                                   "0 allgather 8 8\n1 allgather 8 8\n0 alltoall 32 32\n1 alltoall 32 32\n"
                                   "0 scan 24 0\n1 scan 24 0\n0 exscan 16 0\n1 exscan 16 0\n"
                                   "0 barrier\n1 barrier\n0 finalize\n1 finalize\n");
  const Trace source = read_ti_trace(ti);
  Otf2Writer w(temp_path("otf2-roundtrip"), 2, 1000000000);  // ns clock: 1 flop per tick at 1e9 flop/s
  const uint32_t n = 2;
  for (int r = 0; r < 2; ++r) {
    uint64_t t = 1;
    w.call(r, "MPI_Init", 0, t);
    for (const Action& a : source.ranks[r].actions) {
      const uint64_t start = t, b = static_cast<uint64_t>(a.bytes);
      const uint32_t peer = static_cast<uint32_t>(a.peer), tag = static_cast<uint32_t>(a.tag);
      const uint32_t me = static_cast<uint32_t>(r), root = static_cast<uint32_t>(a.root);
      auto p2p = [&](const char* name, auto event) { w.call(r, name, start, start + 1, event); };
      switch (a.type) {
        case ActionType::Compute: t += static_cast<uint64_t>(a.flops); continue;
        case ActionType::Init: case ActionType::Finalize: continue;  // the reader's own
        case ActionType::Isend: p2p("MPI_Isend", [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiIsend(e, nullptr, at, peer, 0, tag, b, 1); }); break;
        case ActionType::Irecv: p2p("MPI_Irecv", [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, at, 2); }); break;
        case ActionType::Wait:
          p2p("MPI_Wait", [&](OTF2_EvtWriter* e, uint64_t at) {
            if (a.peer == r) OTF2_EvtWriter_MpiIsendComplete(e, nullptr, at, 1);
            else OTF2_EvtWriter_MpiIrecv(e, nullptr, at, peer, 0, tag, 4096, 2);
          });
          break;
        case ActionType::Send: p2p("MPI_Send", [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiSend(e, nullptr, at, peer, 0, tag, b); }); break;
        case ActionType::Recv: p2p("MPI_Recv", [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiRecv(e, nullptr, at, peer, 0, tag, b); }); break;
        case ActionType::Bcast: w.collective(r, "MPI_Bcast", start, OTF2_COLLECTIVE_OP_BCAST, 0, root, me == root ? n * b : 0, b); break;
        case ActionType::Reduce: w.collective(r, "MPI_Reduce", start, OTF2_COLLECTIVE_OP_REDUCE, 0, root, b, me == root ? n * b : 0); break;
        case ActionType::Allgather: w.collective(r, "MPI_Allgather", start, OTF2_COLLECTIVE_OP_ALLGATHER, 0, OTF2_UNDEFINED_UINT32, n * b, n * b); break;
        case ActionType::Alltoall: w.collective(r, "MPI_Alltoall", start, OTF2_COLLECTIVE_OP_ALLTOALL, 0, OTF2_UNDEFINED_UINT32, n * b, n * b); break;
        case ActionType::Scan: w.collective(r, "MPI_Scan", start, OTF2_COLLECTIVE_OP_SCAN, 0, OTF2_UNDEFINED_UINT32, (n - me) * b, (me + 1) * b); break;
        case ActionType::Exscan: w.collective(r, "MPI_Exscan", start, OTF2_COLLECTIVE_OP_EXSCAN, 0, OTF2_UNDEFINED_UINT32, (n - 1 - me) * b, me * b); break;
        case ActionType::Barrier: w.collective(r, "MPI_Barrier", start, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0); break;
        default: FAIL("no OTF2 form for this action in the test");
      }
      t = start + 1;
    }
    w.call(r, "MPI_Finalize", t, t + 1);
  }
  const std::string anchor = w.close();
  const Trace back = read_otf2_trace(anchor).trace;
  REQUIRE(back.num_ranks() == 2);
  for (int r = 0; r < 2; ++r) {
    CAPTURE(r);
    CHECK(lines(back.ranks[r]) == lines(source.ranks[r]));
  }
  // trace convert writes it as TI: the same rank files as the source converted by mapsim
  std::filesystem::remove_all(temp_path("otf2-converted")), std::filesystem::remove_all(temp_path("ti-converted"));
  convert_ti_trace(anchor, false, temp_path("otf2-converted"), false);
  convert_ti_trace(ti, false, temp_path("ti-converted"), false);
  for (const char* file : {"rank-0.txt", "rank-1.txt"}) {
    std::ifstream a(temp_path("otf2-converted") + "/" + file), b(temp_path("ti-converted") + "/" + file);
    std::stringstream ta, tb;
    ta << a.rdbuf(), tb << b.rdbuf();
    CHECK(ta.str() == tb.str());
    CHECK(ta.str().size() > 100);
  }
  // ... and replays to the same result as the TI trace
  RoutedNetwork net(make_network("tree2:switches=2,nodes_per_switch=1"));
  const SimResult from_ti = simulate(net, {0, 1}, source, SimOptions{});
  const SimResult from_otf2 = simulate(net, {0, 1}, read_ti_trace(anchor), SimOptions{});
  CHECK(from_otf2.makespan == from_ti.makespan);
  CHECK(from_otf2.makespan > 2e-3);
  CHECK(from_otf2.bytes == from_ti.bytes);
  check_streamed(anchor, "tree2:switches=2,nodes_per_switch=1");
}

TEST_CASE("OTF2: errors name the archive") {
  CHECK(error_of([] { read_otf2_trace(temp_path("no-such/traces.otf2")); }).find("cannot open OTF2 archive") != std::string::npos);
  const std::string junk = temp_file("junk.otf2", "not an archive\n");
  CHECK(error_of([&] { read_otf2_trace(junk); }).rfind(junk + ": ", 0) == 0);
  Otf2Writer w(temp_path("otf2-missing"), 2);
  w.collective(0, "MPI_Barrier", 5, OTF2_COLLECTIVE_OP_BARRIER, 0, OTF2_UNDEFINED_UINT32, 0, 0);
  const std::string anchor = w.close();
  CHECK(error_of([&] { read_otf2_trace(anchor); }) ==
        anchor + ": collective #0 on MPI_COMM_WORLD: 1 of 2 ranks took part (truncated trace?)");
  Otf2Writer sub(temp_path("otf2-sub-missing"), 3);
  sub.communicator(1, {0, 2});
  sub.collective(0, "MPI_Bcast", 5, OTF2_COLLECTIVE_OP_BCAST, 1, 0, 16, 8);
  const std::string sub_anchor = sub.close();
  CHECK(error_of([&] { read_otf2_trace(sub_anchor); }) ==
        sub_anchor + ": collective #0 on communicator 1: 1 of 2 ranks took part (truncated trace?)");
  // Opening the stream finds them: its first pass reads every event
  CHECK(error_of([&] { open_ti_trace(anchor); }) == error_of([&] { read_otf2_trace(anchor); }));
  CHECK(error_of([&] { open_ti_trace(sub_anchor); }) == error_of([&] { read_otf2_trace(sub_anchor); }));
  CHECK(error_of([&] { open_ti_trace(junk); }) == error_of([&] { read_otf2_trace(junk); }));
  Otf2Writer disagree(temp_path("otf2-disagree"), 3);
  disagree.collective(0, "MPI_Bcast", 5, OTF2_COLLECTIVE_OP_BCAST, 0, 0, 24, 8);
  disagree.collective(1, "MPI_Bcast", 5, OTF2_COLLECTIVE_OP_BCAST, 0, 1, 0, 8);
  disagree.collective(2, "MPI_Reduce", 5, OTF2_COLLECTIVE_OP_REDUCE, 0, 0, 8, 0);
  const std::string disagree_anchor = disagree.close();
  CHECK(error_of([&] { open_ti_trace(disagree_anchor); }) ==
        disagree_anchor + ": collective #0 on MPI_COMM_WORLD: rank 1 calls another operation or root than rank 0 (bcast vs bcast)");
}

TEST_CASE("OTF2 streamed: an irecv completed late holds back only what follows it on its rank") {
  // rank 1 posts an irecv, then exchanges with rank 2 and joins an allgatherv before the irecv completes;
  // rank 0 sends late. Read a window of one action at a time, in turns, the streams give the whole read.
  Otf2Writer w(temp_path("otf2-late-irecv"), 3);
  for (int r = 0; r < 3; ++r) w.call(r, "MPI_Init", 0, 10);
  w.call(1, "MPI_Irecv", 20, 21, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, t, 4); });
  w.call(1, "MPI_Send", 30, 31, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiSend(e, nullptr, t, 2, 0, 1, 64); });
  w.call(2, "MPI_Recv", 30, 40, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiRecv(e, nullptr, t, 1, 0, 1, 64); });
  for (int r = 0; r < 3; ++r)
    w.collective(r, "MPI_Allgatherv", 100, OTF2_COLLECTIVE_OP_ALLGATHERV, 0, OTF2_UNDEFINED_UINT32, 3 * 8 * (r + 1), 48);
  w.call(0, "MPI_Send", 5000, 5001, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiSend(e, nullptr, t, 1, 0, 2, 32); });
  w.call(1, "MPI_Wait", 4000, 5002, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecv(e, nullptr, t + 1000, 0, 0, 2, 32, 4); });
  w.call(2, "MPI_Irecv", 6000, 6001, [](OTF2_EvtWriter* e, uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(e, nullptr, t, 5); });
  const std::string anchor = w.close();
  const Otf2Import whole = read_otf2_trace(anchor);
  const V rank1 = {"init", "compute 10000", "irecv 0 2 32", "compute 9000", "send 2 1 64", "compute 69000",
                   "allgatherv 16 0 [8 16 24]", "compute 3.899e+06", "wait 0 1 2", "finalize"};
  CHECK(lines(whole.trace.ranks[1]) == rank1);
  CHECK(whole.skipped == std::map<std::string, long>{{"irecvs never completed, dropped", 1}});  // rank 2's last
  check_streamed(anchor, "tree2:switches=2,nodes_per_switch=2");
}

TEST_CASE("OTF2 streamed: a location whose last event gives an action ends there when its reader was closed") {
  // Each rank's last event (entering MPI_Barrier) ends a compute action: with one reader open and a
  // window of one action, a rank's reader is closed after its last event, and the stream must not seek past it.
  Otf2Writer w(temp_path("otf2-cut"), 2);
  for (int r = 0; r < 2; ++r) w.call(r, "MPI_Init", 0, 10), w.enter(r, "MPI_Barrier", 500 + 100 * r);
  const std::string anchor = w.close();
  CHECK(lines(read_otf2_trace(anchor).trace.ranks[1]) == V{"init", "compute 590000", "finalize"});
  check_streamed(anchor, "tree2:switches=2,nodes_per_switch=1");
}

TEST_CASE("OTF2 streamed: a location reopened in a later event chunk goes on where it stopped") {
  // 2 ranks x 12000 messages each way (about 36000 events per rank) in 256 KiB event chunks: several
  // chunks per location, read with one reader open at a time, so every window reopens one and seeks.
  Otf2Writer w(temp_path("otf2-chunks"), 2, 1000000, 256 << 10);
  for (int r = 0; r < 2; ++r) {
    w.call(r, "MPI_Init", 0, 10);
    uint64_t t = 10;
    for (uint32_t i = 0; i < 12000; ++i, t += 4) {
      const uint32_t other = 1 - r, bytes = 8 * (i % 100 + 1);
      auto send = [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiSend(e, nullptr, at, other, 0, i % 7, bytes); };
      auto recv = [&](OTF2_EvtWriter* e, uint64_t at) { OTF2_EvtWriter_MpiRecv(e, nullptr, at, other, 0, i % 7, bytes); };
      if (r == 0) w.call(r, "MPI_Send", t, t + 1, send), w.call(r, "MPI_Recv", t + 2, t + 3, recv);
      else w.call(r, "MPI_Recv", t, t + 1, recv), w.call(r, "MPI_Send", t + 2, t + 3, send);
    }
  }
  const std::string anchor = w.close();
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(temp_path("otf2-chunks") + "/traces"))
    if (entry.path().extension() == ".evt") {
      CHECK(entry.file_size() > (512u << 10));  // 3 chunks or more
      ++files;
    }
  CHECK(files == 2);
  CHECK(read_otf2_trace(anchor).trace.ranks[0].actions.size() == 48001);  // init, send, compute, recv, compute, ..., finalize
  check_streamed(anchor, "tree2:switches=2,nodes_per_switch=1", {997, 0});
}
