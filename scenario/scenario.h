// Scenario files: one YAML document describes a run -- network, routing, workload, mappers,
// model, seed, replicates, output (docs/scenario.md lists every key). Loading is strict: unknown
// keys (with the nearest valid one), wrong types, bad units and out-of-range values are errors
// naming FILE:LINE:COLUMN. run_scenario (run.h) builds the parts and reports a failure at the key
// that caused it, before any mapping runs. Key paths ("network.switches", "model.t_s") address any value for
// --set and for sweeps; a spec string ("irregular:nodes=256") is opened into a map when a path
// descends into it.
#pragma once
#include <cstdint>
#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/simulate.h"
#include "support/yaml_reader.h"
#include "topologies/failures.h"
#include "topologies/link_params.h"

namespace mapsim {

struct ScenarioJob;

struct Scenario {
  std::string source;       // file the document came from (for messages and relative paths)
  std::string name;
  std::string network;      // generator spec as given, relative paths resolved
  LinkOverrides links;      // model: link keys, typed; make_network hands them to the generator
  // failures: links and switches removed before routing (topologies/failures.h); `failures.seed`
  // is the key's seed, or 0 when none was given (then each replicate's seed: failures_at).
  Failures failures;
  bool failures_given = false, failure_seed_given = false;
  double failures_time = 0;  // failures.at: 0, before routing; else the links fail at that time of the run
  std::string routing = "default";
  std::string process;      // process topology spec (synthetic workload) ...
  std::string pattern = "exchange";
  bool pattern_given = false;  // without a model, only a pattern given is checked
  std::string trace;        // ... or a TI trace
  std::string traffic;      // ... or open-loop traffic from every node (sim/traffic.h spec; no mapping)
  std::vector<std::string> mappers;
  std::string allocation = "all";
  int slots = 1;
  std::string ocs;          // optical circuits spec (sim/ocs.h), empty: EPS only
  bool simulate = true;     // model: none -> mapping metrics only
  SimOptions sim;
  uint64_t seed = 1;
  int replicates = 1;
  std::string output;
  // jobs: several jobs at once on the network (run by scenario/jobs_run.h); each is this scenario
  // with its own workload, mapping and allocation. Empty: the single-job form above.
  std::vector<ScenarioJob> jobs;
  // background: open-loop traffic between the nodes no job holds, beside the jobs (sim/background.h),
  // a traffic spec; its injection lasts background_duration, or (0) the jobs' starts and alone run times.
  std::string background;
  double background_duration = 0;
  bool interference_pairs = true;  // interference: pairs (the matrix, by running every pair of jobs) or none
  YAML::Node document;      // the document as given, after --set (hashing, summary.json)
  YamlOverrides overrides;  // the values set by --set or by command-line flags, which errors name

  // Replicate r (0-based) runs with seed + r: every spec whose component declares a `seed`
  // parameter (Registry::syntax) and was given none gets it -- allocations included -- and so do the
  // mappers. Explicit seeds stay fixed across replicates.
  // Whether the workload gives message sizes (a trace, or a synthetic program: simulated, or its pattern
  // given), so that volumes are bytes; otherwise they are the process graph's edge weights.
  bool workload_bytes() const { return !trace.empty() || simulate || pattern_given; }
  uint64_t replicate_seed(int r) const { return seed + static_cast<uint64_t>(r); }
  std::string network_spec(int r) const;
  std::string process_spec(int r) const;
  std::string pattern_spec(int r) const;
  std::string allocation_spec(int r) const;
  Failures failures_at(int r) const;
};

// One job of a multi-job scenario: a single-job scenario of its own (the parent's network, routing,
// model, seed, slots; the job's workload, one mapper and its allocation), started `start` seconds
// after time 0 or, with `after` >= 0, after job `after` has finished.
struct ScenarioJob {
  std::string name;
  Scenario scenario;
  double start = 0;
  int after = -1;
};

// What a row of results stands for: each mapper, or each job of a multi-job scenario.
std::vector<std::string> row_labels(const Scenario& scenario);

// Reads a YAML file (malformed YAML -> FILE:LINE:COL error).
YAML::Node load_yaml_file(const std::string& path);
// Sets the value at a dotted key path ("network.switches"); `value` is YAML text ("64", "[a, b]").
// Throws naming `origin` (e.g. "--set network.x=1") when the path cannot be followed.
// The value set is added to `overrides` when given, so that errors at it name `origin`.
void set_key_path(YAML::Node& document, const std::string& path, const YAML::Node& value, const std::string& origin,
                  YamlOverrides* overrides = nullptr);
// "key.path=value" -> (key.path, value parsed as YAML).
std::pair<std::string, YAML::Node> parse_assignment(const std::string& text, const std::string& origin);

// Structural validation and conversion of a document (no network is built).
Scenario parse_scenario(const YAML::Node& document, const std::string& source, YamlOverrides overrides = {});
// The same run configuration from command-line flags (mapsim map, compare, simulate): each value
// is set at its scenario key path as YAML would give it, so that flags and files share one key
// vocabulary, one validation and one set of defaults. Errors name the flag, not a file position.
struct FlagValue {
  std::string key;   // scenario key path: "network", "model.mtu", "mapping"
  std::string flag;  // "--topology"
  YAML::Node value;  // a scalar, or a list (mapping)
};
Scenario scenario_from_flags(const std::string& command, const std::vector<FlagValue>& values);
// Scalar FlagValues from {key, flag, value} triples, leaving out the flags not given (empty values).
std::vector<FlagValue> given_flags(const std::vector<std::array<std::string, 3>>& key_flag_value);

// Loads FILE, applies the assignments, parses.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& assignments = {});
// Runs `build`; a mapsim::Error from it is thrown again naming the scenario key (e.g. "network",
// "mapping.1") and its FILE:LINE:COL where the key has a mark, or the flag or --set that set the key;
// a NotApplicable stays one.
void at_key(const Scenario& scenario, const std::string& key, const std::function<void()>& build);
// The key path of one of the scenario's mappers: "mapping", or "mapping.1" in a list.
std::string mapper_key(const Scenario& scenario, const std::string& mapper);
// What needs no network: the mappers' names, and whether the model can carry optical circuits.
void check_scenario(const Scenario& scenario);

// Stable 64-bit FNV-1a hash of the document's YAML text, as 16 hex digits.
std::string document_hash(const YAML::Node& document);

}  // namespace mapsim
