// Registries of named components, in the style of SimGrid's model registration: each mapper,
// network generator, routing, simulation model and workload adds one Entry -- name, one-line
// description, declared parameters and a factory -- from its own source file with
//   MAPSIM_REGISTER(mapper_registry(), {"binary", "BM (moh2001): ...", {params...}, factory});
// Lookups, "expected one of ..." errors, --help lists, docs/components.md and the scenario's spec
// handling (syntax(): seeds per replicate, map form, paths) all read these tables.
// (The component libraries are linked whole, so that every registration runs.)
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "support/error.h"
#include "support/message.h"
#include "support/param.h"
#include "support/spec.h"

namespace mapsim {

// A registered component without its factory, for listings.
struct ComponentInfo {
  std::string kind, name, description;
  std::vector<Param> params;
  std::string positional, positional_key;
  std::vector<std::string> aliases;
};

template <class Factory>
class Registry {
 public:
  struct Entry {
    std::string name;
    std::string description;
    std::vector<Param> params;
    Factory factory;
    std::string positional = {};            // what "NAME:VALUE" carries ("PATH", "16x16"); empty: key=value only
    std::string positional_key = {};        // the key that value has in a scenario's map form ("path", "dims")
    std::vector<std::string> aliases = {};  // other names accepted for it
  };

  // `kind` names the components in messages and docs: "mapper", "network", "routing", ...
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  // Called once per component at start-up; a second entry of one name is a programming error.
  bool add(Entry entry) {
    const std::string name = entry.name;
    if (entry.positional.empty() != entry.positional_key.empty())  // a value without a key is lost by --set
      throw InternalError(kind_ + " '" + name + "': give positional and positional_key together");
    if (!entries_.emplace(name, std::move(entry)).second)
      throw InternalError(kind_ + " '" + name + "' registered twice");
    return true;
  }
  const Entry* find(const std::string& name) const {
    auto it = entries_.find(name);
    if (it != entries_.end()) return &it->second;
    for (const auto& [key, entry] : entries_)
      for (const std::string& alias : entry.aliases)
        if (alias == name) return &entry;
    return nullptr;
  }
  // Throws Error "unknown KIND 'NAME'<context> (did you mean 'N'?): expected one of a, b, c".
  const Entry& at(const std::string& name, const std::string& context = "") const {
    if (const Entry* entry = find(name)) return *entry;
    std::vector<std::string> known;
    for (const auto& [key, entry] : entries_) {
      known.push_back(key);
      known.insert(known.end(), entry.aliases.begin(), entry.aliases.end());
    }
    const std::string near = nearest_word(name, known);
    throw Error("unknown " + kind_ + " '" + name + "'" + context + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                ": expected one of " + names());
  }
  // Entries by name.
  std::vector<const Entry*> entries() const {
    std::vector<const Entry*> out;
    for (const auto& [name, entry] : entries_) out.push_back(&entry);
    return out;
  }
  std::string names(const std::string& separator = ", ") const {
    std::string out;
    for (const auto& [name, entry] : entries_) out += (out.empty() ? "" : separator) + name;
    return out;
  }
  const std::string& kind() const { return kind_; }
  // How the specs of these components are written, for the scenario and parse_spec. An entry takes
  // a seed when it declares a `seed` parameter.
  SpecSyntax syntax() const {
    SpecSyntax out;
    for (const Entry* e : entries()) {
      std::vector<std::string> spellings = e->aliases;
      spellings.push_back(e->name);
      const bool path = e->positional == "PATH";
      const bool seeded = std::any_of(e->params.begin(), e->params.end(), [](const Param& p) { return p.name == "seed"; });
      for (const std::string& name : spellings) {
        if (!e->positional_key.empty()) out.positional_key[name] = e->positional_key;
        if (path) out.path_valued.insert(name);
        if (seeded) out.seeded.insert(name);
      }
      if (path)
        for (const Param& p : e->params) {
          out.path_keys.insert(p.name);
          out.path_keys.insert(p.aliases.begin(), p.aliases.end());
          if (p.type == ParamType::Text) {  // numbers (link_bandwidth=100Gbps) are never paths
            out.file_keys.insert(p.name);
            out.file_keys.insert(p.aliases.begin(), p.aliases.end());
          }
        }
    }
    return out;
  }
  // What the reference and --help print of each entry.
  std::vector<ComponentInfo> infos() const {
    std::vector<ComponentInfo> out;
    for (const auto& [name, e] : entries_)
      out.push_back({kind_, e.name, e.description, e.params, e.positional, e.positional_key, e.aliases});
    return out;
  }

 private:
  std::string kind_;
  std::map<std::string, Entry> entries_;
};

// `text` as a spec of this registry's components.
template <class Factory>
Spec parse_spec(const Registry<Factory>& registry, const std::string& text) {
  return registry.syntax().parse(text);
}

// A spec's entry, with the spec told its declared parameters.
template <class Factory>
const typename Registry<Factory>::Entry& lookup(const Registry<Factory>& registry, Spec& spec) {
  const auto& entry = registry.at(spec.name(), spec.text() == spec.name() ? "" : " in spec '" + spec.text() + "'");
  spec.declare(entry.params);
  return entry;
}

}  // namespace mapsim

#define MAPSIM_REGISTRY_CONCAT2(a, b) a##b
#define MAPSIM_REGISTRY_CONCAT(a, b) MAPSIM_REGISTRY_CONCAT2(a, b)
#define MAPSIM_REGISTER(registry, ...) \
  static const bool MAPSIM_REGISTRY_CONCAT(mapsim_registered_, __LINE__) = (registry).add(__VA_ARGS__)
