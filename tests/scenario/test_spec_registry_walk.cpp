// Every component of every registry whose specs a scenario holds, walked: the registries are the
// one source of what the scenario does with a spec -- the seed of each replicate, and the key of a
// positional value when --set, a sweep axis or the map form opens the spec into a map.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "mappers/allocation.h"
#include "mappers/mapper.h"
#include "mappers/process_graph.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "sim/traffic.h"
#include "sim/transport.h"
#include "sim/workload.h"
#include "test_files.h"
#include "topologies/network_factory.h"
#include "routing/routing.h"

using namespace mapsim;

namespace {

// The scenario key that holds one registry's specs, a document that needs only that key, the spec
// as parsed, and the spec replicate r runs with (none: the scenario never seeds these specs).
struct Field {
  std::string key;
  std::string base;
  std::function<std::string(const Scenario&)> held;
  std::function<std::string(const Scenario&, int)> replicate_spec;
};

std::string emitted(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return std::string(out.c_str()) + "\n";
}

YAML::Node document(const Field& field, const YAML::Node& spec) {
  YAML::Node doc = YAML::Load(field.base);
  set_key_path(doc, field.key, spec, "test");
  return doc;
}

// A positional value: a file path is absolute (kept as given) and holds a comma; other values are
// opaque here, as no component is built.
std::string example(const std::string& positional, int i) {
  return positional == "PATH" ? "/tmp/mapsim-walk/in,put" + std::to_string(i) + ".txt" : positional + std::to_string(i);
}

template <class Factory>
void walk(const Registry<Factory>& registry, const Field& field) {
  for (const auto* entry : registry.entries()) {
    std::vector<std::string> names = entry->aliases;
    names.push_back(entry->name);
    for (const std::string& name : names) {
      CAPTURE(name);
      const bool seeded =
          std::any_of(entry->params.begin(), entry->params.end(), [](const Param& p) { return p.name == "seed"; });
      const std::string given = entry->positional.empty() ? name : name + ":" + example(entry->positional, 1);
      if (seeded) {
        INFO(registry.kind() << " declares seed=");
        REQUIRE_MESSAGE(field.replicate_spec, "the scenario does not seed " << field.key);
        YAML::Node doc = document(field, YAML::Node(given));
        doc["seed"] = 5;
        doc["replicates"] = 2;
        const Scenario s = parse_scenario(doc, temp_path("walk.yaml"));
        for (int r = 0; r < 2; ++r) {
          const std::string text = field.replicate_spec(s, r);
          CAPTURE(text);
          const Spec spec = parse_spec(registry, text);
          CHECK(spec.name() == name);
          CHECK(spec.values().count("seed") == 1);
          if (spec.values().count("seed")) CHECK(spec.values().at("seed") == std::to_string(5 + r));
        }
      }
      if (entry->positional.empty()) continue;
      const std::string key = field.key + "." + entry->positional_key, changed = example(entry->positional, 2);
      const auto check = [&](const std::string& how, const Scenario& s, const std::string& value) {
        INFO(how);
        const std::string text = field.held(s);
        CAPTURE(text);
        const Spec spec = parse_spec(registry, text);
        CHECK(spec.name() == name);
        CHECK(spec.positional().value_or("(none)") == value);
        CHECK(spec.values().empty());
      };
      // --set KEY.POSITIONAL_KEY=VALUE on "NAME:VALUE" opens the spec into its map form.
      const std::string file = temp_file("walk.yaml", emitted(document(field, YAML::Node(given))));
      check("--set " + key, load_scenario(file, {key + "=" + changed}), changed);
      // A sweep axis on the same key.
      YAML::Node sweep;
      sweep["scenario"] = document(field, YAML::Node(given));
      sweep["vary"][key].push_back(changed);
      const Sweep loaded = load_sweep(temp_file("walk-sweep.yaml", emitted(sweep)));
      check("vary " + key, loaded.scenario(loaded.point(0)), changed);
      // The map form, written as such.
      YAML::Node map;
      map["name"] = name;
      map[entry->positional_key] = example(entry->positional, 1);
      check("map form", parse_scenario(document(field, map), temp_path("walk.yaml")), example(entry->positional, 1));
    }
  }
}

const char* kNetworkOnly = "network: mesh:2x2\n";
const char* kWithProcess = "network: mesh:2x2\nworkload: {process: ring:4}\n";

}  // namespace

TEST_CASE("every seeded spec gets seed + r; every positional spec survives --set, a sweep and the map form") {
  walk(network_registry(), {"network", "workload: {process: ring:4}\n", [](const Scenario& s) { return s.network; },
                            &Scenario::network_spec});
  walk(process_registry(),
       {"workload.process", kNetworkOnly, [](const Scenario& s) { return s.process; }, &Scenario::process_spec});
  walk(workload_registry(),
       {"workload.pattern", kWithProcess, [](const Scenario& s) { return s.pattern; }, &Scenario::pattern_spec});
  walk(allocation_registry(),
       {"allocation", kWithProcess, [](const Scenario& s) { return s.allocation; }, &Scenario::allocation_spec});
  // Mappers, routings, models and traffic patterns take the replicate's seed from the run, not from their specs.
  walk(mapper_registry(), {"mapping", kWithProcess, [](const Scenario& s) { return s.mappers.at(0); }, nullptr});
  walk(routing_registry(), {"routing", kWithProcess, [](const Scenario& s) { return s.routing; }, nullptr});
  walk(sim::model_registry(), {"model", kWithProcess, [](const Scenario& s) { return s.sim.model; }, nullptr});
  walk(traffic_registry(), {"workload.traffic", kNetworkOnly, [](const Scenario& s) { return s.traffic; }, nullptr});
}
