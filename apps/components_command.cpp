// mapsim components: every registered component with its parameters (--markdown: docs/components.md).
#include <iostream>

#include "apps/commands.h"
#include "mappers/mapper.h"
#include "sim/simulate.h"
#include "sim/traffic.h"
#include "sim/workload.h"
#include "support/component_reference.h"
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
          {"Simulation models", "`--model NAME`, scenario key `model` (or `none`)", model_infos()},
          {"Traffic patterns", "`mapsim traffic --pattern SPEC` (open-loop synthetic traffic)", traffic_registry().infos()},
          {"Collective algorithms",
           "`--collectives COLLECTIVE=NAME,...`, scenario key `model.collectives`; a library first (`mpich`, `ompi`) "
           "takes its choice for every collective, `COLLECTIVE=mapsim` is the default",
           collective_registry().infos()}};
}

void add_components_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "components", "List every registered network, routing, workload, mapper, model and collective algorithm");
  cmd->add_flag("--markdown", *markdown, "Print docs/components.md");
  cmd->callback([markdown] {
    const auto sections = component_sections();
    std::cout << (*markdown ? component_reference_markdown(sections) : component_reference_text(sections));
  });
}

}  // namespace mapsim
