// The reference of registered components, from the registries' own tables: plain text for
// `mapsim components`, Markdown for docs/components.md (generated: `mapsim components --markdown`).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "support/registry.h"

namespace mapsim {

struct ComponentSection {
  std::string title;  // "Mappers"
  std::string how;    // where users name them: "--mapper NAME[:key=value,...], scenario key mapping"
  std::vector<ComponentInfo> components;
};

std::string component_reference_text(const std::vector<ComponentSection>& sections);
std::string component_reference_markdown(const std::vector<ComponentSection>& sections);
// "name[:POSITIONAL]" as users write it.
std::string component_usage(const ComponentInfo& c);
// Each component as --help shows a spec, "  NAME[:POSITIONAL],key=default,...", its description, and a
// line for the keys without a plain default (required, derived from others, or none), written KEY=UPPERCASE
// in the spec line: "      levels: 3, or the fewest that hold nodes=; nodes: none (k-ary n-tree)".
// Keys in `skip` are left out (the link keys every network takes, listed once).
std::string component_spec_help(const std::vector<ComponentInfo>& components, const std::set<std::string>& skip = {});
// "key=default,..." of `params`, each as component_spec_help writes it.
std::string param_spec_keys(const std::vector<Param>& params);
// "a, b, file:PATH, ..." for --help texts.
std::string component_list(const std::vector<ComponentInfo>& components);

}  // namespace mapsim
