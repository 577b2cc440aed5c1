// placement:PATH -- the placement a file gives ("rank node" lines, as `mapsim map -o` writes them):
// a placement computed elsewhere (or by an earlier run) replays through the same pipeline.
#include "mappers/mapper.h"
#include "support/error.h"

namespace mapsim {
namespace {

class PlacementFileMapper : public Mapper {
 public:
  explicit PlacementFileMapper(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return "placement:" + path_; }
  Placement map(const MappingProblem& problem) const override {
    Placement placement = read_placement(path_, problem.network->network());
    try {  // the file is what is wrong, not the pipeline
      check_placement(problem, placement);
    } catch (const Error& e) {
      throw Error(path_ + ": " + e.what());
    }
    return placement;
  }
  bool uses_seed() const override { return false; }

 private:
  std::string path_;
};

}  // namespace

MAPSIM_REGISTER(mapper_registry(),
                {"placement",
                 "the placement of a file of 'rank node' lines (mapsim map -o)",
                 {},
                 [](Spec& spec) { return std::make_unique<PlacementFileMapper>(spec.require_positional("PATH")); },
                 "PATH", "path"});

}  // namespace mapsim
