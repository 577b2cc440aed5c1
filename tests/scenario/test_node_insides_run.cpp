// A run on nodes with insides: the pipeline's simulation puts ranks on the cores the metrics cost them on
// (place_on_cores), so a ring whose neighbours have scattered ranks runs with its halves per socket.
#include <doctest/doctest.h>

#include <map>

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "test_files.h"

using namespace mapsim;

TEST_CASE("a run on a 2-socket node simulates ranks on the cores the metrics cost them on") {
  const std::string node = temp_file("run-two-socket.yaml",
                                     "levels:\n"
                                     "  - {name: machine, bandwidth: 10GB/s, latency: 400ns}\n"
                                     "  - {name: package, count: 2, bandwidth: 25GB/s, latency: 100ns}\n"
                                     "  - {name: core, count: 4}\n");
  // Ring 0-5-2-7-4-1-6-3-0: rank order (0-3 on one socket) would put 6 of its 8 edges across the sockets.
  const std::string ring = temp_file("run-scattered-ring.txt", "0 5\n5 2\n2 7\n7 4\n4 1\n1 6\n6 3\n3 0\n");
  const std::string text = "network: mesh:1x1,node=" + node + "\nworkload:\n  process: graph:" + ring +
                           "\n  pattern: exchange:size=1MB\nmapping: [default]\nslots: 8\nmodel:\n  name: flow\n"
                           "  t_s: 2us\nreplicates: 1\n";
  const std::vector<RunRow> rows = run_scenario(load_scenario(temp_file("run-insides.yaml", text)));
  REQUIRE(rows.size() == 1);
  std::map<std::string, double> v(rows[0].values.begin(), rows[0].values.end());
  // Two edges cross the sockets, six stay in one: the mean zero-load latency of the ring's edges.
  CHECK(v.at("zero_load_latency") == doctest::Approx((6 * 2.1e-6 + 2 * 2.4e-6) / 8).epsilon(1e-12));
  // Every rank sends 1 MB each way at once; the cross-socket pairs take longest: t_s + 400 ns + 1 MB / 10 GB/s
  // (plus the envelope). With rank order 6 pairs would cross; the makespan is set by the slowest either way,
  // but the mean latency shows the halves: 6 messages at the socket's speed, 2 across, each way.
  const double envelope = 16, bytes = 1e6 + envelope;
  const double same = 2.1e-6 + bytes / 25e9, across = 2.4e-6 + bytes / 10e9;
  CHECK(v.at("sim_makespan") == doctest::Approx(across).epsilon(1e-9));
  CHECK(v.at("sim_avg_latency") == doctest::Approx((12 * same + 4 * across) / 16).epsilon(1e-9));
}
