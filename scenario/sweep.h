// Sweep files: a base scenario (a path or an inline map) plus `vary:` -- lists or ranges over key
// paths, combined as a cartesian product -- and `zip:` groups of equally long lists that advance
// together. Each point is a complete scenario document, identified by a hash of that document
// (so --resume recognises finished points even after the sweep file was extended).
// docs/scenario.md describes the format.
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace mapsim {

constexpr size_t kMaxSweepPoints = 100000;  // each point holds its scenario document

struct SweepPoint {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> values;  // varied key path -> value as written
  YAML::Node document;
  YamlOverrides overrides;  // the sweep's set:, seed, replicates and --set values in the document
  std::string hash;
};

struct Sweep {
  std::string source;                    // the sweep file
  std::string scenario_source;           // base scenario file (relative paths resolve from it)
  std::string name, output;
  std::vector<std::string> varied_keys;  // in the order of the file: vary keys, then zip keys
  std::set<std::string> si_keys;         // varied keys with units ("2.5Gbps"): tables add KEY_si in SI base units
  std::vector<SweepPoint> points;

  Scenario scenario(const SweepPoint& point) const { return parse_scenario(point.document, scenario_source, point.overrides); }
};

// Loads and expands a sweep; `assignments` (KEY.PATH=VALUE) apply to the base scenario. Every
// point is parsed (keys, types, units) before this returns; networks are built only when run.
Sweep load_sweep(const std::string& path, const std::vector<std::string>& assignments = {});

}  // namespace mapsim
