// What libmapsim-reorder.so decides, without MPI: which process of a communicator takes which new
// rank, so that new rank r runs on the node mapsim's mapper chose for task r. Processes cannot move:
// the allocation is the set of nodes they occupy, each with as many slots as processes on it.
// Rank 0 of the communicator plans; on any failure the plan is the identity, with a warning.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mappers/mapping.h"
#include "mappers/process_graph.h"

namespace mapsim::reorder {

// From the environment (docs/reorder.md).
struct Settings {
  std::string network;         // MAPSIM_NETWORK: any network spec or file (file:, ibnet:)
  std::string mapper = "best";  // MAPSIM_MAPPER
  std::string routing = "default";  // MAPSIM_ROUTING
  uint64_t seed = 1;           // MAPSIM_SEED: the mapper's, and the network's when its spec takes one
  std::string hostfile;        // MAPSIM_HOSTFILE: node of each MPI_COMM_WORLD rank, one per line
  std::string log;             // MAPSIM_REORDER_LOG: appended to by each call
  long max_edges = 1L << 22;   // MAPSIM_REORDER_MAX_EDGES: larger graphs keep the identity
  std::string problem;         // a malformed number ("MAPSIM_SEED='x': expected ..."): the identity is kept
};
// Also notes the hostfile and the network's files as inputs (support/input_file.h) at once, so that the
// log is never one of them, even when a call fails before reading them.
Settings settings_from_environment();

struct Request {
  std::string call;  // the MPI call, for the log
  const ProcessGraph* graph = nullptr;  // task t = rank t of the new communicator
  // Of each process, by its rank in the old communicator (as many as the graph has tasks):
  std::vector<std::string> processor_names;  // MPI_Get_processor_name
  std::vector<int> world_ranks;              // rank in MPI_COMM_WORLD (the hostfile's line)
};

struct Plan {
  std::vector<int> new_rank;  // of each process; the identity when not reordered
  bool reordered = false;
  std::string warning;  // why the identity was kept (empty when reordered)
  std::string log;      // what was done, for MAPSIM_REORDER_LOG
};

// Never throws: every failure (bad settings, unknown host, mapper error, too large) gives the identity.
Plan plan_reorder(const Request& request, const Settings& settings);
// The identity with `reason`, for failures found before a graph exists.
Plan identity_plan(const std::string& call, int processes, const std::string& reason);

// On each node, the tasks the placement puts there (in task order) go to the processes on it (in old
// rank order): new_rank[p]. process_node[p] is the node of process p.
std::vector<int> ranks_for_placement(const Placement& placement, const std::vector<int>& process_node);

// Appends `text` to the log file (nothing when path is empty). The file is opened at the first call of
// the run, by open_appended_file (support/created_file.h): never a link, an input, a FIFO or a device.
// False, with `why`, when it is refused or cannot be written; a refused log stays refused for the run.
bool append_log(const std::string& path, const std::string& text, std::string& why);

}  // namespace mapsim::reorder
