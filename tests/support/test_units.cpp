#include <doctest/doctest.h>

#include "support/error.h"
#include "support/spec.h"
#include "support/units.h"

using namespace mapsim;

TEST_CASE("bandwidth units convert to bytes per second") {
  CHECK(parse_bandwidth("10Gbps") == 1.25e9);
  CHECK(parse_bandwidth("1.25GB/s") == 1.25e9);
  CHECK(parse_bandwidth("64Gbps") == 8e9);
  CHECK(parse_bandwidth("1GiB/s") == 1073741824.0);
  CHECK(parse_bandwidth("800") == 800);
  CHECK(parse_bandwidth("8bps") == 1);
}

TEST_CASE("time and size units are exact") {
  CHECK(parse_time("20ns") == 20 / 1e9);
  CHECK(parse_time("2us") == 2 / 1e6);
  CHECK(parse_time("300ns") == 300 / 1e9);
  CHECK(parse_time("10ms") == 10 / 1e3);
  CHECK(parse_time("1.5") == 1.5);
  CHECK(parse_size("4KiB") == 4096);
  CHECK(parse_size("1MB") == 1e6);
}

TEST_CASE("bad units are rejected with what was expected") {
  CHECK_THROWS_WITH_AS(parse_bandwidth("10Gbs"), doctest::Contains("expected a number with bps"), Error);
  CHECK_THROWS_WITH_AS(parse_time("20 parsecs"), doctest::Contains("bad time '20 parsecs'"), Error);
  CHECK_THROWS_AS(parse_time("-1s"), Error);
  CHECK_THROWS_AS(parse_size("lots"), Error);
  CHECK_THROWS_AS(parse_time(""), Error);
}

TEST_CASE("quantities outside what can be simulated are refused, not run into infinities or deadlocks (issue 29)") {
  CHECK_THROWS_WITH_AS(parse_bandwidth("1e-311"), doctest::Contains("bad bandwidth '1e-311': expected 1 B/s (8bps) to 1e18 B/s"), Error);
  CHECK_THROWS_WITH_AS(parse_bandwidth("4bps"), doctest::Contains("expected 1 B/s"), Error);
  CHECK_THROWS_AS(parse_bandwidth("1e19B/s"), Error);
  CHECK(parse_bandwidth("1e18B/s") == 1e18);
  CHECK_THROWS_WITH_AS(parse_time("1.7e308s"), doctest::Contains("bad time '1.7e308s': above 1e6 s"), Error);
  CHECK(parse_time("1e6s") == 1e6);
  CHECK_THROWS_WITH_AS(parse_size("1e23"), doctest::Contains("bad size '1e23': above 2^53 bytes"), Error);
  CHECK(parse_size("9007199254740992") == 9007199254740992.0);
  CHECK_THROWS_WITH_AS(Spec::parse("random:seed=-1").get_int("seed", 1), doctest::Contains("seed must be >= 0, got -1"), Error);
}

TEST_CASE("parse_quantity: plain numbers and quantities of one kind, in SI base units") {
  double value = 0;
  std::string kind;
  CHECK((parse_quantity("2.5Gbps", value, kind) && value == 312500000 && kind == "bandwidth"));
  CHECK((parse_quantity("20ns", value, kind) && value == doctest::Approx(20e-9) && kind == "time"));
  CHECK((parse_quantity("4KiB", value, kind) && value == 4096 && kind == "size"));
  CHECK((parse_quantity("1e3", value, kind) && value == 1000 && kind == "number"));
  CHECK_FALSE(parse_quantity("mesh:4x4", value, kind));
  CHECK_FALSE(parse_quantity("", value, kind));
  CHECK_FALSE(parse_quantity("inf", value, kind));
}

TEST_CASE("formatting picks a readable unit") {
  CHECK(format_bandwidth(1.25e9) == "10Gbps");
  CHECK(format_time(300e-9) == "300ns");
  CHECK(format_time(2e-6) == "2us");
}

TEST_CASE("specs parse positional values and keys, and reject leftovers") {
  Spec spec = Spec::parse("mesh:16x16,t_p=10ns");
  CHECK(spec.name() == "mesh");
  CHECK(spec.require_positional("DIMS") == "16x16");
  CHECK(spec.get_time("t_p", 0) == 10 / 1e9);
  CHECK_NOTHROW(spec.finish());

  Spec extra = Spec::parse("irregular:nodes=4,colour=blue");
  extra.get_int("nodes", 0);
  CHECK_THROWS_WITH_AS(extra.finish(), doctest::Contains("unknown key 'colour' for irregular (valid keys: nodes)"), Error);

  Spec bad_int = Spec::parse("irregular:nodes=many");
  CHECK_THROWS_WITH_AS(bad_int.get_int("nodes", 0), doctest::Contains("nodes=many is not an integer"), Error);
  CHECK_THROWS_AS(Spec::parse("irregular:nodes=1,nodes=2"), Error);
  CHECK_THROWS_AS(Spec::parse("irregular:,"), Error);
  CHECK(Spec::parse("file:a,b.yaml", {"file"}).positional() == std::string("a,b.yaml"));
  CHECK(parse_dims("8x8x8", "test") == std::vector<int>{8, 8, 8});
  CHECK_THROWS_AS(parse_dims("8x0", "test"), Error);
  CHECK_THROWS_AS(parse_dims("8xx8", "test"), Error);
}
