// Internal to sim/: MPI semantics over a transport. Each rank is an event-driven state machine
// over its actions (no SimGrid actors: callbacks on SimGrid's event queue). Sends and receives
// match per (receiver, source) in posting order, by tag; matched messages go to the transport.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "traces/action_ops.h"
#include "traces/trace_source.h"
#include "sim/simulation.h"
#include "sim/internal/circuit_planner.h"
#include "sim/internal/path_choice.h"
#include "sim/internal/sample_store.h"
#include "sim/transport.h"

namespace mapsim::sim {

class Replay {
 public:
  // Reads `source` as the ranks advance (a window per rank; traces/trace_source.h).
  Replay(const RoutedNetwork& routed, const Placement& placement, const TraceSource& source, const SimOptions& options,
         const std::vector<JobSpan>& jobs = {});
  // Schedules every job's ranks at their start, runs SimGrid's engine (created by the caller) and checks
  // that every rank finished; throws mapsim::Error naming blocked ranks otherwise.
  void run();
  SimResult result(double wall_seconds) const;

 private:
  struct Request {
    bool send = false, done = false, awaited = false;
    int rank = -1, peer = -1, tag = 0;
    double bytes = 0;
    int message = -1;
  };
  struct Rank {
    size_t pc = 0;                 // actions started
    const Action* current = nullptr;  // the last one (valid until the rank reads its next)
    std::vector<Op> ops;           // expansion of the current action
    size_t op = 0;
    std::vector<int> group;        // requests of the current action, waited by WaitGroup
    std::vector<int> blocked_on;   // requests the rank waits for
    int waiting = 0;
    bool computing = false, finished = false;
    bool test_slept = false;       // the current `test` has taken its SMPI test time
    double blocked_since = 0;      // record_timeline: when the current wait began
    std::map<std::tuple<int, int, int>, std::deque<int>> stored;  // user requests by (src, dst, tag)
  };

  void advance(int rank);
  void start_job(int job, double at);  // schedules the job's ranks at time `at`
  void rank_finished(int rank);
  // The rank computes or sleeps `seconds` (timeline state `state`), then advances.
  void sleep_for(int rank, double seconds, const char* state);
  bool block_on(int rank, std::vector<int> requests);
  void post_send(int rank, const Op& op);
  void post_recv(int rank, const Op& op);
  void match(int message, int recv_request);
  // The legs of message m: one EPS route, or EPS legs and circuits when it may take the OCS.
  double plan_path(Message& m);
  void add_eps_leg(const Message& m, int from, int to);
  void delivered(int message);
  void complete(int request);
  int new_request(const Request& r);
  void free_request(int id);
  std::string describe_request(int id) const;
  std::string describe_blocked(int rank) const;
  void report_progress();
  static uint64_t pair_key(int receiver, int source) { return (static_cast<uint64_t>(receiver) << 32) | static_cast<uint32_t>(source); }

  const RoutedNetwork& routed_;
  const Placement& placement_;
  std::vector<int> cores_;  // each rank's slot on its node, when the network describes its nodes' insides
  const TraceSource& source_;
  std::unique_ptr<ActionStream> stream_;
  SimOptions options_;
  std::vector<Rank> ranks_;
  std::vector<JobSpan> jobs_;       // one job of every rank when none were given
  std::vector<int> job_of_;         // per rank
  std::vector<int> job_left_;       // per job: ranks not finished yet
  std::vector<char> job_started_;
  std::vector<Request> requests_;
  std::vector<int> free_requests_;
  std::vector<Message> messages_;
  std::vector<int> free_messages_;
  std::unordered_map<uint64_t, std::deque<int>> unexpected_;  // sends waiting for a receive
  std::unordered_map<uint64_t, std::deque<int>> posted_;      // receives waiting for a send
  std::unique_ptr<Transport> transport_;
  long local_events_ = 0;
  int test_sleeps_ = 1;  // SMPI's multiplier of smpi/test: one more per failed test, back to 1 on success
  long delivered_ = 0, actions_total_ = 0;
  std::chrono::steady_clock::time_point progress_last_;

  // Statistics, accumulated as messages start and arrive.
  SimResult stats_;
  SampleStore neighbour_latencies_, distant_latencies_, collective_latencies_;  // all: the three together
  double zero_load_sum_ = 0;
  std::vector<Leg> path_;
  PathChooser paths_;
  std::unique_ptr<PathChooser> failed_paths_;  // options_.link_failure: the routes from its time on
  std::unique_ptr<CircuitPlanner> circuits_;  // hybrid networks only
};

}  // namespace mapsim::sim
