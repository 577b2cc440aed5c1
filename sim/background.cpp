#include "sim/background.h"

#include <cmath>
#include <string>

#include "support/error.h"
#include "support/interrupt.h"
#include "support/units.h"

namespace mapsim {
namespace {

// The draws of one background, in a fixed order (each sender's in time order, with one generator), so
// that a counting pass and the building pass draw the same messages.
struct Draws {
  long sent = 0, skipped = 0;  // destinations drawn that were another free node / the sender or a job's node
};

// "COUNT in DURATION: what to change", COUNT saying which limit was passed.
std::string over_limit(const std::string& count, double duration) {
  return count + " in " + format_time(duration) + ": give a shorter duration, a lower load or larger messages";
}
std::string more_than(long limit, const std::string& what) { return "more than " + std::to_string(limit) + " " + what; }

// Draws every free node's messages (Poisson times at `rate(rank)`, destinations from `pattern`) and
// hands each one that is sent to visit(rank, time, destination rank). Refuses more than
// kMaxBackgroundMessages sent or kMaxBackgroundDraws drawn before drawing on; polls the interrupt.
template <class Visit>
Draws draw(const Placement& senders, const std::vector<int>& rank_of, const std::vector<char>& taken,
           const TrafficPattern& pattern, const std::vector<double>& rate, double duration, uint64_t seed, Visit visit) {
  Draws d;
  Rng rng(seed);
  for (size_t r = 0; r < senders.size(); ++r) {
    const int src = senders[r];
    double now = 0;
    while (true) {
      now += -std::log1p(-rng.uniform()) / rate[r];
      if (now > duration) break;
      if ((d.sent + d.skipped) % 4096 == 0) stop_if_interrupted();
      const int dst = pattern(src, rng);
      const bool skipped = dst < 0 || dst == src || taken[dst];
      ++(skipped ? d.skipped : d.sent);
      if (d.sent > kMaxBackgroundMessages) throw Error(over_limit(more_than(kMaxBackgroundMessages, "messages"), duration));
      if (d.sent + d.skipped > kMaxBackgroundDraws)
        throw Error(over_limit(more_than(kMaxBackgroundDraws, "destinations drawn"), duration));
      if (!skipped) visit(static_cast<int>(r), now, rank_of[dst]);
    }
  }
  return d;
}

}  // namespace

BackgroundTraffic background_traffic(const Network& network, const std::vector<char>& taken, const TrafficOptions& traffic,
                                     double duration, double mtu, uint64_t seed) {
  check_traffic_load(traffic.load);
  const TrafficPattern pattern = make_traffic_pattern(network, traffic.pattern);
  const double bytes = traffic.message.value_or(mtu);
  BackgroundTraffic out;
  std::vector<int> rank_of(network.num_nodes(), -1);
  for (int n = 0; n < network.num_nodes(); ++n)
    if (!taken[n]) {
      rank_of[n] = static_cast<int>(out.placement.size());
      out.placement.push_back(n);
    }
  const int ranks = static_cast<int>(out.placement.size());
  // The draws expected (a Poisson count per sender), refused before any is drawn: a long duration
  // next to a late job, or tiny messages, would otherwise draw for minutes.
  std::vector<double> rate(ranks);
  double expected = 0;
  for (int r = 0; r < ranks; ++r) {
    rate[r] = traffic.load * network.node(out.placement[r]).bandwidth / bytes;
    expected += rate[r] * duration;
  }
  if (expected > static_cast<double>(kMaxBackgroundDraws))
    throw Error(over_limit("about " + format_number(expected, 3) + " messages, above the limit of " +
                           std::to_string(kMaxBackgroundDraws) + " destinations drawn,", duration));
  // A counting pass first (messages per sender and receiver), so that the limits refuse before the
  // actions take any memory.
  std::vector<long> sent(ranks, 0), received(ranks, 0);
  const Draws counted =
      draw(out.placement, rank_of, taken, pattern, rate, duration, seed, [&](int r, double, int dst) { ++sent[r], ++received[dst]; });
  if (counted.sent == 0 && counted.skipped > 0)
    throw Error(traffic.pattern + " sends nothing: each of the " + std::to_string(counted.skipped) +
                " destinations drawn was its sender or a job's node; expected a pattern that reaches other free nodes");
  out.messages = counted.sent;
  out.trace.ranks.resize(ranks);
  std::vector<std::vector<Action>> sends(ranks);
  std::vector<double> last(ranks, 0);  // the time of each sender's last message
  for (int r = 0; r < ranks; ++r) {
    out.trace.ranks[r].actions.reserve(received[r] + 2 * sent[r] + 1);
    sends[r].reserve(2 * sent[r]);
  }
  // Each sender's messages in time order (sleep until the next, isend); each receiver's receives first
  // (matched in send order per source), then its sends, then a wait for all.
  draw(out.placement, rank_of, taken, pattern, rate, duration, seed, [&](int r, double now, int dst) {
    Action sleep{ActionType::Sleep};
    sleep.flops = now - last[r];  // a sleep's seconds
    last[r] = now;
    sends[r].push_back(sleep);
    Action send{ActionType::Isend};
    send.peer = dst, send.bytes = bytes;
    sends[r].push_back(send);
    Action receive{ActionType::Irecv};
    receive.peer = r, receive.bytes = bytes;
    out.trace.ranks[dst].actions.push_back(receive);
  });
  for (int r = 0; r < ranks; ++r) {
    std::vector<Action>& actions = out.trace.ranks[r].actions;
    out.trace.ranks[r].file = "background";
    actions.insert(actions.end(), sends[r].begin(), sends[r].end());
    std::vector<Action>().swap(sends[r]);
    actions.push_back(Action{ActionType::Waitall});
  }
  return out;
}

}  // namespace mapsim
