// Sweep files: a base scenario (a path or an inline map) plus `vary:` -- lists or ranges over key
// paths, combined as a cartesian product -- and `zip:` groups of equally long lists that advance
// together. Each point is a complete scenario document, identified by a hash of that document
// (so --resume recognises finished points even after the sweep file was extended).
// Points are built one at a time from the axes, on demand: a sweep of 100,000 points never holds
// them all, and one cluster task builds only its own.
// docs/scenario.md describes the format.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace mapsim {

constexpr size_t kMaxSweepPoints = 100000;  // a bound on the tables and job arrays a file can ask for

struct SweepPoint {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> values;  // varied key path -> value as written
  YAML::Node document;
  YamlOverrides overrides;  // the sweep's set:, seed, replicates and --set values in the document
  std::string hash;
  std::string origin;       // "SWEEP: point I (key=value, ...)", which errors at the point name
};

// One axis of the product: one key (vary) or several keys that advance together (zip).
struct SweepAxis {
  std::vector<std::string> keys;
  std::vector<std::vector<YAML::Node>> values;  // values[i][k]: i-th setting of keys[k]
};

struct Sweep {
  std::string source;                    // the sweep file
  std::string scenario_source;           // base scenario file (relative paths resolve from it)
  std::string name, output;
  std::vector<std::string> varied_keys;  // in the order of the file: vary keys, then zip keys
  // Varied keys with units ("2.5Gbps"): tables add KEY_si in SI base units, whose unit this gives (B/s, s, B).
  std::map<std::string, std::string> si_keys;
  std::vector<SweepAxis> axes;
  size_t size = 1;                       // points: the product of the axes' lengths

  // Point `index` (0 <= index < size), the last axis varying fastest; no other point is built.
  SweepPoint point(size_t index) const;
  Scenario scenario(const SweepPoint& point) const { return parse_scenario(point.document, scenario_source, point.overrides); }
  // The point's scenario, or an Error naming the point ("sweep.yaml: point 3 (slots=0): ...").
  Scenario checked_scenario(const SweepPoint& point) const;

  // What every point starts from (kept as text: each point parses a fresh copy, with line marks).
  YAML::Node document;                   // the sweep file (set:, replicates, seed)
  std::string base_text;                 // the base scenario's file, or the sweep file for an inline scenario
  std::vector<std::string> assignments;  // --set KEY.PATH=VALUE
};

// Loads a sweep and its axes; `assignments` (KEY.PATH=VALUE) apply to the base scenario. Points
// are checked as they are built (for_each_point, Sweep::checked_scenario).
Sweep load_sweep(const std::string& path, const std::vector<std::string>& assignments = {});
// Builds every point in turn, checks that it is a valid scenario (an Error names the first that
// is not) and hands it to `each`; one point is held at a time.
void for_each_point(const Sweep& sweep, const std::function<void(const SweepPoint&, const Scenario&)>& each);

}  // namespace mapsim
