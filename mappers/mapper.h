// Mapper: an algorithm that places the tasks of a MappingProblem, deterministic for the problem's
// seed. Each mapper registers itself in mapper_registry() from its own file (name, description,
// parameters, factory); `mapsim components` lists them and docs/mappers.md describes them.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mappers/mapping.h"
#include "support/registry.h"

namespace mapsim {

class Mapper {
 public:
  virtual ~Mapper() = default;
  virtual std::string name() const = 0;
  // Throws NotApplicable when the problem is outside what the mapper maps (a process topology or
  // network of another shape); cheap, so that a run can drop the mapper before running any.
  virtual void check(const MappingProblem& /*problem*/) const {}
  virtual Placement map(const MappingProblem& problem) const = 0;
  // False when the placement depends on the problem alone, never on problem.seed: replicates that
  // differ only in the seed then give the same placement (run once, see run.h).
  virtual bool uses_seed() const { return true; }
};

using MapperRegistry = Registry<std::function<std::unique_ptr<Mapper>(Spec&)>>;
MapperRegistry& mapper_registry();

// "NAME[:key=value,...]" -> the registered mapper; unknown names and keys are errors.
std::unique_ptr<Mapper> make_mapper(const std::string& spec);
std::vector<std::string> mapper_names();

// The slots of a problem as a flat list of node ids, in allocation order, slot by slot
// (node0, node0, ..., node1, ...): the order `default` fills.
std::vector<int> slot_list(const MappingProblem& problem);

}  // namespace mapsim
