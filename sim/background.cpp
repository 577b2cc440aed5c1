#include "sim/background.h"

#include <cmath>
#include <string>

#include "support/error.h"
#include "support/units.h"

namespace mapsim {

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
  out.trace.ranks.resize(ranks);
  std::vector<std::vector<Action>> receives(ranks), sends(ranks);
  Rng rng(seed);
  for (int r = 0; r < ranks; ++r) {  // each sender's messages in time order: sleep until the next, isend
    const int src = out.placement[r];
    const double rate = traffic.load * network.node(src).bandwidth / bytes;
    double now = 0, sent = 0;  // the time of the next message, and of the last one sent
    while (true) {
      now += -std::log1p(-rng.uniform()) / rate;
      if (now > duration) break;
      const int dst = pattern(src, rng);
      if (dst < 0 || dst == src || taken[dst]) continue;
      if (++out.messages > kMaxBackgroundMessages)
        throw Error("background: more than " + std::to_string(kMaxBackgroundMessages) + " messages in " +
                    format_time(duration) + ": give a shorter duration, a lower load or larger messages");
      Action sleep{ActionType::Sleep};
      sleep.flops = now - sent;  // a sleep's seconds
      sent = now;
      sends[r].push_back(sleep);
      Action send{ActionType::Isend};
      send.peer = rank_of[dst], send.bytes = bytes;
      sends[r].push_back(send);
      Action receive{ActionType::Irecv};
      receive.peer = r, receive.bytes = bytes;
      receives[rank_of[dst]].push_back(receive);
    }
  }
  for (int r = 0; r < ranks; ++r) {  // receives first (matched in send order per source), sends, then wait for all
    std::vector<Action>& actions = out.trace.ranks[r].actions;
    out.trace.ranks[r].file = "background";
    actions = std::move(receives[r]);
    actions.insert(actions.end(), sends[r].begin(), sends[r].end());
    actions.push_back(Action{ActionType::Waitall});
  }
  return out;
}

}  // namespace mapsim
