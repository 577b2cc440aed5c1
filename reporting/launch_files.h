// Launch files: a placement written as the files MPI launchers and Slurm read, so that it reaches a real
// run, and readers for them. A rank's site is its node's name and its core; a node's slots are its cores,
// taken by its ranks in rank order, or where the network describes its nodes' insides as the given
// cores say (mappers/core_placement.h: `mapsim map` and `run` give them).
// Formats (docs/mappers.md#launch-files): rankfile (Open MPI), hostlist (one host per rank: MPICH),
// machinefile (Hydra HOST:COUNT runs in rank order), slurm-hostfile (SLURM_HOSTFILE for
// srun --distribution=arbitrary), cpu-bind (per node, its srun --cpu-bind=map_cpu: list).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "mappers/mapping.h"
#include "topologies/network.h"

namespace mapsim {

struct RankSite {
  std::string host;
  int core = -1;  // -1: the file gives none (host lists)
  bool operator==(const RankSite& o) const { return host == o.host && core == o.core; }
};
using RankSites = std::vector<RankSite>;  // by rank

const std::vector<std::string>& launch_formats();
// Throws "unknown launch format 'x' (did you mean 'y'?): expected one of ...".
void check_launch_format(const std::string& format);

// Each rank's node name and core: cores[rank], or without cores the node's k-th rank (in rank order) core k.
RankSites rank_sites(const Placement& placement, const Network& network, const std::vector<int>& cores = {});
// Throws Error naming `file` and the node when the format's launcher would read a host name as syntax
// (support/consumer_quoting.h: a leading '-' that ssh takes as an option, ':' for Hydra, '*' or ',' for
// Slurm, '=' or '#' in a rankfile, ...), before anything is written.
void write_launch_file(const std::string& format, const RankSites& sites, std::ostream& out, const std::string& file);

// Reads a launch file back; errors name "PATH:LINE: ..." and what was expected. A cpu-bind file holds
// cores only: it is laid on `hosts` (each rank's host, as the slurm-hostfile gives them) as srun does,
// the i-th rank on a node taking the i-th core of that node's list.
RankSites read_launch_file(const std::string& format, const std::string& path, const RankSites& hosts = {});

}  // namespace mapsim
