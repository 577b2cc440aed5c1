// The options every simulation model takes (simulate.h ModelOption): one declaration each.
#include "sim/simulation.h"
#include "support/error.h"
#include "support/spec.h"
#include "support/units.h"

namespace mapsim {

void ModelOption::set(SimOptions& options, const ParamValue& value) const {
  if (field) options.*field = value.number;
  else set_text(options, value.text);
}

namespace {

ModelOption number_option(Param param, std::string flag, std::function<std::string()> help, double SimOptions::*field) {
  return {std::move(param), std::move(flag), std::move(help), field, {}};
}
ModelOption text_option(Param param, std::string flag, std::function<std::string()> help,
                        std::function<void(SimOptions&, const std::string&)> set_text) {
  return {std::move(param), std::move(flag), std::move(help), nullptr, std::move(set_text)};
}

}  // namespace

const std::vector<ModelOption>& builtin_model_options() {
  static const std::vector<ModelOption> table = [] {
    const SimOptions d;
    // Errors of set_text name the key first: the scenario reports them as "model." + message.
    const auto named = [](const std::string& name, const std::function<void()>& set) {
      try {
        set();
      } catch (const Error& e) {
        throw Error(name + ": " + e.what());
      }
    };
    // In the order the scenario checks them.
    return std::vector<ModelOption>{
        number_option(
            bandwidth_param("intra_node_bandwidth", d.intra_node_bandwidth, "between ranks on one node (no network resources)"),
            "--intra-node-bandwidth",
            [v = d.intra_node_bandwidth] { return "Bandwidth between ranks on one node, default " + format_byte_rate(v); },
            &SimOptions::intra_node_bandwidth),
        number_option(with_range_words(size_param("mtu", d.mtu, "packet size (model.mtu, --mtu)", 1), "at least 1 byte"),
                      "--mtu", [v = d.mtu] { return "Packet size of the packet model, default " + format_size(v); },
                      &SimOptions::mtu),
        number_option(
            size_param("eager_threshold", d.eager_threshold, "eager/rendezvous switch (SMPI's smpi/send-is-detached-thresh)"),
            "--eager",
            [v = d.eager_threshold] {
              return "Eager/rendezvous threshold (SMPI's send-is-detached-thresh), default " +
                     format_size(v);
            },
            &SimOptions::eager_threshold),
        number_option(
            time_param("test_time", d.test_time, "what a trace's test takes before it tests (SMPI's smpi/test)"), "--test-time",
            [v = d.test_time] { return "Time a trace's `test` takes before it tests (SMPI's smpi/test), default " + format_time(v); },
            &SimOptions::test_time),
        text_option(text_param("collectives", "mapsim's", "collective algorithms by SimGrid's names (alltoallv=pair, mpich, ...)"),
                    "--collectives",
                    [] {
                      return "Collective algorithms, SimGrid's names, e.g. alltoallv=pair,allgatherv=mpich_ring (default: "
                             "mapsim's; " +
                             collectives_help() + ")";
                    },
                    // parse_collectives' errors already begin "collectives: "
                    [](SimOptions& o, const std::string& text) { o.collectives = parse_collectives(text); }),
        number_option(
            with_range_words(real_param("flops", d.flops, "node speed for compute actions, flop/s", 1, 1e18), "1 to 1e18 flop/s"),
            "--flops", [v = d.flops] { return "Node speed for compute actions, flop/s (default " + format_number(v) + ")"; },
            &SimOptions::flops),
        text_option(text_param("sharing", "fair", "flow model: fair max-min or smpi (weighted by route latency)"), "--sharing",
                    [] { return std::string("Flow model bandwidth sharing: fair (default) or smpi (weighted by route latency)"); },
                    [](SimOptions& o, const std::string& text) {
                      o.smpi_sharing = one_of("sharing", text, {"fair", "smpi"}) == 1;
                    }),
        text_option(text_param("flow_solver", "mapsim", "flow model: mapsim (incremental max-min) or simgrid (SimGrid's CM02)"),
                    "--flow-solver",
                    [] {
                      return std::string(
                          "Flow model solver: mapsim (default, incremental max-min) or simgrid (SimGrid's CM02, the slower "
                          "reference)");
                    },
                    [named](SimOptions& o, const std::string& text) {
                      named("flow_solver", [&] { o.flow_solver = parse_flow_solver(text); });
                    }),
        number_option(with_range_words(real_param("flow_tolerance", d.flow_tolerance,
                                                  "flow model: 0 exact, or eps > 0: flows enter and leave up to eps x their "
                                                  "transfer time early/late, so that solves are batched",
                                                  0, 0.1),
                                       "0 to 0.1"),
                      "--flow-tolerance",
                      [] {
                        return std::string(
                            "Flow model (mapsim solver) tolerance: 0 (default) exact; eps > 0 batches max-min solves, moving "
                            "each flow's entry and release by at most eps x its transfer time (docs/simulation.md)");
                      },
                      &SimOptions::flow_tolerance),
        text_option(text_param("path_selection", path_selection_name(d.path_selection),
                               "deterministic, ecmp, spray or adaptive over a multipath routing"),
                    "--path-selection",
                    [] {
                      return std::string(
                          "Paths over a multipath routing: deterministic (default, its tables), ecmp (per flow hash), "
                          "spray (per packet, random) or adaptive (per packet, least queued port; port models)");
                    },
                    [named](SimOptions& o, const std::string& text) {
                      named("path_selection", [&] { o.path_selection = parse_path_selection(text); });
                    }),
    };
  }();
  return table;
}

const ModelOption& builtin_model_option(const std::string& name) {
  for (const ModelOption& o : builtin_model_options())
    if (o.param.name == name) return o;
  throw InternalError("model option '" + name + "' is not declared");
}

void check_model_options(const SimOptions& options) {
  for (const ModelOption& o : builtin_model_options())
    if (o.field && !param_in_range(o.param, options.*o.field))
      throw Error("simulation parameters: " + o.param.name + " must be " + param_range_text(o.param));
}

}  // namespace mapsim
