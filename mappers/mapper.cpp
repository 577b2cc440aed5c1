#include "mappers/mapper.h"

#include "support/spec.h"

namespace mapsim {

MapperRegistry& mapper_registry() {
  static MapperRegistry registry("mapper");
  return registry;
}

std::vector<std::string> mapper_names() {
  std::vector<std::string> names;
  for (const auto* entry : mapper_registry().entries()) names.push_back(entry->name);
  return names;
}

std::unique_ptr<Mapper> make_mapper(const std::string& text) {
  Spec spec = parse_spec(mapper_registry(), text);
  std::unique_ptr<Mapper> mapper = lookup(mapper_registry(), spec).factory(spec);
  spec.finish();
  return mapper;
}

}  // namespace mapsim
