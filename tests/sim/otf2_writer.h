// Test helper: writes small OTF2 archives with the OTF2 writer API, as Score-P records MPI programs
// (one process and one CPU thread per rank, MPI_COMM_WORLD as comm 0, regions MPI_* of the MPI
// paradigm; `ticks_per_second` the clock; `event_chunk` the bytes of each event chunk, at least 256 KiB).
#pragma once
#include <otf2/otf2.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

class Otf2Writer {
 public:
  Otf2Writer(const std::string& directory, int ranks, uint64_t ticks_per_second = 1000000, uint64_t event_chunk = 1 << 20)
      : ranks_(ranks), ticks_per_second_(ticks_per_second) {
    std::filesystem::remove_all(directory);
    archive_ = OTF2_Archive_Open(directory.c_str(), "traces", OTF2_FILEMODE_WRITE, event_chunk, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                 OTF2_COMPRESSION_NONE);
    static OTF2_FlushCallbacks flush{[](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; },
                                     [](void*, OTF2_FileType, OTF2_LocationRef) -> OTF2_TimeStamp { return 0; }};
    OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    for (int r = 0; r < ranks; ++r) writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, static_cast<OTF2_LocationRef>(r)));
    anchor_ = directory + "/traces.otf2";
  }

  // Communicator `comm` (0 is MPI_COMM_WORLD, defined by the constructor) of these world ranks.
  void communicator(uint32_t comm, const std::vector<uint64_t>& members) { comms_[comm] = members; }

  // An MPI call: enters region `name` at `time` (ticks), records the events `body` writes, leaves at `end`.
  template <typename F>
  void call(int rank, const std::string& name, uint64_t time, uint64_t end, F body) {
    OTF2_EvtWriter_Enter(writers_[rank], nullptr, time, region(name));
    body(writers_[rank], time);
    OTF2_EvtWriter_Leave(writers_[rank], nullptr, end, region(name));
    last_ = std::max(last_, end);
  }
  void call(int rank, const std::string& name, uint64_t time, uint64_t end) {
    call(rank, name, time, end, [](OTF2_EvtWriter*, uint64_t) {});
  }
  // Enters region `name` and never leaves it (a trace cut off inside an MPI call).
  void enter(int rank, const std::string& name, uint64_t time) {
    OTF2_EvtWriter_Enter(writers_[rank], nullptr, time, region(name));
    last_ = std::max(last_, time);
  }
  void collective(int rank, const std::string& name, uint64_t time, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                  uint64_t sent, uint64_t received) {
    call(rank, name, time, time + 1, [&](OTF2_EvtWriter* w, uint64_t t) {
      OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
      OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t + 1, op, comm, root, sent, received);
    });
  }

  // Writes the definitions and closes the archive; returns the anchor file's path.
  std::string close() {
    for (OTF2_EvtWriter* w : writers_) OTF2_Archive_CloseEvtWriter(archive_, w);
    OTF2_Archive_CloseEvtFiles(archive_);
    OTF2_Archive_OpenDefFiles(archive_);
    for (int r = 0; r < ranks_; ++r)
      OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, static_cast<OTF2_LocationRef>(r)));
    OTF2_Archive_CloseDefFiles(archive_);
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
    OTF2_GlobalDefWriter_WriteClockProperties(g, ticks_per_second_, 0, last_ + 1, 0);
    uint32_t next = 0;
    auto text = [&](const std::string& s) {
      OTF2_GlobalDefWriter_WriteString(g, next, s.c_str());
      return next++;
    };
    const uint32_t empty = text("");
    for (const auto& [name, id] : regions_)
      OTF2_GlobalDefWriter_WriteRegion(g, id, text(name), text(name), empty, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                       OTF2_REGION_FLAG_NONE, empty, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, text("machine"), text("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    std::vector<uint64_t> locations;
    for (int r = 0; r < ranks_; ++r) {
      OTF2_GlobalDefWriter_WriteLocationGroup(g, r, text("rank " + std::to_string(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(g, r, text("thread 0"), OTF2_LOCATION_TYPE_CPU_THREAD, 0, r);
      locations.push_back(static_cast<uint64_t>(r));
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    ranks_, locations.data());
    comms_.emplace(0, locations);
    for (const auto& [comm, members] : comms_) {
      OTF2_GlobalDefWriter_WriteGroup(g, comm + 1, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                      static_cast<uint32_t>(members.size()), members.data());
      OTF2_GlobalDefWriter_WriteComm(g, comm, text("comm " + std::to_string(comm)), comm + 1, OTF2_UNDEFINED_COMM,
                                     OTF2_COMM_FLAG_NONE);
    }
    OTF2_Archive_CloseGlobalDefWriter(archive_, g);
    OTF2_Archive_Close(archive_);
    return anchor_;
  }

 private:
  OTF2_RegionRef region(const std::string& name) {
    auto it = regions_.find(name);
    if (it == regions_.end()) it = regions_.emplace(name, static_cast<OTF2_RegionRef>(regions_.size())).first;
    return it->second;
  }

  int ranks_;
  uint64_t ticks_per_second_;
  OTF2_Archive* archive_;
  std::vector<OTF2_EvtWriter*> writers_;
  std::map<std::string, OTF2_RegionRef> regions_;
  std::map<uint32_t, std::vector<uint64_t>> comms_;
  uint64_t last_ = 0;
  std::string anchor_;
};
