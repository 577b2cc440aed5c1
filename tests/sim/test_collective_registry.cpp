// A collective algorithm added the documented way: its steps and its registration in this file
// only. It is then chosen as --collectives and model.collectives choose one (parse_collectives into
// SimOptions::collectives), listed with the others, and replayed message for message.
#include <doctest/doctest.h>

#include "sim/simulate.h"
#include "test_files.h"
#include "topologies/network_factory.h"
#include "traces/action_ops.h"
#include "traces/collective_algorithm.h"

using namespace mapsim;

// "chain": an alltoall as one relay down the ranks -- rank r waits for rank r - 1's message, then
// sends all it would have sent, (p - 1) blocks, to rank r + 1.
MAPSIM_REGISTER(collective_registry(), {"alltoall=chain",
                                        "test: everything relayed down the ranks, one message a hop",
                                        {},
                                        [](collectives::Steps& s, const CollectiveCall& c) {
                                          const double all = c.bytes * (c.p - 1);
                                          if (c.rank > 0) s.blocking_recv(c.rank - 1, all);
                                          if (c.rank + 1 < c.p) s.blocking_send(c.rank + 1, all);
                                        }});

TEST_CASE("a collective algorithm registered in one file is chosen, listed and replayed") {
  CHECK(parse_collectives("alltoall=chain")[Collective::Alltoall].name == "alltoall=chain");
  CHECK(parse_collectives("mpich,alltoall=chain")[Collective::Alltoall].name == "alltoall=chain");
  CHECK(parse_collectives("mpich")[Collective::Alltoall].name == "alltoall=mpich");
  CHECK(collectives_help().find("alltoall: mapsim, basic_linear, bruck, chain, mpich") != std::string::npos);
  CHECK(error_of([] { parse_collectives("alltoall=chian"); }) ==
        "collectives: alltoall has no algorithm 'chian'; expected one of mapsim, basic_linear, bruck, chain, mpich, "
        "mvapich2_scatter_dest, ompi, pair, ring");
  REQUIRE(collective_registry().find("alltoall=chain"));
  CHECK(collective_registry().find("alltoall=chain")->description ==
        "test: everything relayed down the ranks, one message a hop");

  // Three ranks on switches 0, 1 and 2 of a line (mesh:8x1, 2 nodes per switch): each hop crosses one
  // switch-to-switch link, so a message takes t_s + t_p + 2 t_r plus its bytes at 10 Gb/s.
  RoutedNetwork routed(make_network("mesh:8x1,nodes_per_router=2"));
  std::string text;
  for (int r = 0; r < 3; ++r) text += std::to_string(r) + " alltoall 1000 1000\n";
  const Trace trace = read_ti_trace(temp_file("chain.txt", text));
  SimOptions options;
  options.envelope = 0;  // payload only
  options.record_messages = true;
  options.collectives = parse_collectives("alltoall=chain");
  const SimResult chain = simulate(routed, {0, 2, 4}, trace, options);
  const double hop = 2e-6 + 20e-9 + 2 * 300e-9 + 2000 / 1.25e9;
  CHECK(chain.messages == 2);
  CHECK(chain.bytes == 4000);
  CHECK(chain.makespan == doctest::Approx(2 * hop).epsilon(1e-12));
  REQUIRE(chain.message_log.size() == 2);
  for (int i = 0; i < 2; ++i) {
    const MessageRecord& m = chain.message_log[i];
    CAPTURE(i);
    CHECK(m.src == i);
    CHECK(m.dst == i + 1);
    CHECK(m.bytes == 2000);
    CHECK(m.tag == collective_tag(ActionType::Alltoall));
    CHECK(m.collective);
    CHECK(m.delivered == doctest::Approx((i + 1) * hop).epsilon(1e-12));
  }
  // mapsim's own alltoall, for contrast: every rank to every other
  options.collectives = {};
  CHECK(simulate(routed, {0, 2, 4}, trace, options).messages == 6);
}
