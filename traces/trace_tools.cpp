#include "traces/trace_tools.h"

#include <tuple>

namespace mapsim {
namespace {

bool is_collective(ActionType type) {
  switch (type) {
    case ActionType::Barrier: case ActionType::Bcast: case ActionType::Reduce: case ActionType::Allreduce:
    case ActionType::Alltoall: case ActionType::Alltoallv: case ActionType::Gather: case ActionType::Gatherv:
    case ActionType::Allgather: case ActionType::Allgatherv: case ActionType::Scatter: case ActionType::Scatterv:
    case ActionType::ReduceScatter: case ActionType::Scan: case ActionType::Exscan:
      return true;
    default:
      return false;
  }
}

std::string where(const RankTrace& rank, const Action& a) { return rank.file + ":" + std::to_string(a.line) + ": "; }

}  // namespace

TraceStats trace_stats(const Trace& trace) {
  TraceStats s;
  s.ranks = trace.num_ranks();
  for (const RankTrace& rank : trace.ranks)
    for (const Action& a : rank.actions) {
      ++s.actions[action_name(a.type)];
      if (a.type == ActionType::Send || a.type == ActionType::Isend || a.type == ActionType::SendRecv) {
        ++s.messages;
        s.bytes += a.bytes;
      }
      if (is_collective(a.type)) ++s.collectives;
      if (a.type == ActionType::Compute) s.flops += a.flops;
      if (a.type == ActionType::Sleep) s.sleep_seconds += a.flops;
    }
  return s;
}

std::vector<std::string> check_trace(const Trace& trace, size_t limit) {
  std::vector<std::string> problems;
  auto report = [&](const std::string& text) {
    if (problems.size() < limit) problems.push_back(text);
  };
  // Point to point: the sends and receives of each (source, destination, tag), with where they are.
  using Key = std::tuple<int, int, int>;
  struct Side {
    std::vector<std::pair<int, const Action*>> sends, recvs;  // (rank, action)
  };
  std::map<Key, Side> channels;
  for (int r = 0; r < trace.num_ranks(); ++r) {
    std::map<Key, long> open;  // isend/irecv not yet waited for
    for (const Action& a : trace.ranks[r].actions) {
      switch (a.type) {
        case ActionType::Send: case ActionType::Isend:
          channels[{r, a.peer, a.tag}].sends.emplace_back(r, &a);
          if (a.type == ActionType::Isend) ++open[{r, a.peer, a.tag}];
          break;
        case ActionType::Recv: case ActionType::Irecv:
          channels[{a.peer, r, a.tag}].recvs.emplace_back(r, &a);
          if (a.type == ActionType::Irecv) ++open[{a.peer, r, a.tag}];
          break;
        case ActionType::SendRecv:
          channels[{r, a.peer, 0}].sends.emplace_back(r, &a);
          channels[{a.root, r, 0}].recvs.emplace_back(r, &a);
          break;
        case ActionType::Wait: case ActionType::Test: {
          long& pending = open[{a.peer, a.root, a.tag}];
          if (pending == 0)
            report(where(trace.ranks[r], a) + "rank " + std::to_string(r) + " waits for (" + std::to_string(a.peer) + ", " +
                   std::to_string(a.root) + ", tag " + std::to_string(a.tag) + ") but has no such isend or irecv pending");
          else
            --pending;
          break;
        }
        default:
          break;
      }
    }
  }
  for (const auto& [key, side] : channels) {
    const auto& [src, dst, tag] = key;
    const size_t matched = std::min(side.sends.size(), side.recvs.size());
    if (side.sends.size() > matched) {
      const auto& [rank, a] = side.sends[matched];
      report(where(trace.ranks[rank], *a) + std::to_string(side.sends.size() - matched) + " send(s) from rank " +
             std::to_string(src) + " to rank " + std::to_string(dst) + " tag " + std::to_string(tag) +
             " have no matching receive (the first is here)");
    }
    if (side.recvs.size() > matched) {
      const auto& [rank, a] = side.recvs[matched];
      report(where(trace.ranks[rank], *a) + std::to_string(side.recvs.size() - matched) + " receive(s) at rank " +
             std::to_string(dst) + " from rank " + std::to_string(src) + " tag " + std::to_string(tag) +
             " have no matching send (the first is here)");
    }
  }
  // Collectives: every rank calls the same ones in the same order (and the same roots).
  std::vector<std::vector<const Action*>> calls(trace.num_ranks());
  for (int r = 0; r < trace.num_ranks(); ++r)
    for (const Action& a : trace.ranks[r].actions)
      if (is_collective(a.type)) calls[r].push_back(&a);
  for (int r = 1; r < trace.num_ranks(); ++r) {
    const size_t common = std::min(calls[r].size(), calls[0].size());
    size_t k = 0;
    while (k < common && calls[r][k]->type == calls[0][k]->type && calls[r][k]->root == calls[0][k]->root) ++k;
    if (k < common) {
      report(where(trace.ranks[r], *calls[r][k]) + "rank " + std::to_string(r) + "'s collective #" + std::to_string(k + 1) +
             " is " + action_name(calls[r][k]->type) + " (root " + std::to_string(calls[r][k]->root) + ") but rank 0's is " +
             action_name(calls[0][k]->type) + " (root " + std::to_string(calls[0][k]->root) + ")");
    } else if (calls[r].size() != calls[0].size()) {
      const RankTrace& longer = calls[r].size() > common ? trace.ranks[r] : trace.ranks[0];
      const Action& extra = calls[r].size() > common ? *calls[r][common] : *calls[0][common];
      report(where(longer, extra) + "rank " + std::to_string(r) + " calls " + std::to_string(calls[r].size()) +
             " collectives, rank 0 " + std::to_string(calls[0].size()));
    }
  }
  return problems;
}

}  // namespace mapsim
