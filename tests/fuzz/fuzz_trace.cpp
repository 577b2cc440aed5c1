// SimGrid time-independent traces (one shared file), read and checked.
#include "fuzz_input.h"
#include "traces/ti_trace.h"
#include "traces/trace_tools.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = mapsim::fuzz::input_file(data, size, ".trace");
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::read_ti_trace(path); });
  mapsim::fuzz::expect_errors_only([&] { (void)mapsim::check_trace(path); });
  return 0;
}
