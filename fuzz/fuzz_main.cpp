// The libFuzzer entry of one harness (STICTION_FUZZ_HARNESS names its
// function, set per executable by fuzz/CMakeLists.txt). An exception that
// leaves the harness is printed and aborts, so libFuzzer saves the input as
// a crash.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>

#include "fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    return stiction::STICTION_FUZZ_HARNESS(data, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "==stiction-fuzz== FINDING: %s escaped the harness: %s\n", typeid(e).name(), e.what());
  } catch (...) {
    std::fprintf(stderr, "==stiction-fuzz== FINDING: a non-std exception escaped the harness\n");
  }
  std::abort();
}
