#include "support/message.h"

#include <algorithm>
#include <cstdio>

namespace mapsim {
namespace {

// Length of the UTF-8 sequence at `text[i]` (2..4), or 0 when it is not a valid one (ASCII excluded).
size_t utf8_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead <= 0xDF ? 2 : 0;
  if (lead >= 0xF5 || i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  if (length == 3 && ((lead == 0xE0 && byte(i + 1) < 0xA0) || (lead == 0xED && byte(i + 1) >= 0xA0))) return 0;
  if (length == 4 && ((lead == 0xF0 && byte(i + 1) < 0x90) || (lead == 0xF4 && byte(i + 1) >= 0x90))) return 0;
  return length;
}

// Escapes bytes; keeps valid UTF-8 sequences whole.
std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
    } else if (const size_t length = c >= 0x80 ? utf8_length(text, i) : 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      char code[8];
      std::snprintf(code, sizeof code, c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : "\\x%02X", c);
      out += code;
      ++i;
    }
  }
  return out;
}

std::string elided(std::string_view text, size_t head, size_t tail) {
  return std::string(text.substr(0, head)) + "[... " + std::to_string(text.size() - head - tail) + " bytes ...]" +
         std::string(text.substr(text.size() - tail));
}

bool blank(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

}  // namespace

std::string printable(std::string_view text) {
  std::string shortened;
  for (size_t i = 0; i < text.size();) {
    size_t end = i;
    while (end < text.size() && blank(text[end]) == blank(text[i])) ++end;
    const std::string_view run = text.substr(i, end - i);
    // Cut on bytes before escaping: the cut can split a UTF-8 sequence, which then shows as \xNN.
    shortened += !blank(text[i]) && run.size() > kMaxShownToken ? elided(run, kMaxShownToken / 2, kMaxShownToken / 4)
                                                                  : std::string(run);
    i = end;
  }
  if (shortened.size() > kMaxShownMessage) shortened = elided(shortened, kMaxShownMessage / 2, kMaxShownMessage / 4);
  return escaped(shortened);
}

bool clean_text(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = utf8_length(text, i);
      if (length == 0) return false;
      i += length;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) return false;
    ++i;
  }
  return true;
}

bool plain_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (c <= 0x20 || c >= 0x7F) return false;  // char may be signed: bytes >= 0x80 are negative here
  return true;
}

std::string excerpt(std::string_view text) {
  if (text.size() <= kMaxExcerpt) return "'" + std::string(text) + "'";
  size_t cut = kMaxExcerpt;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
  return "'" + std::string(text.substr(0, cut)) + "...' (" + std::to_string(cut) + " of " + std::to_string(text.size()) +
         " bytes shown)";
}

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 2) + 1;
  for (const std::string& candidate : candidates) {
    std::vector<size_t> row(candidate.size() + 1);
    for (size_t j = 0; j <= candidate.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= word.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= candidate.size(); ++j) {
        size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (word[i - 1] == candidate[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    if (row.back() < best_distance) {
      best_distance = row.back();
      best = candidate;
    }
  }
  return best;
}

std::string filesystem_message(const std::filesystem::filesystem_error& e) {
  std::string text = e.what();
  const std::string prefix = "filesystem error: ";
  if (text.rfind(prefix, 0) == 0) text.erase(0, prefix.size());
  const std::string path = e.path1().string();
  if (path.empty()) return text;
  if (const size_t at = text.rfind(" [" + path + "]"); at != std::string::npos) text.erase(at);
  return path + ": " + text;
}

}  // namespace mapsim
