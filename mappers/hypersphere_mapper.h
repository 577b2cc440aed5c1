// Hypersphere mapper (antonio1994 section 2.5): tasks are points on the unit sphere in R^n for an
// n-cube; gradient projection minimises eq. 8 -- gamma x the (volume-weighted) mean squared distance
// of communicating tasks plus the mean inverse squared distance of all task pairs -- then each
// point is discretised by the signs of its coordinates (sector = PE). Spreading phases 1..n move
// points out of over-populated sectors (more than ceil(T/N) tasks) into under-populated ones
// within distance 2 sqrt(i/n) of their centres, the nearest first; phase n gives a balanced
// (T = N: one-to-one) mapping. T > N is supported. Hypercube networks only (the sectors are the
// cube's vertices). O(iterations x T^2) for the all-pairs term.
#pragma once
#include <cstdint>
#include <vector>

#include "mappers/mapper.h"

namespace mapsim {

struct HypersphereOptions {
  int spreading = -1;      // phases to apply; -1: all n (balanced)
  double gamma = 1;        // weight of the communication term
  double step = 0.5;       // gradient step alpha (reproduces antonio1994 Table I)
  int iterations = 1000;   // at most; stops earlier when no point moves more than 1e-7
};

using SpherePoints = std::vector<std::vector<double>>;  // one unit n-vector per task

// The mapper's start: task i near the centre of sector i mod 2^n, jittered by the seed.
SpherePoints hypersphere_start(int tasks, int n, uint64_t seed);
// Gradient projection from `points`; returns the fixed point reached.
SpherePoints hypersphere_solve(const ProcessGraph& graph, SpherePoints points, const HypersphereOptions& options);
// PE address of each point: bit l set when coordinate l >= 0.
std::vector<int> hypersphere_discretise(const SpherePoints& points);
// Applies spreading phases 1..phases (of n) to `points` in place.
void hypersphere_spread(SpherePoints& points, int phases);
// Continuous objective of eq. 13 (with gamma and edge volumes).
double hypersphere_objective(const ProcessGraph& graph, const SpherePoints& points, double gamma = 1);

class HypersphereMapper : public Mapper {
 public:
  explicit HypersphereMapper(HypersphereOptions options = {}) : options_(options) {}
  std::string name() const override { return "hypersphere"; }
  void check(const MappingProblem& problem) const override;
  Placement map(const MappingProblem& problem) const override;

 private:
  HypersphereOptions options_;
};

}  // namespace mapsim
