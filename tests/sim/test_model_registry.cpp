// A simulation model added the documented way: one transport and its registration in the test's
// own file, with an option of its own that reaches it from SimOptions (a scenario's model: map).
#include <doctest/doctest.h>

#include "sim/simulate.h"
#include "sim/transport.h"
#include "support/error.h"
#include "test_files.h"
#include "topologies/network_factory.h"

using namespace mapsim;

namespace {

// "ideal": no contention; a message arrives after its zero-load latency plus bytes / bandwidth.
class IdealTransport : public sim::Transport {
 public:
  IdealTransport(double bandwidth, Delivered delivered) : bandwidth_(bandwidth), delivered_(std::move(delivered)) {
    sim::use_event_queue_only();
  }
  void start(int id, sim::Message& m, const std::vector<sim::Leg>&, double latency) override {
    sim::at(sim::now() + latency + m.wire / bandwidth_, [this, id] {
      ++events_;
      delivered_(id);
    });
  }
  long events() const override { return events_; }

 private:
  double bandwidth_;
  Delivered delivered_;
  long events_ = 0;
};

}  // namespace

MAPSIM_REGISTER(sim::model_registry(),
                {"ideal", "test: no contention, zero-load latency plus bytes / bandwidth",
                 {bandwidth_param("bandwidth", 1e9, "end-to-end bandwidth")},
                 {false, [](const RoutedNetwork&, const SimOptions& options, const std::vector<Circuit>&,
                            std::vector<sim::Message>&, sim::Transport::Delivered delivered) -> std::unique_ptr<sim::Transport> {
                    return std::make_unique<IdealTransport>(model_option(options, "bandwidth").number,
                                                            std::move(delivered));
                  }}});

TEST_CASE("a registered toy model runs with an option of its own") {
  RoutedNetwork routed(make_network("mesh:4x1"));
  const Trace trace = read_ti_trace(temp_file("ideal.txt", "0 init\n0 send 1 0 10000\n1 init\n1 recv 0 0 10000\n"));
  SimOptions options;
  options.model = "ideal";
  options.envelope = 0;
  const double latency = 2e-6 + 3 * 20e-9 + 4 * 300e-9;  // t_s + d t_p + (d+1) t_r over 3 hops
  CHECK(simulate(routed, {0, 3}, trace, options).makespan == doctest::Approx(latency + 10000 / 1e9).epsilon(1e-12));
  set_model_option(options, "bandwidth", "2GB/s");
  CHECK(options.model_options.at("bandwidth").number == 2e9);
  CHECK(simulate(routed, {0, 3}, trace, options).makespan == doctest::Approx(latency + 10000 / 2e9).epsilon(1e-12));
  CHECK_THROWS_WITH_AS(set_model_option(options, "bandwidth", "0Gbps"), doctest::Contains("must be above 0"), Error);
  CHECK_THROWS_WITH_AS(set_model_option(options, "credits", "4"), doctest::Contains("unknown key 'credits' for model ideal"), Error);
  CHECK_THROWS_AS(model_option(options, "credits"), InternalError);
  CHECK(parse_model("ideal") == "ideal");
}
