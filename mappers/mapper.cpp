#include "mappers/mapper.h"

#include "mappers/adjacency_mapper.h"
#include "mappers/binary_mapper.h"
#include "mappers/greedy_mapper.h"
#include "mappers/simple_mappers.h"
#include "mappers/switch_mapper.h"
#include "topologies/error.h"
#include "topologies/spec.h"

namespace mapsim {

std::vector<std::string> mapper_names() { return {"random", "default", "switch", "binary", "adjacency", "greedy"}; }

std::unique_ptr<Mapper> make_mapper(const std::string& text) {
  Spec spec = Spec::parse(text);
  const std::string& name = spec.name();
  std::unique_ptr<Mapper> mapper;
  if (name == "random") mapper = std::make_unique<RandomMapper>();
  else if (name == "default") mapper = std::make_unique<DefaultMapper>();
  else if (name == "switch") mapper = std::make_unique<SwitchMapper>();
  else if (name == "binary") mapper = std::make_unique<BinaryMapper>();
  else if (name == "adjacency") mapper = std::make_unique<AdjacencyMapper>();
  else if (name == "greedy") mapper = std::make_unique<GreedyMapper>();
  else {
    std::string known;
    for (const std::string& n : mapper_names()) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown mapper '" + name + "': expected one of " + known);
  }
  spec.finish();
  return mapper;
}

}  // namespace mapsim
