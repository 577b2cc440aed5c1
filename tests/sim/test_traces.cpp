// TI trace reading and writing: SimGrid 3.32's formats, datatypes, errors with file:line.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "sim/simulate.h"
#include "sim/workload.h"
#include "topologies/network_factory.h"
#include "test_files.h"
#include "support/error.h"
#include "traces/action_ops.h"
#include "traces/ti_trace.h"
#include "traces/trace_tools.h"

using namespace mapsim;

TEST_CASE("SimGrid 3.32 TI lines: tags, datatypes, collectives, v-collectives") {
  Trace t = read_ti_trace(temp_file("ti1.txt",
                                    "# comment\n0 init\n0 isend 1 3 10 0\n0 wait 0 1 3\n0 bcast 5 1 1\n"
                                    "0 gatherv 4 1 2 1 6 6\n0 alltoallv 8 1 2 8 3 4\n0 compute 1e6\n0 sleep 0.5\n"
                                    "1 init 1\n1 irecv 0 3 10\n1 waitall\n1 allreduce 2 100\n1 finalize\n"));
  REQUIRE(t.num_ranks() == 2);
  const auto& a = t.ranks[0].actions;
  REQUIRE(a.size() == 8);
  CHECK(a[1].type == ActionType::Isend);
  CHECK(a[1].peer == 1);
  CHECK(a[1].tag == 3);
  CHECK(a[1].bytes == 80);  // 10 MPI_DOUBLE
  CHECK(a[1].line == 3);
  CHECK(a[2].type == ActionType::Wait);
  CHECK(a[3].bytes == 20);  // 5 MPI_INT
  CHECK(a[3].root == 1);
  CHECK(a[4].bytes == 4);
  CHECK(t.ranks[0].counts[a[4].counts] == 1);
  CHECK(t.ranks[0].counts[a[4].counts + 1] == 2);
  CHECK(a[4].root == 1);
  CHECK(t.ranks[0].counts[a[5].counts + 2] == 3);  // alltoallv receive counts follow the send counts
  CHECK(a[6].flops == 1e6);
  CHECK(a[7].flops == 0.5);
  // "init" with an argument: MPE trace, counts are doubles.
  CHECK(t.ranks[1].actions[1].bytes == 80);
  CHECK(t.ranks[1].actions[3].bytes == 16);
  CHECK(t.ranks[1].actions[3].flops == 100);
  CHECK(t.ranks[1].actions[3].datatype == 0);  // MPI_DOUBLE: Rabenseifner's blocks are doubles
  CHECK(a[3].datatype == 1);  // bcast 5 1 1: the id given
}

TEST_CASE("written traces read back identically, as an index or through a one-line index") {
  ProcessGraph g = make_process_graph("pattern:mesh:4x4,distant=0.2,seed=1");
  Trace original = make_workload("exchange:size=100,iterations=2,compute=5", g);
  Trace back = read_ti_trace(write_ti_trace(original, temp_path("written")));
  REQUIRE(back.num_ranks() == original.num_ranks());
  for (int r = 0; r < original.num_ranks(); ++r) {
    REQUIRE(back.ranks[r].actions.size() == original.ranks[r].actions.size());
    for (size_t i = 0; i < back.ranks[r].actions.size(); ++i) {
      CHECK(back.ranks[r].actions[i].type == original.ranks[r].actions[i].type);
      CHECK(back.ranks[r].actions[i].peer == original.ranks[r].actions[i].peer);
      CHECK(back.ranks[r].actions[i].bytes == original.ranks[r].actions[i].bytes);
    }
  }
  std::string shared = temp_file("shared.txt", "0 send 1 0 5\n1 recv 0 0 5\n");
  Trace via_index = read_ti_trace(temp_file("one-line-index.txt", shared + "\n"));
  CHECK(via_index.num_ranks() == 2);
}

namespace {

// The error reading a trace of `text` gives, or "no error".
std::string error_of(const std::string& name, const std::string& text) {
  try {
    read_ti_trace(temp_file(name, text));
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an index naming itself or a cycle of indexes is an error, not a recursion until the stack ends") {
  const std::string shared = temp_file("cycle-shared.txt", "0 init\n0 send 1 0 8\n1 recv 0 0 8\n");
  // By its relative name (resolved in the index's folder), after a comment.
  const std::string self = temp_file("cycle-self.txt", "# SMPI index\n" + std::filesystem::path(temp_path("cycle-self.txt")).filename().string() + "\n");
  CHECK_THROWS_WITH_AS(read_ti_trace(self), doctest::Contains("cycle-self.txt:2: the trace index names itself"), Error);
  CHECK_THROWS_WITH_AS(trace_stats(self), doctest::Contains("cycle-self.txt:2: the trace index names itself"), Error);
  // Two indexes naming each other, by absolute path.
  const std::string a = temp_path("cycle-a.txt"), b = temp_path("cycle-b.txt");
  temp_file("cycle-a.txt", b + "\n");
  temp_file("cycle-b.txt", a + "\n");
  CHECK_THROWS_WITH_AS(read_ti_trace(a), doctest::Contains(("cycle-b.txt:1: trace indexes form a cycle through " + a).c_str()), Error);
  CHECK_THROWS_WITH_AS(check_trace(a), doctest::Contains("trace indexes form a cycle"), Error);
  // A chain without a cycle reads up to the nesting limit.
  std::string next = shared;
  for (int i = 0; i < 8; ++i) next = temp_file("chain-" + std::to_string(i) + ".txt", next + "\n");
  CHECK(read_ti_trace(next).num_ranks() == 2);
  next = temp_file("chain-8.txt", next + "\n");
  CHECK_THROWS_WITH_AS(read_ti_trace(next), doctest::Contains("chain-0.txt:1: more than 8 trace indexes nested"), Error);
}

TEST_CASE("bad traces: one-line errors with file and line") {
  const std::string p = temp_path("");
  CHECK(error_of("e1", "0 init\n0 frobnicate 3\n") == p + "e1:2: unknown action 'frobnicate'");
  CHECK(error_of("e2", "0 send 1 0 ten\n1 recv 0 0 10\n") == p + "e2:1: expected size, got 'ten'");
  CHECK(error_of("e3", "0 send 1 10\n1 recv 0 10\n") ==
        p + "e3:1: 'send' without a tag is SimGrid's old format; expected PEER TAG SIZE (mapsim trace convert --legacy reads it)");
  CHECK(error_of("e4", "0 send 5 0 10\n1 init\n") == p + "e4:1: destination rank 5 is out of range: the trace has 2 ranks");
  CHECK(error_of("e5", "0 bcast\n") == p + "e5:1: 'bcast' expects more arguments (see docs/traces.md)");
  CHECK(error_of("e6", "x init\n") == p + "e6:1: expected 'RANK ACTION ...', got 'x init'");
  CHECK(error_of("e7", "0 isend 0 0 1 99\n") == p + "e7:1: unknown datatype id 99");
  CHECK(error_of("e10", "0 isend 0 -5 1\n") == p + "e10:1: expected a tag >= 0 (or -1, MPI_ANY_TAG), got -5");
  CHECK(error_of("e8", "") == p + "e8: empty trace: expected 'RANK ACTION ...' lines");
  CHECK(error_of("e9", temp_path("missing-rank-file") + "\n" + temp_path("missing-2") + "\n") ==
        p + "e9:1: " + temp_path("missing-rank-file") + ": no such trace file");
}

TEST_CASE("hostile traces (issue 29): counts past 2^53, files an index names are not quoted, a byte-order mark is skipped") {
  const std::string p = temp_path("");
  CHECK(error_of("h1", "0 send 1 0 100000000000000000000000\n1 recv 0 0 8\n") ==
        p + "h1:1: size '100000000000000000000000' is above 2^53 (9007199254740992), where counts stop being exact");
  CHECK(error_of("h2", "0 compute 1e300\n") == p + "h2:1: flops '1e300' is above 2^53 (9007199254740992), where counts stop being exact");
  CHECK(error_of("h3", "0 sleep 1e300\n") == p + "h3:1: expected a sleep time of 0 to 1e6 seconds, got '1e300'");
  // An index naming a file that is no trace (/etc/shadow): its first line is not echoed.
  const std::string secret = temp_file("h-secret", "root:$6$salt$hash:19000:0:99999:7:::\n");
  const std::string index = temp_file("h-index", secret + "\n" + secret + "\n");
  CHECK(error_of([&] { read_ti_trace(index); }) ==
        secret + ":1: expected 'RANK ACTION ...' (the line is not shown: " + index + ":1 names this file, which may be no trace)");
  CHECK(error_of([&] { read_ti_trace(temp_file("h-one-line", secret + "\n")); }).find("salt") == std::string::npos);
  // Once a listed file has shown a trace action, its errors quote it as usual.
  const std::string rank0 = temp_file("h-rank0", "0 init\n0 send 1 0 ten\n"), rank1 = temp_file("h-rank1", "1 init\n");
  CHECK(error_of([&] { read_ti_trace(temp_file("h-index2", rank0 + "\n" + rank1 + "\n")); }) == rank0 + ":2: expected size, got 'ten'");
  CHECK(read_ti_trace(temp_file("h-bom", "\xEF\xBB\xBF" "0 send 1 0 8\n1 recv 0 0 8\n")).num_ranks() == 2);
}

TEST_CASE("a trace is written into a new folder, an empty one or a previous trace's, whose extra rank files go (issue 29)") {
  namespace fs = std::filesystem;
  const std::string dir = temp_path("rewritten");
  fs::remove_all(dir);
  write_ti_trace(make_workload("exchange:size=64", make_process_graph("ring:4")), dir);
  CHECK(fs::exists(dir + "/rank-3.txt"));
  // (Nothing reads the folder's trace before the last write: an input is never an output.)
  write_ti_trace(make_workload("exchange:size=64", make_process_graph("ring:2")), dir);
  CHECK_FALSE(fs::exists(dir + "/rank-2.txt"));
  CHECK_FALSE(fs::exists(dir + "/rank-3.txt"));
  // trace convert likewise.
  const std::string four = write_ti_trace(make_workload("exchange:size=64", make_process_graph("ring:4")), temp_path("four"));
  const std::string two = write_ti_trace(make_workload("exchange:size=64", make_process_graph("ring:2")), temp_path("two"));
  convert_ti_trace(four, false, dir, false);
  CHECK(fs::exists(dir + "/rank-3.txt"));
  convert_ti_trace(two, false, dir, false);
  CHECK_FALSE(fs::exists(dir + "/rank-3.txt"));
  // A folder with other files is no trace's: refused before anything is written.
  std::ofstream(dir + "/notes.txt") << "mine\n";
  CHECK(error_of([&] { write_ti_trace(make_workload("exchange:size=64", make_process_graph("ring:4")), dir); }) ==
        dir + ": holds 'notes.txt', which is no part of a trace; write the trace to a new or empty folder, or to one of a "
              "previous trace (index.txt, rank-N.txt)");
  CHECK_FALSE(fs::exists(dir + "/rank-3.txt"));
  CHECK(read_ti_trace(dir + "/index.txt").num_ranks() == 2);
}

TEST_CASE("trace stats count actions, point-to-point messages, bytes, collectives and compute") {
  const std::string f = temp_file("stats.txt", "0 init\n0 send 1 0 100\n0 compute 5e6\n0 bcast 10\n"
                                               "1 init\n1 recv 0 0 100\n1 isend 0 3 50 0\n1 wait 1 0 3\n1 bcast 10\n"
                                               "0 recv 1 3 400\n1 sleep 0.5\n");
  const TraceStats s = trace_stats(f);
  CHECK(s.ranks == 2);
  CHECK(s.messages == 2);
  CHECK(s.bytes == 100 + 50 * 8);  // datatype id 0 has 8 bytes
  CHECK(s.collectives == 2);
  CHECK(s.flops == 5e6);
  CHECK(s.sleep_seconds == 0.5);
  CHECK(s.actions.at("wait") == 1);
  CHECK(check_trace(f).empty());
}

TEST_CASE("trace check names unmatched messages, orphan waits and disagreeing collectives by file and line") {
  const std::string f = temp_file("check.txt", "0 send 1 0 100\n0 send 1 0 100\n1 recv 0 0 100\n1 recv 0 5 10\n"
                                               "0 wait 0 1 7\n0 bcast 10\n1 allreduce 10 0\n0 barrier\n");
  const std::vector<std::string> problems = check_trace(f);
  REQUIRE(problems.size() == 4);
  CHECK(problems[0] == f + ":5: rank 0 waits for (0, 1, tag 7) but has no such isend or irecv pending");
  CHECK(problems[1] == f + ":2: 1 send(s) from rank 0 to rank 1 tag 0 have no matching receive (the first is here)");
  CHECK(problems[2] == f + ":4: 1 receive(s) at rank 1 from rank 0 tag 5 have no matching send (the first is here)");
  CHECK(problems[3] == f + ":7: rank 1's collective #1 is allreduce (root 0) but rank 0's is bcast (root 0)");
}

TEST_CASE("trace check: a send larger than the receive that matches it is a truncation") {
  // Per channel, in posting order: 100 -> 50 truncates; 10 -> 20 is legal (a larger receive buffer).
  const std::string f = temp_file("sizes.txt", "0 send 1 0 100\n1 recv 0 0 50\n0 isend 1 0 10\n1 irecv 0 0 20\n0 wait 0 1 0\n1 wait 0 1 0\n");
  const std::vector<std::string> problems = check_trace(f);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == f + ":1: rank 0 sends 100 bytes to rank 1 tag 0, but the receive that matches it (" + f +
                           ":2) takes 50 (MPI would truncate)");
}

TEST_CASE("trace check: a test leaves its request to a later wait; MPI_ANY_TAG receives take any tag, as replays do") {
  // isend, test, wait: the wait is legal (the test may not have completed the request); a second
  // wait is not. Two wildcard receives take the tag-7 and tag-8 sends; a third finds none.
  const std::string f = temp_file("test-wait.txt", "0 isend 1 5 100\n0 test 0 1 5\n0 test 0 1 5\n0 wait 0 1 5\n0 wait 0 1 5\n"
                                                   "0 send 1 7 10\n0 send 1 8 10\n1 recv 0 5 100\n"
                                                   "1 recv 0 -1 10\n1 recv 0 -1 10\n1 recv 0 -1 10\n");
  const std::vector<std::string> problems = check_trace(f);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == f + ":5: rank 0 waits for (0, 1, tag 5) but has no such isend or irecv pending");
  CHECK(problems[1] == f + ":9: 1 receive(s) at rank 1 from rank 0 tag -1 have no matching send (the first is here)");
  CHECK(check_trace(temp_file("test-only.txt", "0 test 0 1 5\n1 compute 1\n"))[0] ==
        temp_path("test-only.txt") + ":1: rank 0 tests (0, 1, tag 5) but has no such isend or irecv pending");
  // The replay agrees: the same trace without the extra wait and receive runs to its end.
  const std::string ok = temp_file("test-wait-ok.txt", "0 isend 1 5 100\n0 test 0 1 5\n0 wait 0 1 5\n0 send 1 7 10\n"
                                                        "0 send 1 8 10\n1 recv 0 5 100\n1 recv 0 -1 10\n1 recv 0 -1 10\n");
  CHECK(check_trace(ok).empty());
  RoutedNetwork net(make_network("tree2:switches=1,nodes_per_switch=2"));
  CHECK(simulate(net, {0, 1}, read_ti_trace(ok), SimOptions{}).makespan > 0);
}

TEST_CASE("a test costs SMPI's smpi/test before it tests, times a multiplier that grows while tests fail") {
  // Rank 1 computes 1 ms, then sends. Rank 0 tests three times (1, 2, 3 x 0.1 ms: all fail), computes
  // 0.1 ms, tests again (4 x 0.1 ms: at 1.1 ms the message, sent at 1 ms, has arrived), waits (at
  // once) and computes 2 ms: 3.1 ms exactly. Without the test time rank 0 waits for the message.
  const std::string f0 = temp_file("tests-r0.txt", "0 irecv 1 0 1000\n0 test 1 0 0\n0 test 1 0 0\n0 test 1 0 0\n"
                                                   "0 compute 1e5\n0 test 1 0 0\n0 wait 1 0 0\n0 compute 2e6\n");
  const std::string f1 = temp_file("tests-r1.txt", "1 compute 1e6\n1 send 0 0 1000\n");
  const Trace trace = read_ti_trace(temp_file("tests.idx", f0 + "\n" + f1 + "\n"));
  RoutedNetwork net(make_network("tree2:switches=1,nodes_per_switch=2"));
  SimOptions options;
  CHECK(simulate(net, {0, 1}, trace, options).makespan == doctest::Approx(3.1e-3).epsilon(1e-12));
  options.test_time = 0;
  const double arrival = simulate(net, {0, 1}, trace, options).makespan - 2e-3;
  CHECK(arrival > 1e-3);
  CHECK(arrival < 1.01e-3);
}

TEST_CASE("trailing tokens are errors, not ignored; known ignored fields are accepted") {
  CHECK(error_of("trail1.txt", "0 send 1 0 100 0 junk\n1 recv 0 0 100\n") ==
        temp_path("trail1.txt") + ":1: unexpected 'junk' after the arguments of 'send'");
  CHECK(error_of("trail2.txt", "0 compute 100 7\n") == temp_path("trail2.txt") + ":1: unexpected '7' after the arguments of 'compute'");
  // allgatherv's displacements, a location's file name with spaces, comm_split's arguments: read and ignored.
  CHECK(error_of("trail3.txt", "0 allgatherv 5 5 5 2 2 0 5\n1 allgatherv 5 5 5 2 2 0 5\n0 location 12 my file.c\n"
                               "0 comm_split 1 2\n") == "no error");
}

TEST_CASE("SimGrid's old tag-less format reads with tag 0 when asked, and is refused otherwise") {
  const std::string f = temp_file("legacy.txt", "0 send 1 100\n1 recv 0 100 0\n");
  CHECK_THROWS_WITH_AS(read_ti_trace(f), doctest::Contains("without a tag is SimGrid's old format"), Error);
  const Trace t = read_ti_trace(f, true);
  CHECK(t.ranks[0].actions[0].tag == 0);
  CHECK(t.ranks[0].actions[0].bytes == 100);
  CHECK(t.ranks[1].actions[0].bytes == 800);
  CHECK(check_trace(f, true).empty());
  // Converted (streamed): the current format, which reads back without the flag.
  CHECK(convert_ti_trace(f, true, temp_path("legacy-converted.txt"), true) == temp_path("legacy-converted.txt"));
  CHECK(read_ti_trace(temp_path("legacy-converted.txt")).ranks[1].actions[0].bytes == 800);
  const std::string index = convert_ti_trace(f, true, temp_path("legacy-split"), false);
  CHECK(read_ti_trace(index).ranks[0].actions[0].tag == 0);
}

TEST_CASE("old format: Isend/Irecv and an argument-less wait for the rank's last irecv; S4U traces and empty locations") {
  const std::string f = temp_file("legacy-wait.txt", "0 Irecv 1 10\n0 Irecv 2 20\n0 wait\n0 Isend 1 5\n0 wait\n"
                                                     "1 send 0 10\n1 Irecv 0 5\n1 wait\n2 send 0 20\n");
  const Trace t = read_ti_trace(f, true);
  const Action& first_wait = t.ranks[0].actions[2];
  CHECK(first_wait.type == ActionType::Wait);
  CHECK(first_wait.peer == 2);  // the last irecv: from rank 2 to rank 0
  CHECK(first_wait.root == 0);
  CHECK(t.ranks[0].actions[4].peer == 1);
  CHECK(t.ranks[0].actions[3].type == ActionType::Isend);
  CHECK(check_trace(f, true).empty());
  RoutedNetwork net(make_network("tree2:switches=1,nodes_per_switch=3"));
  CHECK(simulate(net, {0, 1, 2}, t, SimOptions{}).makespan > 0);
  CHECK(error_of([] { read_ti_trace(temp_file("legacy-orphan.txt", "0 wait\n"), true); }) ==
        temp_path("legacy-orphan.txt") + ":1: 'wait' without arguments (SimGrid's old format) follows no irecv of this rank");
  CHECK(error_of([] { read_ti_trace(temp_file("s4u.txt", "p0 recv p1 100\np1 send p0 100\n")); }) ==
        temp_path("s4u.txt") + ":1: 'p0' is an actor of a SimGrid S4U replay trace (p0 recv p1 ...), not an SMPI "
                               "time-independent trace (0 recv 1 TAG SIZE ...)");
  CHECK(read_ti_trace(temp_file("location.txt", "0 location\n0 location src/main.c 12\n0 compute 1\n")).ranks[0].actions.size() == 3);
}

TEST_CASE("trace:PATH is a process topology: the trace's point-to-point volume per pair") {
  const std::string f = temp_file("graph.txt", "0 send 1 0 100\n1 recv 0 0 100\n1 send 2 0 30\n2 recv 1 0 30\n");
  const ProcessGraph g = make_process_graph("trace:" + f);
  CHECK(g.num_tasks() == 3);
  CHECK(g.edges().size() == 2);
  CHECK(make_process_graph("ring:4").num_tasks() == 4);
}

TEST_CASE("trace check streams index files and notices a rank that skips a collective") {
  const std::string f = temp_file("skip.txt", "0 bcast 10\n0 barrier\n1 bcast 10\n");
  const std::vector<std::string> problems = check_trace(f);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == f + ":2: rank 1 calls 1 collectives, rank 0 2");
  const std::string alone = temp_file("alone.txt", "0 barrier\n1 compute 10\n");
  REQUIRE(check_trace(alone).size() == 1);
  CHECK(check_trace(alone)[0] == alone + ":1: rank 1 calls 0 collectives, rank 0 1");
  const std::string index = write_ti_trace(make_workload("exchange:size=64", make_process_graph("mesh:4x4")), temp_path("stream"));
  CHECK(check_trace(index).empty());
  CHECK(trace_stats(index).messages == 48);
}

TEST_CASE("the streamed communication matrix equals the replay's messages, collectives expanded") {
  const Trace t = make_workload("alltoall:size=100", make_process_graph("ring:5"));
  const std::string index = write_ti_trace(t, temp_path("matrix"));
  const auto cells = communication_matrix(index);
  CHECK(cells.size() == 20);  // every ordered pair of 5 ranks
  for (const auto& [pair, c] : cells) {
    CHECK(c.collective_bytes == 100);
    CHECK(c.collective_messages == 1);
    CHECK(c.p2p_messages == 0);
  }
  const std::string p2p = temp_file("p2p.txt", "0 send 1 0 70\n1 recv 0 0 70\n0 isend 1 4 30\n1 irecv 0 4 30\n0 wait 0 1 4\n1 wait 0 1 4\n");
  const auto one = communication_matrix(p2p);
  REQUIRE(one.size() == 1);
  CHECK(one.at({0, 1}).p2p_bytes == 100);
  CHECK(one.at({0, 1}).p2p_messages == 2);
}

TEST_CASE("collective algorithms send the messages of their definitions") {
  RoutedNetwork star(make_network("tree2:switches=1,nodes_per_switch=8"));
  const Placement place = {0, 1, 2, 3, 4, 5, 6, 7};
  auto messages = [&](const std::string& text, const std::string& choice) {
    SimOptions options;
    options.collectives = parse_collectives(choice);
    return simulate(star, place, read_ti_trace(temp_file("coll.txt", text)), options).messages;
  };
  std::string allgatherv, alltoall;
  const long block[8] = {0, 300000, 5000, 0, 700000, 20000, 1000, 90000};
  for (int r = 0; r < 8; ++r) {
    std::string counts;
    for (long b : block) counts += " " + std::to_string(b);
    allgatherv += std::to_string(r) + " allgatherv " + std::to_string(block[r]) + counts + "\n";
    alltoall += std::to_string(r) + " alltoall 100 100\n";
  }
  // mapsim's ring and SimGrid's ring: p (p - 1) messages, empty blocks included; mpich_ring forwards
  // every non-empty block p - 1 times in pieces of 256 KiB: 7 x (2 + 1 + 3 + 1 + 1 + 1) = 63.
  CHECK(messages(allgatherv, "") == 56);
  CHECK(messages(allgatherv, "allgatherv=ring") == 56);
  CHECK(messages(allgatherv, "allgatherv=mpich_ring") == 63);
  // Bruck: log2(8) = 3 steps of one message per rank; the others p (p - 1).
  CHECK(messages(alltoall, "alltoall=bruck") == 24);
  for (const char* choice : {"", "alltoall=ring", "alltoall=pair", "alltoall=basic_linear"}) CHECK(messages(alltoall, choice) == 56);
  // ompi: Open MPI's choice by ranks and size; at 16 ranks Bruck below 512-byte blocks, else linear.
  RoutedNetwork star16(make_network("tree2:switches=1,nodes_per_switch=16"));
  std::vector<int> place16(16);
  for (int r = 0; r < 16; ++r) place16[r] = r;
  auto alltoall16 = [&](int bytes) {
    std::string text;
    for (int r = 0; r < 16; ++r) text += std::to_string(r) + " alltoall " + std::to_string(bytes) + " " + std::to_string(bytes) + "\n";
    SimOptions options;
    options.collectives = parse_collectives("alltoall=ompi");
    return simulate(star16, place16, read_ti_trace(temp_file("coll16.txt", text)), options).messages;
  };
  CHECK(alltoall16(100) == 16 * 4);
  CHECK(alltoall16(600) == 16 * 15);
  // at 3 ranks SimGrid's ompi alltoallv picks its XOR pairs, which need a power of two: Open MPI's own
  // pairwise order (rank +- i) instead
  RoutedNetwork star3(make_network("tree2:switches=1,nodes_per_switch=3"));
  std::string three;
  for (int r = 0; r < 3; ++r) three += std::to_string(r) + " alltoallv 20 10 10 0 20 10 10 0\n";
  SimOptions ompi;
  ompi.collectives = parse_collectives("alltoallv=ompi");
  CHECK(simulate(star3, {0, 1, 2}, read_ti_trace(temp_file("coll3.txt", three)), ompi).messages == 6);
  // trace matrix and the mapping traffic count the chosen algorithm's messages too
  long matrix = 0;
  for (const auto& [pair, cell] : communication_matrix(temp_file("coll.txt", alltoall), false, parse_collectives("alltoall=bruck")))
    matrix += cell.collective_messages;
  CHECK(matrix == 24);
  double traffic = 0;
  for (const TaskTraffic& t : task_traffic(read_ti_trace(temp_file("coll.txt", alltoall)), parse_collectives("alltoall=bruck")))
    traffic += t.bytes;
  CHECK(traffic == 8 * 12 * 100);  // per rank 3 steps of 4 blocks (the indices 1..7 with bit k set)
  const CollectiveChoice both = parse_collectives("alltoallv=pair,allgatherv=mpich_ring");
  CHECK((both[Collective::Alltoallv].name == "alltoallv=pair" &&
         both[Collective::Allgatherv].name == "allgatherv=mpich_ring" &&
         both[Collective::Alltoall].name == "alltoall=mapsim"));
  CHECK(error_of([] { parse_collectives("gatherv=linear"); }).find("unknown collective 'gatherv'") != std::string::npos);
  CHECK(error_of([] { parse_collectives("openmpi"); }) ==
        "collectives: 'openmpi' in 'openmpi' is no library; expected mapsim, mpich or ompi (every collective), or "
        "COLLECTIVE=ALGORITHM");
  CHECK(error_of([] { parse_collectives("alltoallv=fast"); }) ==
        "collectives: alltoallv has no algorithm 'fast'; expected one of mapsim, bruck, mpich, ompi, "
        "ompi_basic_linear, pair, ring");
  CHECK(error_of([] { parse_collectives("bcast=binomial"); }) ==
        "collectives: bcast has no algorithm 'binomial'; expected one of mapsim (binomial_tree), NTSB, NTSL, mpich, "
        "mvapich2_knomial_intra_node, ompi, ompi_pipeline, ompi_split_bintree, scatter_LR_allgather, "
        "scatter_rdb_allgather");
  // a whole library, then overrides; SimGrid's name of mapsim's own algorithm is mapsim's
  const CollectiveChoice mpich = parse_collectives("mpich,alltoall=ring,allreduce=rdb");
  CHECK((mpich[Collective::Bcast].name == "bcast=mpich" &&
         mpich[Collective::ReduceScatter].name == "reduce_scatter=mpich" &&
         mpich[Collective::Scatter].name == "scatter=mpich" && mpich[Collective::Alltoall].name == "alltoall=ring" &&
         mpich[Collective::Allreduce].name == "allreduce=mapsim" && mpich[Collective::Gather].name == "gather=mapsim"));
  CHECK(parse_collectives("mpich,mapsim")[Collective::Bcast].name == "bcast=mapsim");
  // Open MPI's choice for every collective, the last library named winning
  const CollectiveChoice open_mpi = parse_collectives("mpich,ompi,gather=ompi_basic_linear");
  for (size_t c = 0; c + 1 < kCollectiveCount; ++c)  // every one but gather, the last
    CHECK(open_mpi[Collective(c)].name == std::string(collective_name(Collective(c))) + "=ompi");
  CHECK(open_mpi[Collective::Gather].name == "gather=ompi_basic_linear");
}

namespace {

// Every rank's ops for one collective line ("allreduce 3000 0") on p ranks under `choice`.
std::vector<std::tuple<int, int, int, double>> ops_of(const std::string& line, int p, const std::string& choice) {
  std::string text;
  for (int r = 0; r < p; ++r) text += std::to_string(r) + " " + line + "\n";
  const Trace trace = read_ti_trace(temp_file("choice.txt", text));
  std::vector<std::tuple<int, int, int, double>> all;
  for (int r = 0; r < p; ++r) {
    std::vector<Op> ops;
    expand_action(trace.ranks[r].actions[0], trace.ranks[r], r, p, ops, parse_collectives(choice));
    for (const Op& op : ops) all.emplace_back(r, static_cast<int>(op.kind), op.peer, op.amount);
  }
  return all;
}

struct ChoiceCase {
  std::string line;
  int ranks;
  std::string algorithm;  // what "COLLECTIVE=LIBRARY" must send the messages of ("": none)
};

// Each case's collective under `library` sends what the named algorithm sends, and so does the
// whole-library preset what the preset with that algorithm named sends (an algorithm built on
// another collective, as redbcast on reduce and bcast, takes the preset's choice for it).
void check_choices(const std::vector<ChoiceCase>& cases, const std::string& library) {
  for (const ChoiceCase& c : cases) {
    const std::string collective = c.algorithm.empty() ? "allgatherv" : c.algorithm.substr(0, c.algorithm.find('='));
    CAPTURE(c.line);
    CAPTURE(c.ranks);
    const auto chosen = ops_of(c.line, c.ranks, collective + "=" + library);
    CHECK(chosen == (c.algorithm.empty() ? decltype(chosen){} : ops_of(c.line, c.ranks, c.algorithm)));
    CHECK(ops_of(c.line, c.ranks, library) ==
          (c.algorithm.empty() ? decltype(chosen){} : ops_of(c.line, c.ranks, library + "," + c.algorithm)));
  }
}

}  // namespace

TEST_CASE("mpich picks MPICH's algorithm by message size and rank count, on both sides of every bound") {
  const std::vector<ChoiceCase> cases = {
      // bcast: binomial below 12288 bytes or up to 8 ranks; scatter + rdb allgather below 512 KiB on
      // an even rank count; else scatter + ring allgather
      {"bcast 100000", 8, "bcast=binomial_tree"}, {"bcast 12287", 16, "bcast=binomial_tree"},
      {"bcast 12288", 16, "bcast=scatter_rdb_allgather"}, {"bcast 524287", 12, "bcast=scatter_rdb_allgather"},
      {"bcast 524288", 16, "bcast=scatter_LR_allgather"}, {"bcast 100000", 15, "bcast=scatter_LR_allgather"},
      // reduce and allreduce: Rabenseifner from 2048 bytes (allreduce: above), with at least pof2 elements
      {"reduce 2047 0", 16, "reduce=binomial"}, {"reduce 2048 0 5", 16, "reduce=scatter_gather"},
      {"reduce 4000 0 3", 12, "reduce=scatter_gather"},
      {"reduce 100 0 0 27", 128, "reduce=binomial"},  // 3200 bytes but 100 32-byte elements < 128 ranks
      {"reduce 128 0 0 27", 128, "reduce=scatter_gather"},
      {"allreduce 2048 0", 16, "allreduce=rdb"}, {"allreduce 2049 0", 16, "allreduce=rab_rdb"},
      {"allreduce 2049 0", 6, "allreduce=rab_rdb"}, {"allreduce 100 0 27", 128, "allreduce=rdb"},
      {"allreduce 128 0 27", 128, "allreduce=rab_rdb"},
      // alltoall: Bruck below 256-byte blocks from 8 ranks, scattered below 32 KiB, then pairwise
      {"alltoall 255 255", 8, "alltoall=bruck"}, {"alltoall 255 255", 7, "alltoall=mvapich2_scatter_dest"},
      {"alltoall 256 256", 8, "alltoall=mvapich2_scatter_dest"}, {"alltoall 32768 32768", 8, "alltoall=pair"},
      {"alltoall 32768 32768", 6, "alltoall=ring"}, {"alltoall 40000 40000", 5, "alltoall=ring"},
      {"alltoallv 8 1 1 1 1 1 1 1 1 8 1 1 1 1 1 1 1 1", 8, "alltoallv=bruck"},
      // allgather by its total: rdb below 512 KiB on powers of two, Bruck to 80 KiB, else ring
      {"allgather 65535 65535", 8, "allgather=rdb"}, {"allgather 65536 65536", 8, "allgather=ring"},
      {"allgather 16384 16384", 5, "allgather=bruck"}, {"allgather 16385 16385", 5, "allgather=ring"},
      // allgatherv by its total element count (bytes, or doubles where the line says 0 0)
      {"allgatherv 131071 131071 131071 131071 131071", 4, "allgatherv=mpich_rdb"},
      {"allgatherv 131072 131072 131072 131072 131072", 4, "allgatherv=mpich_ring"},
      {"allgatherv 20000 20000 20000 20000 20000 0 0", 4, "allgatherv=mpich_rdb"},
      {"allgatherv 27306 27306 27306 27308", 3, "allgatherv=ompi_bruck"},
      {"allgatherv 27307 27307 27307 27307", 3, "allgatherv=mpich_ring"},
      {"allgatherv 10240 10240 10240 10240 0 0", 3, "allgatherv=ompi_bruck"},
      {"allgatherv 0 0 0 0", 3, ""},  // nothing to gather: no messages
      // reduce_scatter: recursive doubling up to 524288 elements in all, then pairwise
      {"reducescatter 262144 262144 0", 2, "reduce_scatter=mpich_rdb"},
      {"reducescatter 262144 262145 0", 2, "reduce_scatter=mpich_pair"},
      {"scatter 100 100 1", 6, "scatter=ompi_binomial"}};
  check_choices(cases, "mpich");
}

TEST_CASE("ompi picks Open MPI's algorithm by the tables of SimGrid's ompi selector") {
  const std::vector<ChoiceCase> cases = {
      {"barrier", 3, "barrier=ompi_recursivedoubling"}, {"barrier", 4, "barrier=ompi_basic_linear"},
      {"barrier", 8, "barrier=ompi_recursivedoubling"}, {"barrier", 64, "barrier=ompi_bruck"},
      {"barrier", 256, "barrier=ompi_tree"}, {"barrier", 600, "barrier=ompi_bruck"},
      {"gather 1023 1023", 5, "gather=ompi_binomial"}, {"gather 1024 1024", 5, "gather=ompi_basic_linear"},
      {"gather 262144 262144", 5, "gather=ompi_linear_sync"}, {"gather 3 3", 2, "gather=ompi_basic_linear"},
      {"scatter 16383 16383", 12, "scatter=ompi_binomial"}, {"scatter 16384 16384", 12, "scatter=ompi_linear_nb"},
      {"scatter 100 100", 3, "scatter=ompi_basic_linear"}, {"scatter 1 1", 3, "scatter=ompi_linear_nb"},
      {"allgather 100 100", 2, "allgather=pair"}, {"allgather 100000 100000", 16, "allgather=rdb"},
      {"allgather 1023 1023", 40, "allgather=rdb"}, {"allgather 1024 1024", 40, "allgather=ompi_neighborexchange"},
      {"allgather 65536 65536", 40, "allgather=ring"}, {"allgather 100 100", 600, "allgather=bruck"},
      {"reduce 7 0", 3, "reduce=ompi_basic_linear"}, {"reduce 8 0", 3, "reduce=ompi_binary"},
      {"reduce 16 0", 3, "reduce=ompi_pipeline"}, {"reduce 4095 0", 6, "reduce=ompi_binary"},
      {"reduce 4096 0", 6, "reduce=ompi_chain"}, {"reduce 100000 0", 100, "reduce=ompi_binomial"},
      {"reduce 10000 0", 300, "reduce=ompi_in_order_binary"},
      {"alltoall 511 511", 40, "alltoall=bruck"}, {"alltoall 512 512", 40, "alltoall=basic_linear"},
      {"alltoall 262144 262144", 128, "alltoall=pair"},
      {"alltoall 262144 262144", 100, "alltoall=ring"},  // pairwise where XOR pairs do not exist: rank +- i
      // bcast (sizes that fill whole 8 KiB segments where NTSL or NTSB is named: their remainder goes
      // to the configured bcast)
      {"bcast 31", 3, "bcast=ompi_pipeline"}, {"bcast 32", 3, "bcast=NTSB"}, {"bcast 1023", 3, "bcast=mvapich2_knomial_intra_node"},
      {"bcast 1024", 3, "bcast=NTSL"}, {"bcast 8191", 6, "bcast=binomial_tree"}, {"bcast 8192", 6, "bcast=NTSL"},
      {"bcast 1048576", 6, "bcast=ompi_pipeline"}, {"bcast 1048575", 20, "bcast=binomial_tree"},
      {"bcast 1048576", 20, "bcast=scatter_rdb_allgather"}, {"bcast 16383", 300, "bcast=mvapich2_knomial_intra_node"},
      {"bcast 16384", 300, "bcast=ompi_split_bintree"}, {"bcast 65535", 200, "bcast=NTSB"},
      {"bcast 65536", 200, "bcast=mvapich2_knomial_intra_node"},
      // allreduce (a trace's reductions count as commutative)
      {"allreduce 7 0", 3, "allreduce=lr"}, {"allreduce 8 0", 3, "allreduce=rdb"}, {"allreduce 8191 0", 6, "allreduce=rdb"},
      {"allreduce 8192 0", 6, "allreduce=rab_rdb"}, {"allreduce 63 0", 20, "allreduce=ompi_ring_segmented"},
      {"allreduce 64 0", 20, "allreduce=rdb"}, {"allreduce 131071 0", 200, "allreduce=redbcast"},
      {"allreduce 131072 0", 200, "allreduce=rdb"},
      // reduce_scatter by the total
      {"reducescatter 1 1 1 1 0", 4, "reduce_scatter=default"},
      {"reducescatter 2 2 2 2 0", 4, "reduce_scatter=ompi_basic_recursivehalving"},
      {"reducescatter 65535 65535 65535 65535 0", 4, "reduce_scatter=ompi_basic_recursivehalving"},
      {"reducescatter 65536 65536 65536 65536 0", 4, "reduce_scatter=ompi_ring"},
      {"reducescatter 32767 32768 0", 2, "reduce_scatter=ompi_ring"}, {"reducescatter 32768 32768 0", 2, "reduce_scatter=ompi_butterfly"},
      {"reducescatter 65536 65536 0", 2, "reduce_scatter=ompi_ring"},
      // allgatherv by the mean block
      {"allgatherv 2047 2047 2047", 2, "allgatherv=mpich_ring"}, {"allgatherv 2048 2048 2048", 2, "allgatherv=pair"},
      {"allgatherv 255 255 255 255 255", 4, "allgatherv=GB"}, {"allgatherv 256 256 256 256 256", 4, "allgatherv=ompi_neighborexchange"},
      {"allgatherv 1023 1023 1023 1023 1023 1023 1023 1023 1023 1023 1023", 10, "allgatherv=GB"},
      {"allgatherv 1023 1023 1023 1023 1023 1023 1023 1023 1023 1023 1033", 10, "allgatherv=ompi_bruck"}};
  check_choices(cases, "ompi");
  // Open MPI's synchronous gather: each rank's block in two parts, the first of 1 KiB (here 128
  // 8-byte elements), each called by an empty message from the root
  const auto sync = ops_of("gather 2000 2000 0 0 0", 3, "gather=ompi_linear_sync");
  CHECK(std::count(sync.begin(), sync.end(), std::make_tuple(1, int(Op::Isend), 0, 1024.0)) == 1);
  CHECK(std::count(sync.begin(), sync.end(), std::make_tuple(1, int(Op::Isend), 0, 16000.0 - 1024)) == 1);
  CHECK(error_of([] { ops_of("allgather 100 100", 6, "allgather=pair"); }) ==
        "allgather=pair needs a power-of-two number of ranks, the trace has 6");
}

TEST_CASE("trace convert keeps the datatype ids a trace gives, and writes bytes where it gives none") {
  const std::string typed =
      "0 init\n1 init\n0 send 1 3 10 0\n1 recv 0 3 10 0\n0 isend 1 4 2 5\n1 irecv 0 4 2 5\n0 wait 0 1 4\n1 wait 0 1 4\n"
      "0 bcast 5 0 1\n1 bcast 5 0 1\n0 alltoall 2 2 0 1\n1 alltoall 2 2 0 1\n0 gatherv 3 3 6 1 0 6\n1 gatherv 6 3 6 1 0 6\n"
      "0 alltoallv 12 4 8 16 4 12 0 1\n1 alltoallv 8 4 4 12 8 4 0 1\n0 allreduce 7 100 3\n1 allreduce 7 100 3\n"
      "0 reducescatter 2 6 0 1\n1 reducescatter 2 6 0 1\n0 sendRecv 3 1 2 1 0 1\n1 sendRecv 2 0 3 0 1 0\n"
      "0 allreduce 9 0\n1 allreduce 9 0\n0 finalize\n1 finalize\n";
  const std::string in = temp_file("typed.txt", typed), out = temp_path("typed-out.txt");
  convert_ti_trace(in, false, out, true);
  std::ifstream written(out);
  std::stringstream text;
  text << written.rdbuf();
  CHECK(text.str() == typed);  // sizes in counts of the given types, the ids after them
  const Trace a = read_ti_trace(in), b = read_ti_trace(out);
  for (int r = 0; r < 2; ++r)
    for (size_t i = 0; i < a.ranks[r].actions.size(); ++i) {
      CHECK(a.ranks[r].actions[i].bytes == b.ranks[r].actions[i].bytes);
      CHECK(a.ranks[r].actions[i].bytes2 == b.ranks[r].actions[i].bytes2);
    }
  CHECK(a.ranks[0].actions[1].bytes == 80);  // 10 MPI_DOUBLE
  CHECK(a.ranks[0].actions.back().datatype == -1);
}
