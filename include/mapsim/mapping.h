// Mapping and simulating one placement, as `mapsim map` and `mapsim simulate` do, with typed results.
// Every call throws mapsim::Error with the CLI's one-line message. simulate() runs SimGrid in a child
// process, so it may be called any number of times in one process.
#pragma once
#include <mapsim/export.h>
#include <cstdint>
#include <string>
#include <vector>

#include <mapsim/problem.h>

namespace mapsim {

struct Mapping {
  std::string mapper;          // as run (options included)
  std::vector<int> placement;  // rank -> node
  Values metrics;              // the mapping metrics of results.csv (hop_bytes, max_link_load, ...)
  double seconds = 0;          // wall clock of the mapper
};

// One directed link's load: a switch-to-switch channel ("link"), a node's injection ("nic-out") or
// ejection ("nic-in") link, or an optical circuit; as links.csv has them.
struct LinkLoad {
  std::string kind, from, to;
  int id = 0;
  double bandwidth = 0;  // bytes/s
  double bytes = 0, messages = 0;
  double busy = 0;       // seconds spent serialising
};

struct Simulation {
  Mapping mapping;
  std::string model;
  double makespan = 0;              // seconds
  std::vector<double> rank_finish;  // seconds, per rank
  Values values;                    // the sim_ columns of results.csv
  std::vector<LinkLoad> links;
  long events = 0;
  double seconds = 0;               // wall clock of the simulation
};

// `mapper` is any registered mapper spec ("scotch", "annealing:moves=500", "placement:FILE").
MAPSIM_API Mapping map(const Problem& problem, const std::string& mapper);
// `model` is a model spec ("flow", "packet:mtu=2KiB", "flit:vcs=4,buffer=64").
MAPSIM_API Simulation simulate(const Problem& problem, const std::string& mapper, const std::string& model);

}  // namespace mapsim
