#include "mappers/mapper.h"

#include "mappers/greedy_mapper.h"
#include "mappers/simple_mappers.h"
#include "mappers/switch_mapper.h"
#include "topologies/error.h"

namespace mapsim {

std::vector<std::string> mapper_names() { return {"random", "default", "switch", "greedy"}; }

std::unique_ptr<Mapper> make_mapper(const std::string& name) {
  if (name == "random") return std::make_unique<RandomMapper>();
  if (name == "default") return std::make_unique<DefaultMapper>();
  if (name == "switch") return std::make_unique<SwitchMapper>();
  if (name == "greedy") return std::make_unique<GreedyMapper>();
  std::string known;
  for (const std::string& n : mapper_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown mapper '" + name + "': expected one of " + known);
}

}  // namespace mapsim
