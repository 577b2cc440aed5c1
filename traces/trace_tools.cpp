#include "traces/trace_tools.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "support/units.h"

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

using Key = std::tuple<int, int, int>;  // source, destination, tag

// The channels a point-to-point action sends on (+1) or receives on (-1).
template <typename F>
void channels_of(int r, const Action& a, F&& f) {
  switch (a.type) {
    case ActionType::Send: case ActionType::Isend: f(Key{r, a.peer, a.tag}, +1); break;
    case ActionType::Recv: case ActionType::Irecv: f(Key{a.peer, r, a.tag}, -1); break;
    case ActionType::SendRecv:
      f(Key{r, a.peer, 0}, +1);
      f(Key{a.root, r, 0}, -1);
      break;
    default: break;
  }
}

}  // namespace

TraceStats trace_stats(const std::string& path, bool legacy) {
  TraceStats s;
  std::map<int, long> per_rank;  // collective calls per rank
  s.ranks = visit_ti_trace(path, legacy, [&](int rank, const Action& a, const RankTrace&, int) {
    ++s.actions[action_name(a.type)];
    if (a.type == ActionType::Send || a.type == ActionType::Isend || a.type == ActionType::SendRecv) {
      ++s.messages;
      s.bytes += a.bytes;
    }
    if (is_collective(a.type)) {
      ++s.collectives;
      s.collective_calls = std::max(s.collective_calls, ++per_rank[rank]);
    }
    if (a.type == ActionType::Compute) s.flops += a.flops;
    if (a.type == ActionType::Sleep) s.sleep_seconds += a.flops;
  });
  return s;
}

std::vector<std::string> check_trace(const std::string& path, bool legacy, size_t limit) {
  std::vector<std::string> problems;
  auto report = [&](const std::string& text) {
    if (problems.size() < limit) problems.push_back(text);
  };
  struct Count {
    long sends = 0, recvs = 0;
  };
  struct Call {
    ActionType type;
    int root;
    uint32_t line;
  };
  std::map<Key, Count> channels;
  std::map<std::pair<int, Key>, long> open;  // per rank: isend/irecv not yet waited for
  std::vector<std::vector<Call>> calls;
  std::vector<std::string> files;  // per rank
  // Sizes: the k-th send of a channel meets its k-th receive; a send larger than its receive is an
  // MPI truncation error. Only messages not yet met are held (up to kMaxPending).
  struct Pending {
    double bytes;
    uint32_t line;
    int rank;
  };
  constexpr size_t kMaxPending = size_t{1} << 24;
  std::map<Key, std::deque<Pending>> unmet_sends, unmet_recvs;
  size_t pending_count = 0;
  bool sizes_checked = true;
  std::vector<std::string> file_of;  // per rank
  std::set<std::pair<int, int>> any_tag_pairs;  // (source, destination) with MPI_ANY_TAG receives
  const int ranks = visit_ti_trace(path, legacy, [&](int r, const Action& a, const RankTrace& rank, int) {
    if (file_of.size() <= static_cast<size_t>(r)) file_of.resize(r + 1);
    if (file_of[r].empty()) file_of[r] = rank.file;
    channels_of(r, a, [&](const Key& key, int side) {
      ++(side > 0 ? channels[key].sends : channels[key].recvs);
      const auto& [src, dst, tag] = key;
      if (tag == kAnyTag && any_tag_pairs.insert({src, dst}).second)  // sizes pair up by order no more
        for (auto* queues : {&unmet_sends, &unmet_recvs})
          for (auto it = queues->lower_bound(Key{src, dst, kAnyTag}); it != queues->end() && std::get<0>(it->first) == src &&
                                                                      std::get<1>(it->first) == dst;)
            pending_count -= it->second.size(), it = queues->erase(it);
      if (!sizes_checked || a.type == ActionType::SendRecv || any_tag_pairs.count({src, dst})) return;
      auto& others = side > 0 ? unmet_recvs[key] : unmet_sends[key];
      const Pending mine{a.bytes, a.line, r};
      if (others.empty()) {
        (side > 0 ? unmet_sends[key] : unmet_recvs[key]).push_back(mine);
        if (++pending_count > kMaxPending) {
          sizes_checked = false;
          unmet_sends.clear();
          unmet_recvs.clear();
          report(path + ": more than " + std::to_string(kMaxPending) + " messages outstanding: message sizes are not checked further");
        }
        return;
      }
      const Pending other = others.front();
      others.pop_front();
      --pending_count;
      const Pending& send = side > 0 ? mine : other;
      const Pending& recv = side > 0 ? other : mine;
      if (send.bytes > recv.bytes) {
        report(file_of[send.rank] + ":" + std::to_string(send.line) + ": rank " + std::to_string(src) + " sends " +
               format_number(send.bytes) + " bytes to rank " + std::to_string(dst) + " tag " + std::to_string(tag) +
               ", but the receive that matches it (" + file_of[recv.rank] + ":" + std::to_string(recv.line) + ") takes " +
               format_number(recv.bytes) + " (MPI would truncate)");
      }
    });
    if (a.type == ActionType::Isend) ++open[{r, Key{r, a.peer, a.tag}}];
    if (a.type == ActionType::Irecv) ++open[{r, Key{a.peer, r, a.tag}}];
    if (a.type == ActionType::Wait || a.type == ActionType::Test) {
      // A test may or may not complete its request: it leaves it to a later wait, and a wait after
      // a test that completed it returns at once (as replays do), so only a wait closes a request.
      long& pending = open[{r, Key{a.peer, a.root, a.tag}}];
      if (pending == 0)
        report(where(rank, a) + "rank " + std::to_string(r) + (a.type == ActionType::Wait ? " waits for (" : " tests (") +
               std::to_string(a.peer) + ", " + std::to_string(a.root) + ", tag " + std::to_string(a.tag) +
               ") but has no such isend or irecv pending");
      else if (a.type == ActionType::Wait)
        --pending;
    }
    if (is_collective(a.type)) {
      if (calls.size() <= static_cast<size_t>(r)) calls.resize(r + 1), files.resize(r + 1);
      calls[r].push_back({a.type, a.root, a.line});
      files[r] = rank.file;
    }
  });
  calls.resize(ranks);
  files.resize(ranks);
  // MPI_ANY_TAG receives take the sends of their pair that no tagged receive took, lowest tags first.
  for (auto& [key, wild] : channels) {
    const auto& [src, dst, tag] = key;
    if (tag != kAnyTag) continue;
    for (auto it = channels.upper_bound(key); it != channels.end() && std::get<0>(it->first) == src &&
                                              std::get<1>(it->first) == dst && wild.recvs > 0;
         ++it) {
      const long taken = std::min(wild.recvs, std::max(0L, it->second.sends - it->second.recvs));
      it->second.recvs += taken;
      wild.recvs -= taken;
    }
  }
  // Second pass, only when needed: where the first unmatched send or receive of a channel is.
  std::map<std::pair<Key, int>, long> unmatched;  // (channel, side) -> index of the first unmatched
  for (const auto& [key, c] : channels) {
    if (c.sends > c.recvs) unmatched[{key, +1}] = c.recvs;
    if (c.recvs > c.sends) unmatched[{key, -1}] = c.sends;
  }
  if (!unmatched.empty()) {
    std::map<std::pair<Key, int>, long> seen;
    visit_ti_trace(path, legacy, [&](int r, const Action& a, const RankTrace& rank, int) {
      channels_of(r, a, [&](const Key& key, int side) {
        auto it = unmatched.find({key, side});
        if (it == unmatched.end() || seen[{key, side}]++ != it->second) return;
        const auto& [src, dst, tag] = key;
        const Count& c = channels[key];
        report(where(rank, a) +
               (side > 0 ? std::to_string(c.sends - c.recvs) + " send(s) from rank " + std::to_string(src) + " to rank " +
                               std::to_string(dst) + " tag " + std::to_string(tag) + " have no matching receive"
                         : std::to_string(c.recvs - c.sends) + " receive(s) at rank " + std::to_string(dst) +
                               " from rank " + std::to_string(src) + " tag " + std::to_string(tag) +
                               " have no matching send") +
               " (the first is here)");
      });
    });
  }
  // Collectives: every rank calls the same ones in the same order (and with the same roots).
  for (size_t r = 1; r < calls.size(); ++r) {
    const std::vector<Call>& mine = calls[r];
    const std::vector<Call>& first = calls[0];
    const size_t common = std::min(mine.size(), first.size());
    size_t k = 0;
    while (k < common && mine[k].type == first[k].type && mine[k].root == first[k].root) ++k;
    auto at = [&](size_t rank, const Call& c) { return files[rank] + ":" + std::to_string(c.line) + ": "; };
    if (k < common)
      report(at(r, mine[k]) + "rank " + std::to_string(r) + "'s collective #" + std::to_string(k + 1) + " is " +
             action_name(mine[k].type) + " (root " + std::to_string(mine[k].root) + ") but rank 0's is " +
             action_name(first[k].type) + " (root " + std::to_string(first[k].root) + ")");
    else if (mine.size() != first.size())
      report((mine.size() > common ? at(r, mine[common]) : at(0, first[common])) + "rank " + std::to_string(r) + " calls " +
             std::to_string(mine.size()) + " collectives, rank 0 " + std::to_string(first.size()));
  }
  return problems;
}

}  // namespace mapsim
