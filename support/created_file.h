// Output files of the MPI libraries (libmapsim-trace.so, libmapsim-reorder.so), whose names come from
// the environment of a program they are preloaded into. The CLI's rules -- never an input
// (refuse_input_as_output, support/input_file.h), a finished file moved into place from PATH.partial
// (as write_file_atomically) -- made strict, since nobody checked the name and the program must never
// block or stop: a symbolic link is never written through, a FIFO or device is never opened, and
// nothing throws: a refusal comes back as one line "PATH: why", for one warning.
#pragma once
#include <string>

namespace mapsim {

// Creates PATH.partial new (O_EXCL | O_NOFOLLOW; a leftover file or link of that name removed first)
// for a file that finish_partial_file() moves to PATH. Refused when PATH is an input, a directory, a
// FIFO or a device. The descriptor, or -1 with `why`.
int create_partial_file(const std::string& path, std::string& why);

// Renames PATH.partial to PATH: a symbolic link at PATH is replaced, its target left as it is. Refused
// (PATH.partial removed) when PATH is an input, a directory, a FIFO or a device. False with `why`.
bool finish_partial_file(const std::string& path, std::string& why);

// Opens PATH for appending (O_APPEND | O_NOFOLLOW | O_NONBLOCK), creating it when missing. Refused
// when PATH is a symbolic link, an input, or not a regular file. The descriptor, or -1 with `why`.
int open_appended_file(const std::string& path, std::string& why);

// Writes all of `text` to `fd`; false with `why` (naming `path`).
bool write_all(int fd, const std::string& text, const std::string& path, std::string& why);

}  // namespace mapsim
