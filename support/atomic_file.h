// Write a file atomically (temp file + rename) so that an interrupted or failed run never leaves a
// partial file that looks complete. A symlink is written through (its target is replaced, the link
// kept); a device or pipe (/dev/null, /dev/stdout) is written directly, never replaced; a directory
// is an error, and so is a path that resolves to an input file the command has read.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace mapsim {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace mapsim
