// Text that reaches a terminal or a log from input: printable, one line, bounded.
// Errors quote what they read ("got 'xyz'"); a hostile file can put binary bytes, newlines or a
// 10 MB token there. printable() is applied where messages leave the program (stderr, failed.csv),
// so every producer may quote freely.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mapsim {

// Control characters, DEL and bytes that are not UTF-8 become \n, \t, \xNN; a run of more than
// kMaxShownToken non-blank bytes keeps its head and tail around "[... N bytes ...]"; a message longer
// than kMaxShownMessage keeps its head and tail likewise.
std::string printable(std::string_view text);
// True when `text` is valid UTF-8 without control characters other than tab and newline.
bool clean_text(std::string_view text);
// True when `name` can stand as one word in a launch file (rankfile, hostlist, machinefile): non-empty,
// printable ASCII, no whitespace. Node and switch names are held to it where they are read.
bool plain_name(std::string_view name);
// Input text quoted in a message: 'text' when short, else its first kMaxExcerpt bytes as
// 'head...' (40 of N bytes shown), so that an error about a file the user mistook for another
// kind (/etc/shadow as a trace) shows little of it. printable() escapes it on the way out.
std::string excerpt(std::string_view text);

// The file system's answer as one line, path first: "filesystem error: cannot create directories: Not a
// directory [out]" -> "out: cannot create directories: Not a directory".
std::string filesystem_message(const std::filesystem::filesystem_error& e);

// The candidate closest to `word` by edit distance (empty if none is reasonably close): "did you mean".
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

constexpr size_t kMaxShownToken = 160;
constexpr size_t kMaxShownMessage = 2000;
constexpr size_t kMaxExcerpt = 40;

}  // namespace mapsim
