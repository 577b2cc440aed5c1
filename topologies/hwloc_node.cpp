#include "topologies/hwloc_node.h"

#include <fcntl.h>
#include <hwloc.h>
#include <unistd.h>

#include <cstdio>

#include <map>
#include <memory>

#include "support/error.h"
#include "support/input_file.h"
#include "support/message.h"

namespace mapsim {
namespace {

struct HwlocLevel {
  const char* name;
  hwloc_obj_type_t type;
};
const std::vector<HwlocLevel>& hwloc_levels() {
  static const std::vector<HwlocLevel> levels{{"machine", HWLOC_OBJ_MACHINE},
                                              {"package", HWLOC_OBJ_PACKAGE},
                                              {"socket", HWLOC_OBJ_PACKAGE},
                                              {"numa", HWLOC_OBJ_NUMANODE},
                                              {"die", HWLOC_OBJ_DIE},
                                              {"group", HWLOC_OBJ_GROUP},
                                              {"l3", HWLOC_OBJ_L3CACHE},
                                              {"l2", HWLOC_OBJ_L2CACHE},
                                              {"l1", HWLOC_OBJ_L1CACHE},
                                              {"core", HWLOC_OBJ_CORE},
                                              {"pu", HWLOC_OBJ_PU}};
  return levels;
}

std::string list_text(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return text;
}

hwloc_obj_type_t type_of(const std::string& path, const std::string& name) {
  for (const HwlocLevel& l : hwloc_levels())
    if (name == l.name) return l.type;
  const std::string near = nearest_word(name, hwloc_level_names());
  throw Error(path + ": unknown hwloc level '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
              "; expected one of " + list_text(hwloc_level_names()));
}

using Topology = std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)>;

// libhwloc (and libxml2 under it) print their own lines ("...: XML component discovery failed",
// "aborting!") on stderr when a file does not load; mapsim's one error line says it. Stderr goes to
// /dev/null while this lives.
class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && null >= 0) dup2(null, STDERR_FILENO);
    if (null >= 0) close(null);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ < 0) return;
    dup2(saved_, STDERR_FILENO);
    close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

// The object of `type` holding `slot`: its ancestor of that type, or for a NUMA domain (a memory child in
// hwloc 2, not an ancestor) the first domain whose CPUs include the slot's.
hwloc_obj_t holder(hwloc_topology_t topology, hwloc_obj_type_t type, hwloc_obj_t slot) {
  if (slot->type == type) return slot;
  if (type != HWLOC_OBJ_NUMANODE) return hwloc_get_ancestor_obj_by_type(topology, type, slot);
  for (hwloc_obj_t numa = hwloc_get_next_obj_by_type(topology, type, nullptr); numa;
       numa = hwloc_get_next_obj_by_type(topology, type, numa))
    if (numa->cpuset && hwloc_bitmap_isincluded(slot->cpuset, numa->cpuset)) return numa;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& hwloc_level_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const HwlocLevel& l : hwloc_levels()) list.push_back(l.name);
    return list;
  }();
  return names;
}

NodeHierarchy import_hwloc(const std::string& path, std::vector<NodeLevel> levels) {
  open_input(path, "hwloc XML file");  // a clear error for a missing file, a directory or a device
  if (levels.size() < 2) throw Error(path + ": node insides need at least two levels (machine and core or pu)");
  std::vector<hwloc_obj_type_t> types;
  for (const NodeLevel& level : levels) types.push_back(type_of(path, level.name));
  if (types.front() != HWLOC_OBJ_MACHINE)
    throw Error(path + ": the first level must be machine (the node), got '" + levels.front().name + "'");
  if (types.back() != HWLOC_OBJ_CORE && types.back() != HWLOC_OBJ_PU)
    throw Error(path + ": the last level names the slots and must be core or pu, got '" + levels.back().name + "'");

  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) throw InternalError("hwloc_topology_init failed");
  Topology topology(raw, hwloc_topology_destroy);
  bool loaded = false;
  {
    const QuietStderr quiet;
    loaded = hwloc_topology_set_xml(raw, path.c_str()) == 0 && hwloc_topology_load(raw) == 0;
  }
  if (!loaded) throw Error(path + ": not an hwloc XML topology (expected the output of lstopo --of xml)");

  const int slots = hwloc_get_nbobjs_by_type(raw, types.back());
  if (slots < 1) throw Error(path + ": no " + levels.back().name + " objects");
  if (slots > (1 << 16)) throw Error(path + ": over 65536 " + levels.back().name + " objects");
  NodeHierarchy h;
  h.levels = std::move(levels);
  h.hwloc = path;
  h.object.assign(h.levels.size(), std::vector<int>(slots));
  for (int s = 0; s < slots; ++s) {
    const hwloc_obj_t slot = hwloc_get_obj_by_type(raw, types.back(), static_cast<unsigned>(s));
    for (size_t l = 0; l < types.size(); ++l) {
      const hwloc_obj_t object = holder(raw, types[l], slot);
      if (!object)
        throw Error(path + ": " + h.levels.back().name + " " + std::to_string(s) + " has no " + h.levels[l].name +
                    " above it; leave that level out");
      h.object[l][s] = static_cast<int>(object->logical_index);
    }
  }
  for (size_t l = 1; l < h.levels.size(); ++l) {  // shared_level() needs each level inside the one before
    std::map<int, int> parent;
    for (int s = 0; s < slots; ++s)
      if (!parent.emplace(h.object[l][s], h.object[l - 1][s]).second && parent[h.object[l][s]] != h.object[l - 1][s])
        throw Error(path + ": a " + h.levels[l].name + " spans several " + h.levels[l - 1].name + " objects; list " +
                    h.levels[l].name + " before " + h.levels[l - 1].name + " or leave one out");
  }
  return h;
}

}  // namespace mapsim
