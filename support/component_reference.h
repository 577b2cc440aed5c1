// The reference of registered components, from the registries' own tables: plain text for
// `mapsim components`, Markdown for docs/components.md (generated: `mapsim components --markdown`).
#pragma once
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
// "a, b, file:PATH, ..." for --help texts.
std::string component_list(const std::vector<ComponentInfo>& components);

}  // namespace mapsim
