#include "support/component_reference.h"

#include <cctype>

namespace mapsim {
namespace {

std::string param_line(const Param& p) {
  std::string line = p.name + " (" + param_type_name(p.type);
  if (const std::string d = param_default_text(p); d == "required")
    line += ", required";
  else if (!d.empty())
    line += ", default " + d;
  if (const std::string r = param_range_text(p); !r.empty()) line += ", " + r;
  line += ")";
  if (!p.aliases.empty()) {
    line += ", also ";
    for (size_t i = 0; i < p.aliases.size(); ++i) line += (i ? ", " : "") + p.aliases[i];
  }
  return line + ": " + p.description;
}

// The key a positional value has in a scenario's map form; `q` quotes code.
std::string positional_line(const ComponentInfo& c, const std::string& q) {
  return q + c.positional_key + q + " (positional): " + q + c.name + ":" + c.positional + q + " is " + q + "{name: " +
         c.name + ", " + c.positional_key + ": " + c.positional + "}" + q + " in a scenario";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// A default a spec line can show as key=VALUE: a number, or one word of text ("1x16", "mapsim").
bool plain_default(const Param& p) {
  if (p.number) return true;
  return !p.text.empty() && p.text != "required" && p.text.find_first_of(" ,=()") == std::string::npos;
}

std::string placeholder(const std::string& name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::string spec_key(const Param& p) { return p.name + "=" + (plain_default(p) ? param_default_text(p) : placeholder(p.name)); }

// "levels: 3, or the fewest that hold nodes=" for a key without a plain default.
std::string spec_note(const Param& p) {
  if (p.text.empty()) return p.name + ": none by default";
  return p.name + ": " + p.text;
}

}  // namespace

std::string param_spec_keys(const std::vector<Param>& params) {
  std::string keys;
  for (const Param& p : params) keys += (keys.empty() ? "" : ",") + spec_key(p);
  return keys;
}

std::string component_spec_help(const std::vector<ComponentInfo>& components, const std::set<std::string>& skip) {
  std::string help;
  for (const ComponentInfo& c : components) {
    std::vector<Param> shown;
    std::string notes;
    for (const Param& p : c.params) {
      if (skip.count(p.name)) continue;
      shown.push_back(p);
      if (!plain_default(p)) notes += (notes.empty() ? "" : "; ") + spec_note(p);
    }
    const std::string keys = param_spec_keys(shown);
    help += "  " + component_usage(c) + (keys.empty() ? "" : (c.positional.empty() ? ":" : ",") + keys) + "\n      " +
            c.description + "\n" + (notes.empty() ? "" : "      " + notes + "\n");
  }
  return help;
}

std::string component_usage(const ComponentInfo& c) {
  return c.positional.empty() ? c.name : c.name + ":" + c.positional;
}

std::string component_list(const std::vector<ComponentInfo>& components) {
  std::vector<std::string> names;
  for (const ComponentInfo& c : components) names.push_back(component_usage(c));
  return joined(names);
}

std::string component_reference_text(const std::vector<ComponentSection>& sections) {
  std::string out;
  for (const ComponentSection& section : sections) {
    out += section.title + " (" + section.how + ")\n";
    for (const ComponentInfo& c : section.components) {
      out += "  " + component_usage(c) + std::string(c.aliases.empty() ? "" : " (also " + joined(c.aliases) + ")") +
             "\n      " + c.description + "\n";
      if (!c.positional.empty()) out += "      - " + positional_line(c, "") + "\n";
      for (const Param& p : c.params) out += "      - " + param_line(p) + "\n";
    }
    out += "\n";
  }
  return out;
}

std::string component_reference_markdown(const std::vector<ComponentSection>& sections) {
  std::string out =
      "# Components\n\n"
      "Every mapper, allocation policy, network generator, routing, process topology, workload and simulation\n"
      "model that mapsim registers, with its parameters. This page is generated from the registries:\n"
      "`build/mapsim components --markdown > docs/components.md` (a test checks that it is current). Parameters\n"
      "are given as `NAME:key=value,...`; sizes, times and bandwidths take units (`4KiB`, `300ns`, `10Gbps`).\n"
      "How to add a component: [architecture.md](architecture.md).\n";
  for (const ComponentSection& section : sections) {
    out += "\n## " + section.title + "\n\n" + section.how + ".\n\n| name | what it is | parameters |\n|---|---|---|\n";
    for (const ComponentInfo& c : section.components) {
      std::string params = c.positional.empty() ? "" : positional_line(c, "`");
      for (const Param& p : c.params)
        params += (params.empty() ? "" : "<br>") + ("`" + p.name + "`" + param_line(p).substr(p.name.size()));
      out += "| `" + component_usage(c) + "`" +
             std::string(c.aliases.empty() ? "" : " (also `" + joined(c.aliases) + "`)") + " | " + c.description +
             " | " + (params.empty() ? "-" : params) + " |\n";
    }
  }
  return out;
}

}  // namespace mapsim
