// Input files as users name them: a missing file, a directory or a device or pipe (/dev/zero would
// never end) is an Error naming the path and what was expected, before anything is read.
// Every input read is remembered, so that no output of the same command can overwrite one: an output
// path that resolves (through links, `..`, hard links) to an input is refused.
#pragma once
#include <fstream>
#include <string>

namespace mapsim {

// `what` names the expected content in messages ("trace file", "placement file"). A UTF-8 byte-order
// mark at the start is skipped.
std::ifstream open_input(const std::string& path, const std::string& what = "file",
                         std::ios::openmode mode = std::ios::in);
// Remembers an input read by other means (a library opening it: OTF2). Does nothing if it is missing.
void note_input(const std::string& path, const std::string& what);
// std::getline for one line of at most `max_bytes` (a trailing '\r' dropped); false at the end. A longer
// line is refused as it is read: "PATH:LINE: line longer than N bytes; expected EXPECTED".
bool read_bounded_line(std::istream& in, std::string& text, size_t max_bytes, const std::string& path, int line,
                       const std::string& expected);
// Throws "OUTPUT: is the WHAT INPUT this command reads; choose another output" when `output` is an input.
void refuse_input_as_output(const std::string& output);

}  // namespace mapsim
