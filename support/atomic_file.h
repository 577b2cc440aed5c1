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

// What write_file_atomically would refuse before writing (an empty name, an input, a directory, a
// symlink loop, a missing folder, a name too long), checked before a long computation whose result
// goes there. Creates and removes the temporary file; a device or pipe is not touched.
void check_output_file(const std::string& path);

}  // namespace mapsim
