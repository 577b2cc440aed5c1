// Input files as users name them: a missing file, a directory or a device or pipe (/dev/zero would
// never end) is an Error naming the path and what was expected, before anything is read.
#pragma once
#include <fstream>
#include <string>

namespace mapsim {

// `what` names the expected content in messages ("trace file", "placement file").
std::ifstream open_input(const std::string& path, const std::string& what = "file",
                         std::ios::openmode mode = std::ios::in);

}  // namespace mapsim
