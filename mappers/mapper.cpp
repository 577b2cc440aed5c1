#include "mappers/mapper.h"

#include "mappers/adjacency_mapper.h"
#include "mappers/annealing_mapper.h"
#include "mappers/best_mapper.h"
#include "mappers/binary_mapper.h"
#include "mappers/greedy_mapper.h"
#include "mappers/hypersphere_mapper.h"
#include "mappers/metis_mapper.h"
#include "mappers/partition_mappers.h"
#include "mappers/scotch_mapper.h"
#include "mappers/simple_mappers.h"
#include "mappers/switch_mapper.h"
#include "topologies/error.h"
#include "topologies/spec.h"

namespace mapsim {

std::vector<std::string> mapper_names() {
  return {"random", "default", "switch", "binary", "adjacency", "greedy", "hypersphere",
          "annealing", "part", "parts", "scotch", "metis", "best"};
}

namespace {

std::unique_ptr<Mapper> build(Spec& spec, const std::string& text) {
  const std::string& name = spec.name();
  if (name == "random") return std::make_unique<RandomMapper>();
  if (name == "default") return std::make_unique<DefaultMapper>();
  if (name == "switch") return std::make_unique<SwitchMapper>();
  if (name == "binary") return std::make_unique<BinaryMapper>();
  if (name == "adjacency") {
    const std::string split = spec.get_string("split", "distance");
    if (split != "distance" && split != "cut")
      throw Error("mapper '" + text + "': split must be distance (moh2010's steps 4-7) or cut");
    return std::make_unique<AdjacencyMapper>(split == "cut" ? AdjacencySplit::Cut : AdjacencySplit::Distance);
  }
  if (name == "greedy") return std::make_unique<GreedyMapper>();
  if (name == "part" || name == "parts") return std::make_unique<PartMapper>(name == "parts");
  if (name == "scotch") return std::make_unique<ScotchMapper>();
  if (name == "metis") return std::make_unique<MetisMapper>();
  if (name == "best") return std::make_unique<BestMapper>();
  if (name == "annealing") {
    const long moves = spec.get_int("moves", 200);
    if (moves < 1 || moves > 1000000) throw Error("mapper '" + text + "': moves must be in 1..1000000");
    return std::make_unique<AnnealingMapper>(static_cast<int>(moves));
  }
  if (name == "hypersphere") {
    HypersphereOptions o;
    o.spreading = static_cast<int>(spec.get_int("spreading", -1));
    o.gamma = spec.get_double("gamma", 1);
    o.step = spec.get_double("step", o.step);
    o.iterations = static_cast<int>(spec.get_int("iterations", o.iterations));
    if (o.spreading < -1 || !(o.gamma > 0) || !(o.step > 0) || o.iterations < 0)
      throw Error("mapper '" + text + "': need spreading >= 0, gamma > 0, step > 0, iterations >= 0");
    return std::make_unique<HypersphereMapper>(o);
  }
  std::string known;
  for (const std::string& n : mapper_names()) known += (known.empty() ? "" : ", ") + n;
  throw Error("unknown mapper '" + name + "': expected one of " + known);
}

}  // namespace

std::unique_ptr<Mapper> make_mapper(const std::string& text) {
  Spec spec = Spec::parse(text);
  std::unique_ptr<Mapper> mapper = build(spec, text);
  spec.finish();
  return mapper;
}

}  // namespace mapsim
