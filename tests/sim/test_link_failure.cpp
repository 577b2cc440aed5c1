// Links that fail during a run (SimOptions::link_failure, the scenario's failures.at): messages
// injected from the failure time on take the routes of the network left, mapped onto the simulated
// network's links; messages injected before keep theirs.
#include <doctest/doctest.h>

#include <memory>
#include <set>

#include "sim/simulate.h"
#include "sim/workload.h"
#include "support/error.h"
#include "test_files.h"
#include "topologies/failures.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

LinkFailure failure_at(double at, const Network& network, const Failures& failures, const std::string& routing) {
  LinkFailure f{at, nullptr, {}};
  Network left = with_failures(network, failures, &f.original_link);
  f.routed = std::make_shared<const RoutedNetwork>(std::move(left), routing);
  return f;
}

}  // namespace

TEST_CASE("link failure: a message before the failure keeps its link, one after takes another") {
  // Two leaves, two spines: node 0 to node 2 goes up one of two links; fail that one at 1 ms.
  const Network net = make_network("fattree:k=2,levels=2");
  RoutedNetwork routed(make_network("fattree:k=2,levels=2"), "updn");
  std::vector<int> route;
  routed.route(0, 2, route);
  REQUIRE(!route.empty());
  const int failed = route.front() / 2;
  Failures failures;
  failures.names.push_back({net.switch_at(net.link(failed).a).name, net.switch_at(net.link(failed).b).name});
  // Rank 0 sends 1e5 bytes at once, sleeps 2 ms, sends again; rank 1 receives both.
  const Trace trace = read_ti_trace(temp_file("failure.txt", "0 init\n0 send 1 0 100000\n0 sleep 0.002\n0 send 1 0 100000\n"
                                                             "1 init\n1 recv 0 0 100000\n1 recv 0 0 100000\n"));
  for (const char* model : {"flow", "store-and-forward", "packet"})
    for (const char* selection : {"deterministic", "ecmp"}) {
      CAPTURE(model);
      CAPTURE(selection);
      SimOptions options;
      options.model = model;
      options.path_selection = parse_path_selection(selection);
      const SimResult healthy = simulate(routed, {0, 2}, trace, options);
      options.link_failure = failure_at(1e-3, net, failures, "updn");
      const SimResult r = simulate(routed, {0, 2}, trace, options);
      const double wire = 100000 + options.envelope;
      double failed_bytes = r.channels[2 * failed].bytes + r.channels[2 * failed + 1].bytes;
      if (healthy.channels[2 * failed].bytes + healthy.channels[2 * failed + 1].bytes == 2 * wire)
        CHECK(failed_bytes == wire);  // the first message only
      else
        CHECK(failed_bytes == 0);     // ecmp hashed the flow elsewhere anyway
      double total = 0;
      for (const PortLoad& p : r.channels) total += p.bytes;
      CHECK(total == doctest::Approx(2 * wire * route.size()));  // both messages crossed as many links
    }
}

TEST_CASE("link failure: from the failure on, no message crosses a failed link, on many seeds") {
  int routed_again = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    const std::string spec = "irregular:nodes=64,switches=20,seed=" + std::to_string(seed);
    const Network net = make_network(spec);
    RoutedNetwork routed(make_network(spec), "updn");
    Failures failures;
    failures.links = 2;
    failures.seed = seed;
    LinkFailure failure;
    try {
      failure = failure_at(0, net, failures, "updn");  // at time 0: every message takes the new routes
    } catch (const Error&) {
      continue;  // these links disconnect the network
    }
    std::set<int> kept(failure.original_link.begin(), failure.original_link.end());
    const Trace trace = make_workload("alltoall:size=10000", make_process_graph("ring:64"));
    Placement placement(64);
    for (int r = 0; r < 64; ++r) placement[r] = r;
    SimOptions options;
    options.model = "store-and-forward";
    options.link_failure = failure;
    const SimResult r = simulate(routed, placement, trace, options);
    for (int l = 0; l < net.num_links(); ++l)
      if (!kept.count(l)) CHECK(r.channels[2 * l].bytes + r.channels[2 * l + 1].bytes == 0);
    CHECK(r.messages == 64 * 63);
    ++routed_again;
  }
  CHECK(routed_again >= 4);
}

TEST_CASE("link failure: refused with paths chosen per packet or by UGAL") {
  const Network net = make_network("fattree:k=2,levels=2");
  RoutedNetwork routed(make_network("fattree:k=2,levels=2"), "updn");
  Failures failures;
  failures.links = 1;
  const Trace trace = make_workload("exchange", make_process_graph("ring:2"));
  SimOptions options;
  options.model = "store-and-forward";
  options.path_selection = PathSelection::Adaptive;
  options.link_failure = failure_at(0, net, failures, "updn");
  CHECK_THROWS_WITH_AS(simulate(routed, {0, 2}, trace, options),
                       doctest::Contains("links failing during the run need paths chosen from tables"), Error);
}
