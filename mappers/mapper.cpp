#include "mappers/mapper.h"

#include "mappers/adjacency_mapper.h"
#include "mappers/annealing_mapper.h"
#include "mappers/binary_mapper.h"
#include "mappers/greedy_mapper.h"
#include "mappers/hypersphere_mapper.h"
#include "mappers/partition_mappers.h"
#include "mappers/simple_mappers.h"
#include "mappers/switch_mapper.h"
#include "topologies/error.h"
#include "topologies/spec.h"

namespace mapsim {

std::vector<std::string> mapper_names() { return {"random", "default", "switch", "binary", "adjacency", "greedy", "annealing", "part", "parts", "hypersphere"}; }

std::unique_ptr<Mapper> make_mapper(const std::string& text) {
  Spec spec = Spec::parse(text);
  const std::string& name = spec.name();
  std::unique_ptr<Mapper> mapper;
  if (name == "random") mapper = std::make_unique<RandomMapper>();
  else if (name == "default") mapper = std::make_unique<DefaultMapper>();
  else if (name == "switch") mapper = std::make_unique<SwitchMapper>();
  else if (name == "binary") mapper = std::make_unique<BinaryMapper>();
  else if (name == "adjacency") mapper = std::make_unique<AdjacencyMapper>();
  else if (name == "annealing") {
    const long moves = spec.get_int("moves", 100);
    if (moves < 1 || moves > 1000000) throw Error("mapper '" + text + "': moves must be in 1..1000000");
    mapper = std::make_unique<AnnealingMapper>(static_cast<int>(moves));
  } else if (name == "part" || name == "parts") mapper = std::make_unique<PartMapper>(name == "parts");
  else if (name == "hypersphere") {
    HypersphereOptions o;
    o.spreading = static_cast<int>(spec.get_int("spreading", -1));
    o.gamma = spec.get_double("gamma", 1);
    o.step = spec.get_double("step", o.step);
    o.iterations = static_cast<int>(spec.get_int("iterations", o.iterations));
    if (o.spreading < -1 || !(o.gamma > 0) || !(o.step > 0) || o.iterations < 0)
      throw Error("mapper '" + text + "': need spreading >= 0, gamma > 0, step > 0, iterations >= 0");
    mapper = std::make_unique<HypersphereMapper>(o);
  } else if (name == "greedy") mapper = std::make_unique<GreedyMapper>();
  else {
    std::string known;
    for (const std::string& n : mapper_names()) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown mapper '" + name + "': expected one of " + known);
  }
  spec.finish();
  return mapper;
}

}  // namespace mapsim
