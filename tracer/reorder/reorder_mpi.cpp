// libmapsim-reorder.so: MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create_adjacent and
// MPI_Dist_graph_create with reorder = 1 return a communicator whose rank r runs where mapsim's
// mapper put task r (reorder_plan.h); reorder = 0 goes to PMPI untouched. The new communicator is
// MPI_Comm_split of the old one keyed by the new rank, with the topology attached again by the PMPI
// call with reorder = 0, so neighbour queries and neighbour collectives work. docs/reorder.md.
#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "tracer/reorder/reorder_graph.h"
#include "tracer/reorder/reorder_plan.h"

using mapsim::ProcessGraph;
using namespace mapsim::reorder;

namespace {

bool warned = false;      // one warning per run: every process learns that one was given
bool log_warned = false;  // the log file could not be written (said once)

// One reordering call: collective over `comm`; rank 0 plans.
class Reordering {
 public:
  Reordering(MPI_Comm comm, const char* call) : comm_(comm), call_(call) {
    PMPI_Comm_size(comm, &size_);
    PMPI_Comm_rank(comm, &rank_);
    if (rank_ == 0) try {
        settings_ = settings_from_environment();
        failure_ = settings_.problem;
      } catch (const std::exception& e) {
        failure_ = e.what();
      }
  }
  int size() const { return size_; }
  int rank() const { return rank_; }

  // Distributed graphs: every process's edges to rank 0, unless there are too many (then the
  // identity: nothing more is gathered).
  void gather_edges(const std::vector<DirectedEdge>& mine) {
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(rank_ == 0 ? size_ : 0);
    PMPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
    int ok = 1;
    if (rank_ == 0) {
      long total = 0;
      for (int c : counts) total += c;
      if (failure_.empty() && (total > settings_.max_edges || 3 * total > INT_MAX))
        failure_ = "the graph has " + std::to_string(total) + " edges, above MAPSIM_REORDER_MAX_EDGES=" +
                   std::to_string(settings_.max_edges);
      ok = failure_.empty();
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, comm_);
    if (!ok) return;
    std::vector<int> packed;  // from, to, weight
    for (const DirectedEdge& e : mine) packed.insert(packed.end(), {e.from, e.to, static_cast<int>(e.weight)});
    std::vector<int> received, displs;
    if (rank_ == 0) {
      int offset = 0;
      for (int& c : counts) {
        c *= 3;
        displs.push_back(offset);
        offset += c;
      }
      received.resize(offset);
    }
    PMPI_Gatherv(packed.data(), 3 * count, MPI_INT, received.data(), counts.data(), displs.data(), MPI_INT, 0, comm_);
    for (size_t i = 0; i + 2 < received.size(); i += 3) edges_.push_back({received[i], received[i + 1], static_cast<double>(received[i + 2])});
  }
  const std::vector<DirectedEdge>& edges() const { return edges_; }

  // The new rank of each of the first `tasks` processes, or empty for the identity. `graph` runs at
  // rank 0 only; what it throws keeps the identity.
  std::vector<int> agree(int tasks, const std::function<ProcessGraph()>& graph) {
    Request request;
    request.call = call_;
    gather_hosts(tasks, request);
    int reordered = 0;
    std::vector<int> new_rank(tasks);
    if (rank_ == 0) {
      Plan plan;
      try {
        if (!failure_.empty()) throw mapsim::Error(failure_);
        const ProcessGraph g = graph();
        request.graph = &g;
        plan = plan_reorder(request, settings_);
      } catch (const std::exception& e) {
        plan = identity_plan(call_, tasks, e.what());
      }
      std::string why;
      if (!append_log(settings_.log, plan.log, why) && !log_warned) {
        std::fprintf(stderr, "mapsim-reorder: warning: MAPSIM_REORDER_LOG not written: %s; the run goes on without it\n",
                     why.c_str());
        log_warned = true;
      }
      if (!plan.reordered && !warned)
        std::fprintf(stderr, "mapsim-reorder: warning: %s (later failures: see MAPSIM_REORDER_LOG)\n", plan.warning.c_str());
      reordered = plan.reordered;
      new_rank = plan.new_rank;
    }
    PMPI_Bcast(&reordered, 1, MPI_INT, 0, comm_);
    if (!reordered) {
      warned = true;
      return {};
    }
    PMPI_Bcast(new_rank.data(), tasks, MPI_INT, 0, comm_);
    return new_rank;
  }

 private:
  // Processor names and MPI_COMM_WORLD ranks of the first `tasks` processes, at rank 0.
  void gather_hosts(int tasks, Request& request) {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0, world = 0;
    PMPI_Get_processor_name(name, &length);
    PMPI_Comm_rank(MPI_COMM_WORLD, &world);
    std::vector<char> names(rank_ == 0 ? static_cast<size_t>(size_) * MPI_MAX_PROCESSOR_NAME : 0);
    std::vector<int> worlds(rank_ == 0 ? size_ : 0);
    PMPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, comm_);
    PMPI_Gather(&world, 1, MPI_INT, worlds.data(), 1, MPI_INT, 0, comm_);
    for (int p = 0; rank_ == 0 && p < tasks; ++p) {
      const char* at = &names[static_cast<size_t>(p) * MPI_MAX_PROCESSOR_NAME];
      request.processor_names.emplace_back(at, strnlen(at, MPI_MAX_PROCESSOR_NAME));
      request.world_ranks.push_back(worlds[p]);
    }
  }

  MPI_Comm comm_;
  std::string call_;
  int size_ = 0, rank_ = 0;
  Settings settings_;      // rank 0
  std::string failure_;    // rank 0: why the identity is kept before any graph
  std::vector<DirectedEdge> edges_;  // rank 0
};

// Intra-communicators only; MPI itself reports the errors of anything else.
bool reorderable(MPI_Comm comm) {
  int inter = 1;
  return comm != MPI_COMM_NULL && PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter;
}

// The first new_rank.size() processes of comm, in the order of their new ranks, with the topology
// `attach` gives them; the others get MPI_COMM_NULL.
int create_reordered(MPI_Comm comm, int rank, const std::vector<int>& new_rank,
                     const std::function<int(MPI_Comm, MPI_Comm*)>& attach, MPI_Comm* out) {
  const bool member = rank < static_cast<int>(new_rank.size());
  MPI_Comm split = MPI_COMM_NULL;
  const int rc = PMPI_Comm_split(comm, member ? 0 : MPI_UNDEFINED, member ? new_rank[rank] : 0, &split);
  if (rc != MPI_SUCCESS) return rc;
  if (!member) {
    *out = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  const int made = attach(split, out);
  PMPI_Comm_free(&split);
  return made;
}

// Whether every process's arguments are usable (one allreduce): all reorder, or all pass the call to
// PMPI as it is, which reports the errors. A process alone passing it through would leave the others waiting.
bool all_valid(MPI_Comm comm, bool mine) {
  int valid = mine, all = 0;
  PMPI_Allreduce(&valid, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

// Weights that may be read: MPI_WEIGHTS_EMPTY is only for a degree of 0.
bool readable(const int weights[], long degree) { return degree == 0 || weights != MPI_WEIGHTS_EMPTY; }

double weight_at(const int weights[], int i) { return weights == MPI_UNWEIGHTED ? 1 : weights[i]; }

// One process's side of a distributed graph, as MPI_Dist_graph_create_adjacent takes it.
struct Adjacency {
  std::vector<int> sources, source_weights, destinations, destination_weights;
  bool in_weighted = false, out_weighted = false;

  std::vector<int> pack() const {
    std::vector<int> v = {static_cast<int>(sources.size()), static_cast<int>(destinations.size()), in_weighted, out_weighted};
    for (const auto* part : {&sources, &source_weights, &destinations, &destination_weights}) v.insert(v.end(), part->begin(), part->end());
    return v;
  }
  static Adjacency unpack(const std::vector<int>& v) {
    Adjacency a;
    const int in = v[0], out = v[1];
    a.in_weighted = v[2];
    a.out_weighted = v[3];
    auto at = v.begin() + 4;
    auto take = [&](std::vector<int>& part, int n) {
      part.assign(at, at + n);
      at += n;
    };
    take(a.sources, in);
    take(a.source_weights, a.in_weighted ? in : 0);
    take(a.destinations, out);
    take(a.destination_weights, a.out_weighted ? out : 0);
    return a;
  }
  const int* in_weights() const { return !in_weighted ? MPI_UNWEIGHTED : sources.empty() ? MPI_WEIGHTS_EMPTY : source_weights.data(); }
  const int* out_weights() const {
    return !out_weighted ? MPI_UNWEIGHTED : destinations.empty() ? MPI_WEIGHTS_EMPTY : destination_weights.data();
  }
};

// Vertex v's adjacency goes to the process that takes rank v: over `split`, whose ranks are the new
// ones, process p sends to rank p and receives from the process whose old rank is its new rank.
Adjacency move_adjacency(MPI_Comm split, int rank, const std::vector<int>& new_rank, const Adjacency& mine) {
  const std::vector<int> sent = mine.pack();
  int length = static_cast<int>(sent.size()), incoming = 0;
  const int from = new_rank[new_rank[rank]];
  PMPI_Sendrecv(&length, 1, MPI_INT, rank, 0, &incoming, 1, MPI_INT, from, 0, split, MPI_STATUS_IGNORE);
  std::vector<int> received(incoming);
  PMPI_Sendrecv(sent.data(), length, MPI_INT, rank, 1, received.data(), incoming, MPI_INT, from, 1, split, MPI_STATUS_IGNORE);
  return Adjacency::unpack(received);
}

}  // namespace

extern "C" {

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* comm_cart) {
  long tasks = 1;
  bool valid = reorder && reorderable(comm) && ndims >= 1;
  for (int d = 0; valid && d < ndims; ++d) {
    valid = dims[d] >= 1;
    tasks *= dims[d];
    valid = valid && tasks <= INT_MAX;
  }
  int size = 0;
  if (valid) PMPI_Comm_size(comm, &size);
  if (!valid || tasks > size) return PMPI_Cart_create(comm, ndims, dims, periods, reorder, comm_cart);  // MPI's own errors
  Reordering call(comm, "MPI_Cart_create");
  const std::vector<int> new_rank = call.agree(static_cast<int>(tasks), [&] {
    return cartesian_graph(std::vector<int>(dims, dims + ndims), std::vector<int>(periods, periods + ndims));
  });
  if (new_rank.empty()) return PMPI_Cart_create(comm, ndims, dims, periods, 0, comm_cart);
  return create_reordered(comm, call.rank(), new_rank,
                          [&](MPI_Comm split, MPI_Comm* out) { return PMPI_Cart_create(split, ndims, dims, periods, 0, out); },
                          comm_cart);
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm* comm_graph) {
  int size = 0;
  const bool valid = reorder && reorderable(comm) && nnodes >= 1 && PMPI_Comm_size(comm, &size) == MPI_SUCCESS && nnodes <= size;
  if (!valid) return PMPI_Graph_create(comm, nnodes, index, edges, reorder, comm_graph);
  Reordering call(comm, "MPI_Graph_create");
  const std::vector<int> new_rank = call.agree(nnodes, [&] { return edge_graph(nnodes, graph_create_edges(nnodes, index, edges)); });
  if (new_rank.empty()) return PMPI_Graph_create(comm, nnodes, index, edges, 0, comm_graph);
  return create_reordered(comm, call.rank(), new_rank,
                          [&](MPI_Comm split, MPI_Comm* out) { return PMPI_Graph_create(split, nnodes, index, edges, 0, out); },
                          comm_graph);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info, int reorder,
                                   MPI_Comm* comm_dist_graph) {
  if (!reorder || !reorderable(comm) ||
      !all_valid(comm, indegree >= 0 && outdegree >= 0 && readable(sourceweights, indegree) && readable(destweights, outdegree)))
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info,
                                           reorder, comm_dist_graph);
  Reordering call(comm, "MPI_Dist_graph_create_adjacent");
  std::vector<DirectedEdge> mine;  // the out-edges: each edge is also some process's in-edge
  for (int i = 0; i < outdegree; ++i) mine.push_back({call.rank(), destinations[i], weight_at(destweights, i)});
  call.gather_edges(mine);
  const std::vector<int> new_rank = call.agree(call.size(), [&] { return edge_graph(call.size(), call.edges()); });
  if (new_rank.empty())
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, 0,
                                           comm_dist_graph);
  Adjacency own;
  own.sources.assign(sources, sources + indegree);
  own.destinations.assign(destinations, destinations + outdegree);
  own.in_weighted = sourceweights != MPI_UNWEIGHTED;
  own.out_weighted = destweights != MPI_UNWEIGHTED;
  if (own.in_weighted && indegree > 0) own.source_weights.assign(sourceweights, sourceweights + indegree);
  if (own.out_weighted && outdegree > 0) own.destination_weights.assign(destweights, destweights + outdegree);
  return create_reordered(comm, call.rank(), new_rank, [&](MPI_Comm split, MPI_Comm* out) {
    const Adjacency a = move_adjacency(split, call.rank(), new_rank, own);
    return PMPI_Dist_graph_create_adjacent(split, static_cast<int>(a.sources.size()), a.sources.data(), a.in_weights(),
                                           static_cast<int>(a.destinations.size()), a.destinations.data(), a.out_weights(), info,
                                           0, out);
  }, comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* comm_dist_graph) {
  bool valid = n >= 0;
  long total = 0;
  for (int i = 0; valid && i < n; ++i) {
    valid = degrees[i] >= 0;
    total += degrees[i];
  }
  if (!reorder || !reorderable(comm) || !all_valid(comm, valid && readable(weights, total)))
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph);
  Reordering call(comm, "MPI_Dist_graph_create");
  std::vector<DirectedEdge> mine;
  for (int i = 0, k = 0; i < n; ++i)
    for (int j = 0; j < degrees[i]; ++j, ++k) mine.push_back({sources[i], destinations[k], weight_at(weights, k)});
  call.gather_edges(mine);
  const std::vector<int> new_rank = call.agree(call.size(), [&] { return edge_graph(call.size(), call.edges()); });
  if (new_rank.empty()) return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, 0, comm_dist_graph);
  // The ranks given are vertex ids, which are the new ranks: the same arguments describe the graph.
  return create_reordered(comm, call.rank(), new_rank, [&](MPI_Comm split, MPI_Comm* out) {
    return PMPI_Dist_graph_create(split, n, sources, degrees, destinations, weights, info, 0, out);
  }, comm_dist_graph);
}

}  // extern "C"
