// Random (RM) and default mappers: the baselines every paper compares against.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class RandomMapper : public Mapper {
 public:
  std::string name() const override { return "random"; }
  Placement map(const MappingProblem& problem) const override;
};

class DefaultMapper : public Mapper {
 public:
  std::string name() const override { return "default"; }
  Placement map(const MappingProblem& problem) const override;
};

}  // namespace mapsim
