// Random (RM) and default mappers: the baselines every paper compares against.
#pragma once
#include "mappers/mapper.h"

namespace mapsim {

class RandomMapper : public Mapper {
 public:
  explicit RandomMapper(bool by_switch = false) : by_switch_(by_switch) {}
  std::string name() const override { return by_switch_ ? "random:unit=switch" : "random"; }
  Placement map(const MappingProblem& problem) const override;

 private:
  bool by_switch_;
};

class DefaultMapper : public Mapper {
 public:
  std::string name() const override { return "default"; }
  Placement map(const MappingProblem& problem) const override;
  bool uses_seed() const override { return false; }
};

}  // namespace mapsim
