// Runs a Debian tool (Graphviz's dot, gnuplot) on text given on its standard input, writing its
// picture to `output` atomically. A missing tool or a failed run is an Error naming the package.
// The picture is what the tool writes to its standard output (gnuplot: `set output` with no name;
// dot: no -o), so no path ever becomes script text: a quote in a file name cannot run a command.
#pragma once
#include <string>
#include <vector>

namespace mapsim {

void run_tool(const std::string& program, const std::string& package, const std::vector<std::string>& args,
              const std::string& input, const std::string& output);
// The same, returning what the tool wrote (through a temporary file next to `scratch`).
std::string tool_output(const std::string& program, const std::string& package, const std::vector<std::string>& args,
                        const std::string& input, const std::string& scratch);

// The --draw FILE pictures (run, simulate): the extension, ".svg", ".png", ".pdf" or ".dot"; an Error
// naming `flag` otherwise.
std::string picture_format(const std::string& flag, const std::string& path);
// Writes a Graphviz text to `path`: as is for .dot, else drawn by dot in the extension's format.
void write_picture(const std::string& path, const std::string& dot);

}  // namespace mapsim
