#include "scenario/sweep.h"

#include <cmath>
#include <set>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/consumer_quoting.h"
#include "support/error.h"
#include "support/message.h"
#include "support/units.h"
#include "support/yaml_reader.h"

namespace mapsim {
namespace {

const std::vector<std::string> kSweepKeys = {"name", "scenario", "set", "vary", "zip", "replicates", "seed", "output"};

std::string value_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// A range bound: a number, or a quantity with a unit (bandwidth, time or size), in SI base units;
// `unit` remembers the first bound's kind so that the others must have the same.
double range_bound(const YamlReader& reader, const YAML::Node& node, const std::string& what, std::string& unit) {
  const std::string text = reader.scalar(node, what);
  double value = 0;
  std::string kind;
  if (!parse_quantity(text, value, kind))
    reader.fail(node, what + ": expected a number or a quantity with a unit (10Gbps, 2us, 4KiB), got '" + text + "'");
  if (!unit.empty() && unit != kind) reader.fail(node, what + ": expected a " + unit + " like the range's from");
  unit = kind;
  return value;
}

// A range {from, to, step} or {from, to, factor}; `to` is included when it is hit (1e-9 relative).
// Bounds with units give values in SI base units (bytes/s, seconds, bytes).
std::vector<YAML::Node> range_values(const YamlReader& reader, const YAML::Node& range, const std::string& key) {
  reader.check_keys(range, {"from", "to", "step", "factor"});
  if (!range["from"] || !range["to"] || (!range["step"] == !range["factor"]))
    reader.fail(range, key + ": a range needs from, to and one of step or factor");
  std::string unit;
  const double from = range_bound(reader, range["from"], key + ".from", unit);
  const double to = range_bound(reader, range["to"], key + ".to", unit);
  const bool geometric = static_cast<bool>(range["factor"]);
  const double by = geometric ? reader.number(range["factor"], "factor") : range_bound(reader, range["step"], key + ".step", unit);
  if (geometric ? !(by > 1 && from > 0) : !(by > 0))
    reader.fail(range, key + (geometric ? ": factor must be > 1 and from > 0" : ": step must be > 0"));
  if (to < from) reader.fail(range, key + ": to must be >= from");
  std::vector<YAML::Node> values;
  const double slack = 1e-9 * std::max(std::abs(from), std::abs(to));
  for (long i = 0;; ++i) {
    const double value = geometric ? from * std::pow(by, static_cast<double>(i)) : from + by * static_cast<double>(i);
    if (value > to + slack) break;
    if (values.size() >= 100000) reader.fail(range, key + ": more than 100000 values");
    const bool integral = std::abs(value - std::round(value)) <= 1e-9 * std::max(1.0, std::abs(value));
    values.emplace_back(integral ? std::to_string(std::llround(value)) : format_number(value, 12));
  }
  return values;
}

std::vector<YAML::Node> axis_values(const YamlReader& reader, const YAML::Node& node, const std::string& key) {
  if (node.IsMap()) return range_values(reader, node, key);
  reader.expect_sequence(node, key + " (a list or a range {from, to, step})");
  if (node.size() == 0) reader.fail(node, key + ": the list is empty");
  std::vector<YAML::Node> values;
  for (const auto& item : node) values.push_back(item);
  return values;
}

void add_zip_group(const YamlReader& reader, const YAML::Node& group, std::vector<SweepAxis>& axes) {
  reader.expect_map(group, "zip (key: [values], ...)");
  SweepAxis axis;
  std::vector<std::vector<YAML::Node>> columns;
  for (const auto& entry : group) {
    axis.keys.push_back(entry.first.Scalar());
    columns.push_back(axis_values(reader, entry.second, "zip." + axis.keys.back()));
    if (columns.back().size() != columns.front().size())
      reader.fail(entry.second, "zip." + axis.keys.back() + ": has " + std::to_string(columns.back().size()) +
                                    " values but zip." + axis.keys.front() + " has " + std::to_string(columns.front().size()));
  }
  for (size_t i = 0; i < columns.front().size(); ++i) {
    axis.values.emplace_back();
    for (const auto& column : columns) axis.values.back().push_back(column[i]);
  }
  axes.push_back(std::move(axis));
}

// A fresh parse of the base, which keeps its line marks (YAML::Clone drops them), with the
// sweep's set:, replicates, seed and --set values.
YAML::Node fresh_base(const Sweep& sweep, YamlOverrides& overrides) {
  const YamlReader reader(sweep.source);
  const YAML::Node& doc = sweep.document;
  const YAML::Node parsed = YAML::Load(sweep.base_text);  // parsed without error when the sweep was loaded
  YAML::Node base = doc["scenario"].IsMap() ? parsed["scenario"] : parsed;
  if (base.IsMap()) base.remove("output");  // a sweep writes to its own output
  if (doc["set"])
    for (const auto& entry : doc["set"])
      set_key_path(base, entry.first.Scalar(), entry.second, reader.where(entry.second) + ": set." + entry.first.Scalar(),
                   &overrides);
  for (const char* key : {"replicates", "seed"})
    if (doc[key]) set_key_path(base, key, doc[key], reader.where(doc[key]) + ": " + key, &overrides);
  for (const std::string& text : sweep.assignments) {
    auto [key, value] = parse_assignment(text, "--set " + text);
    set_key_path(base, key, value, "--set " + text, &overrides);
  }
  return base;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

SweepPoint Sweep::point(size_t index) const {
  SweepPoint point;
  point.index = static_cast<int>(index);
  point.document = fresh_base(*this, point.overrides);
  size_t rest = index;
  std::vector<size_t> choice(axes.size());
  for (size_t a = axes.size(); a-- > 0;) {
    choice[a] = rest % axes[a].values.size();
    rest /= axes[a].values.size();
  }
  std::string label;
  for (size_t a = 0; a < axes.size(); ++a)
    for (size_t k = 0; k < axes[a].keys.size(); ++k) {
      const YAML::Node& value = axes[a].values[choice[a]][k];
      point.values.emplace_back(axes[a].keys[k], value_text(value));
      label += (label.empty() ? "" : ", ") + axes[a].keys[k] + "=" + value_text(value);
    }
  point.origin = source + ": point " + std::to_string(index) + (label.empty() ? "" : " (" + label + ")");
  for (size_t a = 0; a < axes.size(); ++a)
    for (size_t k = 0; k < axes[a].keys.size(); ++k)
      set_key_path(point.document, axes[a].keys[k], axes[a].values[choice[a]][k], point.origin);
  point.hash = document_hash(point.document);
  return point;
}

Scenario Sweep::checked_scenario(const SweepPoint& point) const {
  try {
    return scenario(point);
  } catch (const Error& e) {
    throw Error(point.origin + ": " + e.what());
  }
}

void for_each_point(const Sweep& sweep, const std::function<void(const SweepPoint&, const Scenario&)>& each) {
  for (size_t p = 0; p < sweep.size; ++p) {
    const SweepPoint point = sweep.point(p);
    each(point, sweep.checked_scenario(point));
  }
}

Sweep load_sweep(const std::string& path, const std::vector<std::string>& assignments) {
  const YamlReader reader(path);
  const YAML::Node doc = reader.load();
  reader.expect_map(doc, "a sweep (scenario, vary, ...)");
  reader.check_keys(doc, kSweepKeys);
  Sweep sweep;
  sweep.source = path;
  sweep.document = doc;
  sweep.assignments = assignments;
  const std::string stem = std::filesystem::path(path).stem().string();
  sweep.name = doc["name"] ? reader.scalar(doc["name"], "name") : stem;
  // The name and the folder are written into job scripts (--emit), where a newline would start a command.
  for (const char* key : {"name", "output"})
    if (doc[key] && !control_character(doc[key].Scalar()).empty())
      reader.fail(doc[key], std::string(key) + ": expected text without control characters, got " +
                                excerpt(doc[key].Scalar()) + " (it holds " + control_character(doc[key].Scalar()) + ")");
  if (!doc["scenario"]) reader.fail(doc, "missing 'scenario': the base scenario's file or an inline map");
  if (doc["scenario"].IsScalar()) {
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    sweep.scenario_source = (dir / reader.scalar(doc["scenario"], "scenario")).lexically_normal().string();
    const YAML::Node base = load_yaml_file(sweep.scenario_source);  // its errors, once
    if (!base.IsMap())  // named here, not as every point's error
      YamlReader(sweep.scenario_source).fail(base, "expected a scenario: a map with network, workload, mapping, ...");
    sweep.base_text = read_text(sweep.scenario_source);
  } else {
    reader.expect_map(doc["scenario"], "scenario");
    sweep.scenario_source = path;
    sweep.base_text = read_text(path);
  }
  if (doc["set"]) reader.expect_map(doc["set"], "set");
  sweep.output = doc["output"] ? reader.scalar(doc["output"], "output") : "results/" + stem;
  if (sweep.output.empty()) reader.fail(doc["output"], "output: expected a folder, got an empty name");
  if (doc["output"] && !std::filesystem::path(sweep.output).is_absolute())
    sweep.output = (std::filesystem::path(path).parent_path() / sweep.output).lexically_normal().string();

  std::vector<SweepAxis>& axes = sweep.axes;
  if (doc["vary"]) {
    reader.expect_map(doc["vary"], "vary (key.path: [values] or {from, to, step})");
    for (const auto& entry : doc["vary"])
      axes.push_back({{entry.first.Scalar()}, {}});
    size_t a = 0;
    for (const auto& entry : doc["vary"]) {
      for (YAML::Node& value : axis_values(reader, entry.second, "vary." + entry.first.Scalar()))
        axes[a].values.push_back({value});
      ++a;
    }
  }
  if (doc["zip"]) {
    if (doc["zip"].IsSequence())
      for (const auto& group : doc["zip"]) add_zip_group(reader, group, axes);
    else
      add_zip_group(reader, doc["zip"], axes);
  }
  for (const SweepAxis& axis : axes)
    for (const std::string& key : axis.keys) {
      if (std::find(sweep.varied_keys.begin(), sweep.varied_keys.end(), key) != sweep.varied_keys.end())
        throw Error(path + ": key '" + key + "' is varied twice");
      sweep.varied_keys.push_back(key);
    }
  for (const SweepAxis& axis : axes) {
    sweep.size *= axis.values.size();
    if (sweep.size > kMaxSweepPoints)
      throw Error(path + ": the sweep has more than " + std::to_string(kMaxSweepPoints) + " points (the product of its axes)");
  }
  sweep.point(0);  // the base, set: and the varied key paths, checked once before any command goes on
  // Keys whose values carry units (plain numbers count as base units) get a numeric column.
  for (const SweepAxis& axis : axes)
    for (size_t k = 0; k < axis.keys.size(); ++k) {
      std::set<std::string> kinds;
      bool quantities = true;
      for (const auto& setting : axis.values) {
        double value;
        std::string kind;
        if (!parse_quantity(value_text(setting[k]), value, kind)) quantities = false;
        else if (kind != "number") kinds.insert(kind);
      }
      if (quantities && kinds.size() == 1) {
        const std::string& kind = *kinds.begin();
        sweep.si_keys[axis.keys[k]] = kind == "bandwidth" ? "B/s" : kind == "time" ? "s" : "B";
      }
    }
  return sweep;
}

}  // namespace mapsim
