#include <doctest/doctest.h>

#include <string>

#include "support/json_text.h"
#include "support/message.h"

using namespace mapsim;

TEST_CASE("printable: control bytes and bytes that are not UTF-8 are escaped, UTF-8 is kept") {
  CHECK(printable("plain text: 'x'") == "plain text: 'x'");
  CHECK(printable("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(printable(std::string("nul\0!", 5)) == "nul\\x00!");
  CHECK(printable("\x01\x7F\xFF\xFE") == "\\x01\\x7F\\xFF\\xFE");
  CHECK(printable("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x99\x82") == "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x99\x82");
  CHECK(printable("\xC3") == "\\xC3");              // truncated sequence
  CHECK(printable("\xC0\xAF") == "\\xC0\\xAF");      // overlong encoding of '/'
  CHECK(printable("\xED\xA0\x80") == "\\xED\\xA0\\x80");  // UTF-16 surrogate
}

TEST_CASE("printable: a long token keeps its head and tail; a long message is bounded") {
  const std::string token(10 * 1000 * 1000, 'A');
  const std::string shown = printable("got '" + token + "' here");
  CHECK(shown.size() < 300);
  CHECK(shown.find("[... " + std::to_string(token.size() + 2 - kMaxShownToken / 2 - kMaxShownToken / 4) + " bytes ...]") !=
        std::string::npos);
  CHECK(shown.rfind("got 'AAA", 0) == 0);
  CHECK(shown.substr(shown.size() - 5) == " here");
  const std::string at_limit(kMaxShownToken, 'x');
  CHECK(printable(at_limit) == at_limit);
  std::string words;
  for (int i = 0; i < 100000; ++i) words += "word ";
  CHECK(printable(words).size() < kMaxShownMessage);
}

TEST_CASE("excerpt quotes at most 40 bytes of input, on a UTF-8 boundary, and says how much it left out") {
  CHECK(excerpt("x init") == "'x init'");
  CHECK(excerpt("root:x:0:0:root:/root:/bin/bash:and-some-more-text") ==
        "'root:x:0:0:root:/root:/bin/bash:and-some...' (40 of 50 bytes shown)");
  CHECK(excerpt(std::string(39, 'a') + "\xC3\xA9" "b") == "'" + std::string(39, 'a') + "...' (39 of 42 bytes shown)");
}

TEST_CASE("clean_text accepts UTF-8 with tabs and newlines only") {
  CHECK(clean_text("name: caf\xC3\xA9\n\tx"));
  CHECK_FALSE(clean_text("bad\xFF"));
  CHECK_FALSE(clean_text("bell\a"));
  CHECK_FALSE(clean_text(std::string("nul\0", 4)));
}

TEST_CASE("json_text writes bytes that are not UTF-8 as U+FFFD instead of throwing") {
  const nlohmann::json value = {{"name", "leaf-\xFF" "a"}};
  CHECK(json_text(value) == "{\"name\":\"leaf-\xEF\xBF\xBD" "a\"}");
  nlohmann::ordered_json ordered;
  ordered["z"] = 1;
  ordered["a"] = 2;
  CHECK(json_text(ordered) == "{\"z\":1,\"a\":2}");  // key order kept
}
