// Runs a Debian tool (Graphviz's dot, gnuplot) on text given on its standard input, writing its
// picture to `output` atomically. A missing tool or a failed run is an Error naming the package.
#pragma once
#include <string>
#include <vector>

namespace mapsim {

// `args` follow the program name; "{out}" in them and in `input` becomes the temporary output path.
void run_tool(const std::string& program, const std::string& package, std::vector<std::string> args,
              std::string input, const std::string& output);
// The same, returning what the tool wrote to "{out}" (through a temporary file next to `scratch`).
std::string tool_output(const std::string& program, const std::string& package, std::vector<std::string> args,
                        std::string input, const std::string& scratch);

}  // namespace mapsim
