#include "scenario/scenario.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>

#include "mappers/allocation.h"
#include "mappers/mapper.h"
#include "mappers/process_graph.h"
#include "routing/routing.h"
#include "sim/traffic.h"
#include "sim/workload.h"
#include "support/error.h"
#include "support/message.h"
#include "support/spec.h"
#include "support/yaml_reader.h"
#include "topologies/link_params.h"
#include "topologies/network_factory.h"

namespace mapsim {
namespace {

// A field written as a spec string or as a map {name: ..., key: value}; the positional part of a
// spec ("mesh:16x16", "file:PATH") has a key of its own in the map form. The components' registries
// say which specs take a seed, a path or a positional and its key.

// How the specs at a key path are written, for opening spec strings into maps; nullopt: no spec.
std::optional<SpecSyntax> spec_syntax(const std::string& path) {
  if (path == "network") return network_registry().syntax();
  if (path == "workload.process") return process_registry().syntax();
  if (path == "workload.pattern") return workload_registry().syntax();
  if (path == "workload.traffic" || path == "background") return traffic_registry().syntax();
  if (path == "mapping" || path.rfind("mapping.", 0) == 0) return mapper_registry().syntax();
  if (path == "allocation") return allocation_registry().syntax();
  if (path == "model" || path == "ocs") return SpecSyntax{};
  // A job's keys are written as the scenario's: jobs.2.workload.process as workload.process.
  if (const size_t dot = path.find('.', 5); path.rfind("jobs.", 0) == 0 && dot != std::string::npos)
    return spec_syntax(path.substr(dot + 1));
  return std::nullopt;
}
SpecSyntax syntax_at(const std::string& path) { return *spec_syntax(path); }

const std::vector<std::string> kTopKeys = {"name",  "network", "failures", "routing", "workload",   "mapping", "allocation",
                                           "slots", "model",   "ocs",      "seed",    "replicates", "output",  "jobs",
                                           "background", "interference"};
const std::vector<std::string> kJobKeys = {"name", "workload", "mapping", "allocation", "start", "after"};
const std::vector<std::string> kWorkloadKeys = {"process", "pattern", "trace", "traffic"};
std::string spec_text(const YamlReader& reader, const YAML::Node& node, const SpecSyntax& field, const std::string& what,
                      const std::string& implied_name = "") {
  if (node.IsScalar()) {
    if (node.Scalar().empty()) reader.fail(node, "expected " + what + " to be a spec such as NAME:key=value");
    return node.Scalar();
  }
  if (!node.IsMap()) reader.fail(node, "expected " + what + " to be a spec string or a map with a 'name' key");
  if (!node["name"] && implied_name.empty()) reader.fail(node, what + ": a map needs 'name' (e.g. name: irregular)");
  const std::string name = node["name"] ? reader.scalar(node["name"], what + ".name") : implied_name;
  auto positional = field.positional_key.find(name);
  std::string head, keys;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    if (key == "name") continue;
    const std::string value = reader.scalar(entry.second, what + "." + key);
    if (positional != field.positional_key.end() && key == positional->second) head = value;
    else if (field.path_valued.count(name) && !field.path_keys.count(key)) reader.fail(entry.first, what + ": " + name + " takes only '" + positional->second + "'");
    else keys += (keys.empty() ? "" : ",") + key + "=" + value;
  }
  std::string text = name;
  if (!head.empty() || !keys.empty()) text += ":" + head + (!head.empty() && !keys.empty() ? "," : "") + keys;
  return text;
}

YAML::Node spec_map(const std::string& text, const SpecSyntax& field) {
  Spec spec = field.parse(text);
  YAML::Node map(YAML::NodeType::Map);
  map["name"] = spec.name();
  if (spec.positional()) {
    auto key = field.positional_key.find(spec.name());
    map[key == field.positional_key.end() ? "value" : key->second] = *spec.positional();
  }
  for (const auto& [key, value] : spec.values()) map[key] = value;
  return map;
}

std::string with_seed(const std::string& text, const SpecSyntax& field, uint64_t seed) {
  if (text.empty()) return text;
  Spec spec = field.parse(text);
  if (!field.seeded.count(spec.name()) || spec.has("seed")) return text;
  return text + (text.find(':') == std::string::npos ? ":" : ",") + "seed=" + std::to_string(seed);
}

std::string resolve_path(const std::string& path, const std::string& source) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  const std::filesystem::path base = std::filesystem::path(source).parent_path();
  return base.empty() ? path : (base / path).lexically_normal().string();
}

std::string resolve_spec_path(const std::string& text, const SpecSyntax& field, const std::string& source) {
  Spec spec = field.parse(text);
  if (!field.path_valued.count(spec.name()) || !spec.positional()) return text;
  std::string resolved = spec.name() + ":" + resolve_path(*spec.positional(), source);
  for (const auto& [key, value] : spec.values())
    resolved += "," + key + "=" + (field.file_keys.count(key) ? resolve_path(value, source) : value);
  return resolved;
}

// A generator's node file (`node=PATH`, any network takes it: topologies/network_factory.cpp) is
// found beside the scenario, as every other path in it is.
std::string resolve_node_file(const std::string& network, const std::string& source) {
  const Spec spec = syntax_at("network").parse(network);
  if (!spec.has("node") || syntax_at("network").path_valued.count(spec.name())) return network;
  const std::string& path = spec.values().at("node");
  for (const char* before : {":", ","}) {
    const std::string given = before + std::string("node=") + path;
    const size_t at = network.find(given);
    if (at != std::string::npos && (at + given.size() == network.size() || network[at + given.size()] == ','))
      return network.substr(0, at) + before + "node=" + resolve_path(path, source) + network.substr(at + given.size());
  }
  return network;
}

// A copy without source marks: a value from --set or a sweep must not be reported at a line of
// the scenario file it never was on.
YAML::Node unmarked(const YAML::Node& node) {
  if (node.IsScalar()) return YAML::Node(node.Scalar());
  YAML::Node copy(node.IsMap() ? YAML::NodeType::Map : node.IsSequence() ? YAML::NodeType::Sequence : YAML::NodeType::Null);
  if (node.IsMap())
    for (const auto& entry : node) copy[entry.first.Scalar()] = unmarked(entry.second);
  if (node.IsSequence())
    for (const auto& item : node) copy.push_back(unmarked(item));
  return copy;
}

void set_at(YAML::Node node, const std::vector<std::string>& keys, size_t i, const YAML::Node& value,
            const std::string& prefix, const std::string& origin) {
  const std::string& key = keys[i];
  const std::string path = prefix.empty() ? key : prefix + "." + key;
  if (node.IsSequence()) {
    char* end = nullptr;
    const long index = std::strtol(key.c_str(), &end, 10);
    if (key.empty() || *end != '\0' || index < 0 || index >= static_cast<long>(node.size()))
      throw Error(origin + ": '" + prefix + "' is a list of " + std::to_string(node.size()) + "; '" + key +
                  "' is not an index in it");
    if (i + 1 == keys.size()) {
      node[index] = value;
      return;
    }
    YAML::Node child = node[index];
    if (child.IsScalar()) {
      child = spec_map(child.Scalar(), spec_syntax(prefix).value_or(SpecSyntax{}));
      node[index] = child;
    }
    set_at(node[index], keys, i + 1, value, path, origin);
    return;
  }
  if (!node.IsMap()) throw Error(origin + ": '" + prefix + "' holds a single value; cannot set '" + path + "' inside it");
  if (i + 1 == keys.size()) {
    node[key] = value;
    return;
  }
  YAML::Node child = node[key];
  if (!child || child.IsNull()) {
    node[key] = YAML::Node(YAML::NodeType::Map);
  } else if (child.IsScalar()) {
    const std::optional<SpecSyntax> field = spec_syntax(path);
    if (!field) throw Error(origin + ": '" + path + "' holds a single value; cannot set '" + keys[i + 1] + "' inside it");
    node[key] = spec_map(child.Scalar(), *field);
  }
  set_at(node[key], keys, i + 1, value, path, origin);
}

// The node at a dotted path ("workload.process", "mapping.1"), or an undefined node.
YAML::Node locate(const YAML::Node& document, const std::string& path) {
  std::vector<YAML::Node> chain{document};  // operator[] on a const node never inserts
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const YAML::Node& current = chain.back();
    if (current.IsSequence()) {
      const size_t index = std::strtoul(key.c_str(), nullptr, 10);
      if (index >= current.size()) return YAML::Node(YAML::NodeType::Undefined);
      chain.push_back(current[index]);
    } else {
      if (!current.IsMap() || !current[key]) return YAML::Node(YAML::NodeType::Undefined);
      chain.push_back(current[key]);
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return chain.back();
}

// model: NAME:KEY=VALUE,... (the spec form every component takes: "flit:vcs=4,buffer=16"): the keys are
// the options every model takes and the named model's own, read by their declarations. Returns the name.
std::string read_model_spec(const YamlReader& reader, const YAML::Node& node, Scenario& s) {
  try {
    const Spec spec = Spec::parse(node.Scalar());
    if (spec.positional()) throw Error("expected KEY=VALUE after '" + spec.name() + ":', got '" + *spec.positional() + "'");
    const std::vector<Param> own = model_params(spec.name());
    for (const auto& [key, value] : spec.values()) {
      const auto shared = std::find_if(builtin_model_options().begin(), builtin_model_options().end(),
                                       [&key = key](const ModelOption& o) { return o.param.name == key; });
      const auto mine = std::find_if(own.begin(), own.end(), [&key = key](const Param& p) { return p.name == key; });
      try {
        if (mine != own.end()) s.sim.model_options[key] = read_param_text(*mine, value);
        if (shared != builtin_model_options().end()) shared->set(s.sim, read_param_text(shared->param, value));
      } catch (const Error& e) {
        throw Error(key + ": " + e.what());
      }
      if (mine == own.end() && shared == builtin_model_options().end()) {
        std::string known;
        for (const Param& p : own) known += (known.empty() ? "" : ", ") + p.name;
        for (const ModelOption& o : builtin_model_options())
          if (std::find_if(own.begin(), own.end(), [&o](const Param& p) { return p.name == o.param.name; }) == own.end())
            known += (known.empty() ? "" : ", ") + o.param.name;
        throw Error("unknown key '" + key + "' for model " + spec.name() + " (expected one of " + known + ")");
      }
    }
    return spec.name();
  } catch (const Error& e) {
    reader.fail(node, std::string("model: ") + e.what());
  }
}

// Reads model: as a name or a map. Every key of the map is a declared parameter read by its
// declaration (YamlReader::param): the link parameters (link_params.h) into s.links, the options
// every model takes (builtin_model_options) into s.sim, the chosen model's own into
// s.sim.model_options. `first_link` gets the first link key given, as written ("t_s=1us").
void parse_model(const YamlReader& reader, const YAML::Node& node, Scenario& s, std::string& first_link) {
  std::string name = "flow";
  if (node.IsScalar()) {
    name = node.Scalar();
    if (name.find(':') != std::string::npos) name = read_model_spec(reader, node, s);
  } else {
    reader.expect_map(node, "model");
    if (node["name"]) name = reader.scalar(node["name"], "model.name");
    if (name.find(':') != std::string::npos) name = read_model_spec(reader, node["name"], s);
    std::vector<std::string> keys = {"name"};
    for (const LinkParam& link : link_param_table()) keys.push_back(link.param.name);
    for (const ModelOption& option : builtin_model_options()) keys.push_back(option.param.name);
    std::vector<Param> own;  // beside the shared keys, the keys the chosen model declares (docs/components.md)
    for (const Param& p : model_params(name))
      if (std::find(keys.begin(), keys.end(), p.name) == keys.end()) {
        keys.push_back(p.name);
        own.push_back(p);
      }
    reader.check_keys(node, keys);
    for (const LinkParam& link : link_param_table()) {  // the generator's own key names (link_params.h)
      const std::string& key = link.param.name;
      if (const YAML::Node value = node[key]) {
        s.links.*link.override = reader.param(value, link.param, "model." + key).number;
        if (first_link.empty()) first_link = key + "=" + value.Scalar();
      }
    }
    for (const ModelOption& option : builtin_model_options()) {
      const std::string& key = option.param.name;
      const YAML::Node value = node[key];
      if (!value) continue;
      const ParamValue read = reader.param(value, option.param, "model." + key);
      try {
        option.set(s.sim, read);
      } catch (const Error& e) {
        reader.fail(value, "model." + std::string(e.what()));  // set_text's errors name the key
      }
    }
    for (const Param& p : own)  // read once, typed; the model's factory reads them with model_option()
      if (const YAML::Node value = node[p.name]) s.sim.model_options[p.name] = reader.param(value, p, "model." + p.name);
  }
  const YAML::Node& at = node.IsMap() && node["name"] ? node["name"] : node;
  if (name == "none") {
    s.simulate = false;
    return;
  }
  try {
    s.sim.model = mapsim::parse_model(name);
  } catch (const Error& e) {
    reader.fail(at, std::string("model: ") + e.what() + " (or none: mapping metrics only)");
  }
  try {
    check_path_selection(s.sim.path_selection, s.sim.model);
  } catch (const Error& e) {
    reader.fail(node["path_selection"], std::string("model.path_selection: ") + e.what());
  }
}

// failures: {links: K, seed: S, level: spine, names: [A--B, [A, B]], switches: [S]}: what fails before
// routing (topologies/failures.h); the names are checked against the network when it is built.
void parse_failures(const YamlReader& reader, const YAML::Node& node, Scenario& s) {
  reader.expect_map(node, "failures (links, seed, level, names, switches, at)");
  reader.check_keys(node, {"links", "seed", "level", "names", "switches", "at"});
  s.failures_given = true;
  if (node["at"]) {
    s.failures_time = reader.time(node["at"]);
    if (node["switches"]) reader.fail(node["switches"], "failures.switches: switches fail before the run only (drop failures.at, or fail their links)");
  }
  if (node["links"]) s.failures.links = static_cast<int>(reader.integer(node["links"], "failures.links", 0, kMaxNetworkLinks));
  for (const char* key : {"seed", "level"})
    if (node[key] && !node["links"])
      reader.fail(node[key], std::string("failures.") + key + ": applies to the links failed at random; give failures.links too");
  if (node["seed"]) {
    s.failures.seed = static_cast<uint64_t>(reader.integer(node["seed"], "failures.seed", 0));
    s.failure_seed_given = true;
  }
  if (node["level"]) {
    const std::string level = reader.scalar(node["level"], "failures.level");
    if (level != "spine")
      reader.fail(node["level"], "failures.level: expected spine (the links between the top switch level and the one below), got " +
                                     excerpt(level));
    s.failures.spine = true;
  }
  if (const YAML::Node names = node["names"]) {
    reader.expect_sequence(names, "failures.names (a list of links: SWITCH--SWITCH or [SWITCH, SWITCH])");
    for (size_t i = 0; i < names.size(); ++i) {
      const YAML::Node item = names[i];
      const std::string what = "failures.names." + std::to_string(i);
      if (item.IsSequence()) {
        if (item.size() != 2) reader.fail(item, what + ": expected a link as [SWITCH, SWITCH], two names");
        s.failures.names.emplace_back(reader.scalar(item[0], what + ".0"), reader.scalar(item[1], what + ".1"));
        if (s.failures.names.back().first.empty() || s.failures.names.back().second.empty())
          reader.fail(item, what + ": expected two switch names");
      } else {
        const std::string text = reader.scalar(item, what);
        if (text.find("--") == std::string::npos)
          reader.fail(item, what + ": expected a link as SWITCH--SWITCH or [SWITCH, SWITCH], got " + excerpt(text));
        s.failures.names.emplace_back(text, "");
      }
    }
  }
  if (const YAML::Node switches = node["switches"]) {
    reader.expect_sequence(switches, "failures.switches (a list of switch names)");
    for (size_t i = 0; i < switches.size(); ++i) {
      s.failures.switches.push_back(reader.scalar(switches[i], "failures.switches." + std::to_string(i)));
      if (s.failures.switches.back().empty()) reader.fail(switches[i], "failures.switches: expected a switch name");
    }
  }
}

// The model's link values go to the generator as typed overrides (Scenario::links); a network file
// carries its own, and a key given in the network spec too is given twice.
void check_link_overrides(const YamlReader& reader, const YAML::Node& at, const std::string& network,
                          const LinkOverrides& links, const std::string& first_link) {
  if (links.empty()) return;
  const SpecSyntax syntax = syntax_at("network");
  const Spec spec = syntax.parse(network);
  const auto* entry = network_registry().find(spec.name());
  if (entry && !takes_link_overrides(*entry))
    reader.fail(at, "model link parameters (" + first_link + ", ...) cannot override the link values of a " +
                        spec.name() + " network; set them in the file");
  if (const std::string key = link_conflict(spec, links); !key.empty())
    reader.fail(at, "network: '" + key + "' is given both in the network spec and in model");
}

// The constraints between keys (routing x model x path selection x optical circuits x workload x
// mapping), checked once the whole document is read, before anything is built or run: each is a
// one-line error at the key to change, naming the other key. A sweep's points are parsed before it
// starts, so a point whose combination is invalid stops the sweep before any point runs.
void check_combinations(const YamlReader& reader, const YAML::Node& document, const Scenario& s) {
  const YAML::Node model = document["model"];
  const YAML::Node path_selection = model && model.IsMap() ? model["path_selection"] : YAML::Node();
  if (s.failures_time > 0 && (s.sim.path_selection == PathSelection::Spray || s.sim.path_selection == PathSelection::Adaptive))
    reader.fail(path_selection, "model.path_selection: links failing during the run (failures.at) need paths chosen from "
                                "tables: deterministic or ecmp, not " + path_selection_name(s.sim.path_selection));
  if (s.failures_time > 0 && document["ocs"])
    reader.fail(document["ocs"], "ocs: optical circuits with links failing during the run (failures.at) are not available");
  if (s.failures_time > 0 && !s.simulate)
    reader.fail(document["failures"]["at"], "failures.at: links failing during the run need a simulation model, not none "
                                            "(leave out at to fail them before the run)");
  if (!s.background.empty() && !s.simulate)
    reader.fail(document["background"], "background: background traffic needs a simulation model, not none");
  if (!s.traffic.empty() && !s.simulate)
    reader.fail(document["workload"]["traffic"], "workload.traffic: open-loop traffic needs a simulation model, not none");
  if (s.ocs.empty()) return;
  if (!s.simulate || !model_carries_circuits(s.sim.model))
    reader.fail(document["ocs"], "ocs: optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)");
  // Circuits are set up per pair of ranks: paths chosen per packet from queue state cannot use them.
  const auto* routing = routing_registry().find(Spec::parse(s.routing).name());
  if (routing && routing->factory.per_packet)
    reader.fail(document["routing"], "routing: " + routing->name + " routing is not available on a hybrid network with optical circuits (ocs)");
  if (s.sim.path_selection == PathSelection::Spray || s.sim.path_selection == PathSelection::Adaptive)
    reader.fail(path_selection ? path_selection : document["ocs"],
                "model.path_selection: path selection " + path_selection_name(s.sim.path_selection) +
                    " is not available on a hybrid network with optical circuits (ocs)");
  // Policy cp places the ranks itself (sim/ocs.h): a placement file would be ignored.
  Spec ocs = Spec::parse(s.ocs);
  if (ocs.has("policy") && ocs.get_string("policy", "sp") == "cp")
    for (size_t i = 0; i < s.mappers.size(); ++i)
      if (s.mappers[i].rfind("placement:", 0) == 0) {
        const YAML::Node mapping = document["mapping"];
        reader.fail(mapping.IsSequence() ? mapping[i] : mapping,
                    std::string(mapping.IsSequence() ? "mapping." + std::to_string(i) : "mapping") +
                        ": ocs policy cp places the ranks itself: drop the placement file (" + s.mappers[i] + ")");
      }
}

// The single-job form: workload (process + pattern, trace, or traffic) and mapping.
void parse_workload_and_mapping(const YamlReader& reader, const YAML::Node& document, Scenario& s) {
  const std::string& source = s.source;
  const SpecSyntax process = syntax_at("workload.process"), mapper = syntax_at("mapping");
  if (!document["workload"]) reader.fail(document, "missing 'workload' (process: and pattern:, trace:, or traffic:)");
  const YAML::Node workload = document["workload"];
  reader.expect_map(workload, "workload");
  reader.check_keys(workload, kWorkloadKeys);
  if (workload["traffic"]) {
    if (workload["process"] || workload["pattern"] || workload["trace"])
      reader.fail(workload, "workload: open-loop traffic runs alone, without process, pattern or trace");
    if (document["mapping"] || document["allocation"] || document["slots"] || document["ocs"])
      reader.fail(workload["traffic"], "workload.traffic: open-loop traffic starts at every node: give no mapping, "
                                       "allocation, slots or ocs");
    s.traffic = spec_text(reader, workload["traffic"], syntax_at("workload.traffic"), "workload.traffic");
  } else if (workload["trace"]) {
    if (workload["process"] || workload["pattern"]) reader.fail(workload, "workload: give either trace or process (+ pattern), not both");
    s.trace = resolve_path(reader.scalar(workload["trace"], "workload.trace"), source);
  } else {
    if (!workload["process"]) reader.fail(workload, "workload: missing 'process' (e.g. mesh:16x16) or 'trace'");
    s.process = resolve_spec_path(spec_text(reader, workload["process"], process, "workload.process"), process, source);
    if (workload["pattern"]) s.pattern = spec_text(reader, workload["pattern"], syntax_at("workload.pattern"), "workload.pattern");
    s.pattern_given = static_cast<bool>(workload["pattern"]);
  }

  const YAML::Node mapping = document["mapping"];
  if (!s.traffic.empty()) {
    s.mappers = {"open-loop"};
  } else if (!mapping) {
    s.mappers = {"default"};
  } else if (mapping.IsSequence()) {
    if (mapping.size() == 0) reader.fail(mapping, "mapping: the list is empty");
    for (size_t i = 0; i < mapping.size(); ++i) {
      std::string text = resolve_spec_path(spec_text(reader, mapping[i], mapper, "mapping[" + std::to_string(i) + "]"),
                                           mapper, source);
      if (std::find(s.mappers.begin(), s.mappers.end(), text) != s.mappers.end())  // its rows would pool as one mapper
        reader.fail(mapping[i], "mapping: '" + text + "' is listed twice");
      s.mappers.push_back(std::move(text));
    }
  } else {
    s.mappers = {resolve_spec_path(spec_text(reader, mapping, mapper, "mapping"), mapper, source)};
  }
}

// jobs: each job is read as the single-job scenario it is -- the scenario's keys with the job's
// workload, mapping and allocation -- so that its keys take the same values, checks and errors.
void parse_jobs(const YamlReader& reader, const YAML::Node& document, Scenario& s) {
  const YAML::Node jobs = document["jobs"];
  for (const char* key : {"workload", "mapping"})
    if (document[key])
      reader.fail(document[key], std::string(key) + ": a scenario with jobs gives each job its own (jobs.N." + key + ")");
  if (document["ocs"]) reader.fail(document["ocs"], "ocs: optical circuits are not available with several jobs");
  reader.expect_sequence(jobs, "jobs");
  if (jobs.size() == 0) reader.fail(jobs, "jobs: the list is empty");
  std::vector<YAML::Node> after(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const YAML::Node job = jobs[i];
    const std::string what = "jobs." + std::to_string(i);
    reader.expect_map(job, what);
    reader.check_keys(job, kJobKeys);
    ScenarioJob j;
    j.name = job["name"] ? reader.scalar(job["name"], what + ".name") : "job" + std::to_string(i);
    if (j.name.empty() || j.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
      reader.fail(job["name"], what + ".name: expected letters, digits, '_' and '-' (it names result columns), got '" + printable(j.name) + "'");
    for (const ScenarioJob& other : s.jobs)
      if (other.name == j.name) reader.fail(job["name"] ? job["name"] : job, what + ".name: job '" + j.name + "' is named twice");
    if (!job["workload"]) reader.fail(job, what + ": missing 'workload' (process: and pattern:, or trace:)");
    if (job["workload"].IsMap() && job["workload"]["traffic"])
      reader.fail(job["workload"]["traffic"], what + ".workload.traffic: open-loop traffic is not a job");
    if (job["mapping"] && job["mapping"].IsSequence())
      reader.fail(job["mapping"], what + ".mapping: one mapper per job (a sweep varies it)");
    YAML::Node single(YAML::NodeType::Map);  // shares the nodes, and so their positions for errors
    for (const auto& entry : document)
      if (entry.first.Scalar() != "jobs" && entry.first.Scalar() != "background" && entry.first.Scalar() != "interference")
        single[entry.first.Scalar()] = entry.second;
    for (const char* key : {"workload", "mapping", "allocation"})
      if (job[key]) single[key] = job[key];
    if (!single["allocation"]) single["allocation"] = "contiguous";  // `all` would leave no node to the next job
    j.scenario = parse_scenario(single, s.source, s.overrides);
    if (job["start"]) j.start = reader.time(job["start"]);
    if (job["after"]) after[i] = job["after"];
    s.jobs.push_back(std::move(j));
    s.mappers.push_back(s.jobs.back().scenario.mappers.front());
  }
  if (const YAML::Node background = document["background"]) {  // a traffic spec, plus its duration
    Spec spec = Spec::parse(spec_text(reader, background, syntax_at("background"), "background"));
    std::string keys = spec.positional().value_or("");
    for (const auto& [key, value] : spec.values())
      if (key != "duration") keys += (keys.empty() ? "" : ",") + key + "=" + value;
    s.background = keys.empty() ? spec.name() : spec.name() + ":" + keys;
    try {
      if (spec.has("duration")) s.background_duration = spec.get_time("duration", 0);
      if (spec.has("duration") && !(s.background_duration > 0)) throw Error("duration must be > 0");
      parse_traffic(s.background);
    } catch (const Error& e) {
      reader.fail(background, std::string("background: ") + e.what());
    }
  }
  if (const YAML::Node interference = document["interference"]) {
    const std::string value = reader.scalar(interference, "interference");
    if (value != "pairs" && value != "none") reader.fail(interference, "interference: expected pairs or none, got '" + printable(value) + "'");
    s.interference_pairs = value == "pairs";
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!after[i] || after[i].IsNull()) continue;  // (a default node is a defined null)
    const std::string name = reader.scalar(after[i], "jobs." + std::to_string(i) + ".after");
    std::string names;
    for (size_t k = 0; k < s.jobs.size(); ++k) {
      names += (k ? ", " : "") + s.jobs[k].name;
      if (s.jobs[k].name == name && k != i) s.jobs[i].after = static_cast<int>(k);
    }
    if (s.jobs[i].after < 0)
      reader.fail(after[i], "jobs." + std::to_string(i) + ".after: expected another job's name (" + names + "), got '" +
                                printable(name) + "'");
  }
  for (size_t i = 0; i < s.jobs.size(); ++i) {  // a job that waits for itself through others never starts
    int at = s.jobs[i].after;
    for (size_t steps = 0; at >= 0; ++steps, at = s.jobs[at].after)
      if (steps > s.jobs.size())
        reader.fail(after[i], "jobs." + std::to_string(i) + ".after: the jobs wait for each other in a cycle and would never start");
  }
}

}  // namespace

YAML::Node load_yaml_file(const std::string& path) { return YamlReader(path).load(); }

std::pair<std::string, YAML::Node> parse_assignment(const std::string& text, const std::string& origin) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(origin + ": expected KEY.PATH=VALUE, got '" + text + "'");
  YAML::Node value;
  try {
    value = YAML::Load(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw Error(origin + ": value of '" + text.substr(0, eq) + "' is not valid YAML: " + e.msg);
  }
  YamlReader(origin + ": value of '" + text.substr(0, eq) + "'").check_document(value);
  return {text.substr(0, eq), value};
}

void set_key_path(YAML::Node& document, const std::string& path, const YAML::Node& value, const std::string& origin,
                  YamlOverrides* overrides) {
  std::vector<std::string> keys;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    keys.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (keys.back().empty()) throw Error(origin + ": empty key in path '" + path + "'");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!document.IsMap()) throw Error(origin + ": the scenario is not a map");
  if (std::find(kTopKeys.begin(), kTopKeys.end(), keys[0]) == kTopKeys.end()) {
    const std::string near = nearest_word(keys[0], kTopKeys);
    throw Error(origin + ": unknown key '" + keys[0] + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  const YAML::Node copy = unmarked(value);
  set_at(document, keys, 0, copy, "", origin);
  if (overrides) overrides->push_back({copy, origin});
}

std::vector<std::string> row_labels(const Scenario& s) {
  if (s.jobs.empty()) return s.mappers;
  std::vector<std::string> names;
  for (const ScenarioJob& job : s.jobs) names.push_back(job.name);
  return names;
}

std::string Scenario::network_spec(int r) const { return with_seed(network, syntax_at("network"), replicate_seed(r)); }
std::string Scenario::process_spec(int r) const { return with_seed(process, syntax_at("workload.process"), replicate_seed(r)); }
std::string Scenario::pattern_spec(int r) const { return with_seed(pattern, syntax_at("workload.pattern"), replicate_seed(r)); }
std::string Scenario::allocation_spec(int r) const { return with_seed(allocation, syntax_at("allocation"), replicate_seed(r)); }
Failures Scenario::failures_at(int r) const {
  Failures f = failures;
  if (!failure_seed_given) f.seed = replicate_seed(r);
  return f;
}

Scenario parse_scenario(const YAML::Node& document, const std::string& source, YamlOverrides overrides) {
  Scenario s;
  s.source = source;
  s.document = document;
  s.overrides = std::move(overrides);
  const YamlReader reader(source, &s.overrides);
  if (!document.IsMap()) reader.fail(document, "expected a scenario: a map with network, workload, mapping, ...");
  reader.check_keys(document, kTopKeys);
  const std::string stem = std::filesystem::path(source).stem().string();
  s.name = document["name"] ? reader.scalar(document["name"], "name") : stem;
  if (!document["network"]) reader.fail(document, "missing 'network' (a generator spec, a map, or file:PATH)");
  const SpecSyntax network = syntax_at("network");
  s.network = resolve_node_file(resolve_spec_path(spec_text(reader, document["network"], network, "network"), network, source), source);
  if (document["failures"]) parse_failures(reader, document["failures"], s);
  if (document["routing"]) s.routing = reader.scalar(document["routing"], "routing");

  for (const char* key : {"background", "interference"})
    if (document[key] && !document["jobs"])
      reader.fail(document[key], std::string(key) + ": " + (key[0] == 'b' ? "runs" : "is measured") + " beside jobs: give a jobs list (one job is enough)");
  if (document["jobs"]) {
    parse_jobs(reader, document, s);
  } else {
    parse_workload_and_mapping(reader, document, s);
  }
  if (document["allocation"]) {
    const SpecSyntax allocation = syntax_at("allocation");
    s.allocation = resolve_spec_path(spec_text(reader, document["allocation"], allocation, "allocation"), allocation, source);
  }
  if (document["slots"]) {
    const long slots = reader.integer(document["slots"], "slots");
    if (slots < 1 || slots > 1 << 20) reader.fail(document["slots"], "slots must be in 1..1048576");
    s.slots = static_cast<int>(slots);
  }

  std::string first_link;
  if (document["model"]) parse_model(reader, document["model"], s, first_link);
  check_link_overrides(reader, document["model"] ? document["model"] : document, s.network, s.links, first_link);
  if (s.simulate) try {
      check_routing_choice(s.routing, s.sim.model);
    } catch (const Error& e) {
      reader.fail(document["routing"], std::string("routing: ") + e.what());
    }
  if (document["ocs"]) s.ocs = spec_text(reader, document["ocs"], syntax_at("ocs"), "ocs", "ocs");
  if (document["seed"]) {
    const long seed = reader.integer(document["seed"], "seed");
    if (seed < 0) reader.fail(document["seed"], "seed must be >= 0");
    s.seed = static_cast<uint64_t>(seed);
  }
  if (document["replicates"]) {
    const long replicates = reader.integer(document["replicates"], "replicates");
    if (replicates < 1 || replicates > 1000000) reader.fail(document["replicates"], "replicates must be in 1..1000000");
    s.replicates = static_cast<int>(replicates);
  }
  if (document["output"] && reader.scalar(document["output"], "output").empty())
    reader.fail(document["output"], "output: expected a folder, got an empty name");
  s.output = document["output"] ? resolve_path(reader.scalar(document["output"], "output"), source) : "results/" + stem;
  check_combinations(reader, document, s);
  return s;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& assignments) {
  YAML::Node document = load_yaml_file(path);
  YamlOverrides overrides;
  for (const std::string& text : assignments) {
    auto [key, value] = parse_assignment(text, "--set " + text);
    set_key_path(document, key, value, "--set " + text, &overrides);
  }
  return parse_scenario(document, path, std::move(overrides));
}

Scenario scenario_from_flags(const std::string& command, const std::vector<FlagValue>& values) {
  YAML::Node document(YAML::NodeType::Map);
  YamlOverrides overrides;
  for (const FlagValue& v : values) set_key_path(document, v.key, v.value, v.flag, &overrides);
  return parse_scenario(document, command, std::move(overrides));
}

std::vector<FlagValue> given_flags(const std::vector<std::array<std::string, 3>>& key_flag_value) {
  std::vector<FlagValue> values;
  for (const auto& [key, flag, value] : key_flag_value)
    if (!value.empty()) values.push_back({key, flag, YAML::Node(value)});
  return values;
}

void at_key(const Scenario& s, const std::string& key, const std::function<void()>& build) {
  try {
    build();
  } catch (const Error& e) {
    YAML::Node at = locate(s.document, key);
    if (!at) at = s.document;
    const std::string message = YamlReader(s.source, &s.overrides).where(at) + ": " + key + ": " + e.what();
    if (dynamic_cast<const NotApplicable*>(&e)) throw NotApplicable(message);
    throw Error(message);
  }
}

std::string mapper_key(const Scenario& s, const std::string& mapper) {
  const auto at = std::find(s.mappers.begin(), s.mappers.end(), mapper);
  return s.mappers.size() > 1 && at != s.mappers.end() ? "mapping." + std::to_string(at - s.mappers.begin()) : "mapping";
}

void check_scenario(const Scenario& s) {
  for (const ScenarioJob& job : s.jobs) check_scenario(job.scenario);
  if (!s.jobs.empty()) return;
  if (!s.traffic.empty()) {
    at_key(s, "workload.traffic", [&] {
      parse_traffic(s.traffic);
      if (!s.simulate) throw Error("open-loop traffic needs a simulation model, not none");
    });
    return;
  }
  for (const std::string& mapper : s.mappers) at_key(s, mapper_key(s, mapper), [&] { make_mapper(mapper); });
  at_key(s, "allocation", [&] { check_allocation_spec(s.allocation); });
  if (!s.ocs.empty() && (!s.simulate || !model_carries_circuits(s.sim.model)))
    at_key(s, "ocs", [] { throw Error("optical circuits need the store-and-forward or packet model (the flow model has no relay nodes)"); });
}

std::string document_hash(const YAML::Node& document) {
  YAML::Emitter out;
  out << document;
  uint64_t hash = 1469598103934665603ULL;
  for (const char c : std::string(out.c_str())) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace mapsim
