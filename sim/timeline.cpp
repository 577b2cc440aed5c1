#include "sim/timeline.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "support/units.h"

namespace mapsim {
namespace {

// Paje's generic header: the event kinds used below, with their fields.
const char* const kPajeHeader = R"(%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 2
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineLinkType 3
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeCreateContainer 4
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 5
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetState 6
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajeStartLink 7
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 8
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
)";

std::string date(double t) {
  char text[40];
  std::snprintf(text, sizeof text, "%.12f", t);
  return text;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? '\'' : c;
  return out + "\"";
}

// Compute green, point-to-point waits red, collectives blue, the time between them grey.
const char* colour(const std::string& state) {
  switch (state_kind(state)) {
    case StateKind::Compute: return "0.2 0.7 0.2";
    case StateKind::PointToPointWait: return "0.85 0.3 0.3";
    case StateKind::CollectiveWait: return "0.3 0.4 0.85";
    case StateKind::Other: break;
  }
  return "0.8 0.8 0.8";
}

struct Event {
  double time;
  int order;  // at one time: a state's end before the next one's start, link ends after starts
  std::string line;
};

}  // namespace

StateKind state_kind(const std::string& state) {
  static const std::set<std::string> point_to_point = {"send", "recv", "wait", "waitall", "test", "sendrecv", "isend", "irecv"};
  if (state == "compute") return StateKind::Compute;
  if (state == "run") return StateKind::Other;
  return point_to_point.count(state) ? StateKind::PointToPointWait : StateKind::CollectiveWait;
}

void write_paje(const SimResult& result, const std::vector<std::string>& rank_labels, std::ostream& out) {
  out << kPajeHeader;
  out << "0 CT_Rank 0 \"rank\"\n1 ST_Mpi CT_Rank \"MPI state\"\n3 LT_Message 0 CT_Rank CT_Rank \"message\"\n"
      << "2 V_message LT_Message \"message\" \"1 1 1\"\n";
  std::set<std::string> states = {"run"};
  for (const RankInterval& i : result.timeline) states.insert(i.state);
  for (const std::string& state : states)
    out << "2 V_" << state << " ST_Mpi " << quoted(state) << " " << quoted(colour(state)) << "\n";
  const int ranks = static_cast<int>(rank_labels.size());
  for (int r = 0; r < ranks; ++r)
    out << "4 " << date(0) << " R" << r << " CT_Rank 0 " << quoted(rank_labels[r]) << "\n"
        << "6 " << date(0) << " ST_Mpi R" << r << " V_run\n";

  std::vector<Event> events;
  for (const RankInterval& i : result.timeline) {
    const std::string rank = " ST_Mpi R" + std::to_string(i.rank) + " V_";
    events.push_back({i.start, 1, "6 " + date(i.start) + rank + i.state});
    events.push_back({i.end, 0, "6 " + date(i.end) + rank + "run"});
  }
  for (size_t m = 0; m < result.message_log.size(); ++m) {
    const MessageRecord& msg = result.message_log[m];
    const std::string key = " m" + std::to_string(m);
    events.push_back({msg.posted, 2, "7 " + date(msg.posted) + " LT_Message 0 V_message R" + std::to_string(msg.src) + key});
    events.push_back({msg.delivered, 3, "8 " + date(msg.delivered) + " LT_Message 0 V_message R" + std::to_string(msg.dst) + key});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.time < b.time || (a.time == b.time && a.order < b.order); });
  for (const Event& e : events) out << e.line << "\n";
  const double end = std::max(result.makespan, events.empty() ? 0.0 : events.back().time);
  for (int r = 0; r < ranks; ++r) out << "5 " << date(end) << " CT_Rank R" << r << "\n";
}

const char* const kTimelineCsvColumns = "rank,state,start,end";

void write_timeline_rows(const SimResult& result, const std::string& prefix, std::ostream& out) {
  std::vector<RankInterval> sorted = result.timeline;
  std::stable_sort(sorted.begin(), sorted.end(), [](const RankInterval& a, const RankInterval& b) {
    return a.rank < b.rank || (a.rank == b.rank && a.start < b.start);
  });
  for (const RankInterval& i : sorted)
    out << prefix << i.rank << "," << i.state << "," << format_exact(i.start) << "," << format_exact(i.end) << "\n";
}

}  // namespace mapsim
