// mapsim components [KIND]: every registered component with its parameters (--markdown: docs/components.md);
// `mapsim components columns`: the result columns (mappers/result_columns.h; --markdown: docs/scenario.md's glossary).
#include <cctype>
#include <iostream>
#include <set>
#include <sstream>

#include "apps/commands.h"
#include "mappers/allocation.h"
#include "mappers/mapper.h"
#include "mappers/result_columns.h"
#include "sim/simulate.h"
#include "sim/traffic.h"
#include "sim/workload.h"
#include "support/component_reference.h"
#include "support/error.h"
#include "support/message.h"
#include "topologies/network_factory.h"
#include "traces/collective_choice.h"

namespace mapsim {

std::vector<ComponentSection> component_sections() {
  return {{"Networks", "`--topology SPEC`, `mapsim topo SPEC`, scenario key `network`", network_registry().infos()},
          {"Routings", "`--routing NAME`, scenario key `routing`; `default` is the network family's own",
           routing_registry().infos()},
          {"Process topologies", "`--process SPEC`, scenario key `workload.process`", process_registry().infos()},
          {"Workloads", "`--workload SPEC`, scenario key `workload.pattern`", workload_registry().infos()},
          {"Mappers", "`--mapper SPEC`, `--mappers A,B`, scenario key `mapping`", mapper_registry().infos()},
          {"Allocations", "`--allocation SPEC`, scenario key `allocation`: which nodes the job gets", allocation_registry().infos()},
          {"Simulation models", "`--model NAME`, scenario key `model` (or `none`)", model_infos()},
          {"Traffic patterns", "`mapsim traffic --pattern SPEC` (open-loop synthetic traffic)", traffic_registry().infos()},
          {"Collective algorithms",
           "`--collectives COLLECTIVE=NAME,...`, scenario key `model.collectives`; a library first (`mpich`, `ompi`) "
           "takes its choice for every collective, `COLLECTIVE=mapsim` is the default",
           collective_registry().infos()}};
}

namespace {

// A section's kind as a user names it: its title's first word, lower case ("Process topologies" -> process).
std::string kind_word(const std::string& title) {
  std::string word = title.substr(0, title.find(' '));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

// The words a section answers to: each word of its title, singular and plural ("Simulation models": simulation,
// simulations, model, models; "Process topologies": process, processes, topology, topologies).
std::set<std::string> kind_words(const std::string& title) {
  std::set<std::string> words;
  std::istringstream in(title);
  for (std::string w; in >> w;) {
    for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    words.insert(w);
    const size_t n = w.size();
    if (n > 3 && w.compare(n - 3, 3, "ies") == 0) words.insert(w.substr(0, n - 3) + "y");
    else if (w.back() == 'y') words.insert(w.substr(0, n - 1) + "ies");
    else if (n > 2 && w.compare(n - 2, 2, "ss") == 0) words.insert(w + "es");
    else if (w.back() == 's') words.insert(w.substr(0, n - 1));
    else words.insert(w + "s");
  }
  return words;
}

// The sections of `kind` (any word of the title, singular or plural: "mapper", "models"); all when empty.
std::vector<ComponentSection> sections_of(const std::string& kind) {
  std::vector<ComponentSection> sections = component_sections();
  if (kind.empty()) return sections;
  std::vector<std::string> kinds, words;  // the list an error gives; every word, for "did you mean"
  for (const ComponentSection& section : sections) {
    kinds.push_back(kind_word(section.title));
    const std::set<std::string> answers = kind_words(section.title);
    if (answers.count(kind)) return {section};
    words.insert(words.end(), answers.begin(), answers.end());
  }
  std::string list;
  for (const std::string& k : kinds) list += (list.empty() ? "" : ", ") + k;
  std::string near = nearest_word(kind, kinds);
  if (near.empty()) near = nearest_word(kind, words);
  throw Error("components: unknown kind '" + kind + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
              ": expected one of " + list);
}

}  // namespace

void add_components_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  auto kind = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "components", "List every registered network, routing, workload, mapper, allocation, model and collective algorithm");
  cmd->add_option("kind", *kind,
                  "Only this kind: networks, routings, process, workloads, mappers, allocations, simulation, traffic, collective "
                  "(any word of its name, singular or plural: model, models, collectives); "
                  "or columns: the result columns (results.csv, summary.json) with their units");
  cmd->add_flag("--markdown", *markdown, "Print docs/components.md");
  cmd->callback([markdown, kind] {
    if (*kind == "columns" || *kind == "column") {
      std::cout << (*markdown ? result_columns_markdown() : result_columns_text());
      return;
    }
    const auto sections = sections_of(*kind);
    std::cout << (*markdown ? component_reference_markdown(sections) : component_reference_text(sections));
  });
}

}  // namespace mapsim
