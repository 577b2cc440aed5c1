// Spec strings and quantities with units, as users type them on the command line.
#include "fuzz_input.h"
#include "support/spec.h"
#include "support/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  mapsim::fuzz::expect_errors_only([&] {
    mapsim::Spec spec = mapsim::Spec::parse(text, {"file", "ibnet"}, {"lft"});
    (void)spec.get_int("k", 0);
    (void)spec.get_double("x", 0);
  });
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::parse_bandwidth(text); });
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::parse_time(text); });
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::parse_size(text); });
  double value;
  std::string kind;
  (void)mapsim::parse_quantity(text, value, kind);
  return 0;
}
