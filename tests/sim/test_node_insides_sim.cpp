// Transfers between ranks on one node with node insides: timed by the level their cores share (t_s +
// that level's latency + bytes / its bandwidth), so on a 2-socket node an intra-socket transfer beats a
// cross-socket one by exactly the declared values; rank order without a choice of cores; slot errors.
#include <doctest/doctest.h>

#include "sim/simulate.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

constexpr double ts = 2e-6, bytes = 1e6;
constexpr double socket_bw = 25e9, socket_latency = 100e-9, machine_bw = 10e9, machine_latency = 400e-9;

std::string two_socket_node() {
  return temp_file("sim-two-socket.yaml",
                   "levels:\n"
                   "  - {name: machine, bandwidth: 10GB/s, latency: 400ns}\n"
                   "  - {name: package, count: 2, bandwidth: 25GB/s, latency: 100ns}\n"
                   "  - {name: core, count: 4}\n");
}

double transfer(const RoutedNetwork& routed, std::vector<int> cores, const std::string& model) {
  const Trace trace = read_ti_trace(temp_file("sim-insides.txt", "0 send 1 0 1000000\n1 recv 0 0 1000000\n"));
  SimOptions options;
  options.model = model;
  options.envelope = 0;  // the closed form counts the payload only
  if (!cores.empty()) options.rank_cores = [cores](const Placement&) { return cores; };
  return simulate(routed, {0, 0}, trace, options).makespan;
}

}  // namespace

TEST_CASE("on a 2-socket node an intra-socket transfer is faster than a cross-socket one by the declared levels") {
  RoutedNetwork routed(make_network("mesh:2x1,node=" + two_socket_node()));
  const double same_socket = ts + socket_latency + bytes / socket_bw;
  const double across = ts + machine_latency + bytes / machine_bw;
  for (const char* model : {"flow", "store-and-forward", "packet"}) {
    CAPTURE(std::string(model));
    CHECK(transfer(routed, {0, 3}, model) == doctest::Approx(same_socket).epsilon(1e-12));
    CHECK(transfer(routed, {1, 6}, model) == doctest::Approx(across).epsilon(1e-12));
    CHECK(transfer(routed, {}, model) == doctest::Approx(same_socket).epsilon(1e-12));  // rank order: cores 0 and 1
  }
  CHECK(transfer(routed, {1, 6}, "flow") - transfer(routed, {0, 3}, "flow") ==
        doctest::Approx(machine_latency - socket_latency + bytes / machine_bw - bytes / socket_bw).epsilon(1e-9));
}

TEST_CASE("a rank on a slot its node does not have is an error naming it") {
  RoutedNetwork routed(make_network("mesh:2x1,node=" + two_socket_node()));
  CHECK(error_of([&] {
          transfer(routed, {0, 8}, "flow");
        }) == "rank 1 is on slot 8 of node node-0, which has 8 (machine > 2 package > 4 core (8 slots))");
}
