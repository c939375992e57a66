// stiction-fuzz-replay HARNESS PATH...: runs a harness on every file given
// and every regular file in the directories given (sorted), as the fuzzers
// would, in any build (gcc, sanitizers or not). Exit status 0 when every
// input is handled cleanly; 1 when a harness reports a finding (an exception
// other than a clean InputError leaves it) or an input takes longer than
// libFuzzer's hang limit; 2 for bad usage. A crash or sanitizer report ends
// the process with its own non-zero status, naming the input just before.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "fuzz/fuzz_harness.h"

namespace {

namespace fs = std::filesystem;

// Same limit as scripts/fuzz.sh's -timeout: an input slower than this was a
// hang there and must stay fixed. The regression inputs take milliseconds,
// so even a sanitizer build is far below it.
constexpr double kHangSeconds = 10;

int Usage() {
  std::fprintf(stderr, "usage: stiction-fuzz-replay HARNESS FILE_OR_DIR...\nharnesses:");
  for (const auto& h : stiction::FuzzHarnesses()) std::fprintf(stderr, " %s", h.name);
  std::fprintf(stderr, "\n");
  return 2;
}

// The inputs named on the command line: files as given, directories'
// regular files sorted. nullopt (after an error line) for a missing path.
std::optional<std::vector<fs::path>> CollectInputs(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path arg = argv[i];
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> in_dir;
      for (const auto& entry : fs::directory_iterator(arg)) {
        if (entry.is_regular_file()) in_dir.push_back(entry.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "stiction-fuzz-replay: %s: no such file or directory\n", argv[i]);
      return std::nullopt;
    }
  }
  return files;
}

// Runs `harness` on one input and prints "FILE: ok (T s)" or its finding;
// false on a finding.
bool Replay(const stiction::FuzzHarness& harness, const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "%s: ", file.c_str());
  std::fflush(stderr);  // Named before a crash can end the process.
  const auto start = std::chrono::steady_clock::now();
  try {
    harness.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FINDING: %s escaped the harness: %s\n", typeid(e).name(), e.what());
    return false;
  } catch (...) {
    std::fprintf(stderr, "FINDING: a non-std exception escaped the harness\n");
    return false;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (seconds > kHangSeconds) {
    std::fprintf(stderr, "FINDING: took %.1f s (hang limit %.0f s)\n", seconds, kHangSeconds);
    return false;
  }
  std::fprintf(stderr, "ok (%.3f s)\n", seconds);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string name = argv[1];
  const auto& harnesses = stiction::FuzzHarnesses();
  const auto it = std::find_if(harnesses.begin(), harnesses.end(),
                               [&](const stiction::FuzzHarness& h) { return name == h.name; });
  if (it == harnesses.end()) {
    std::fprintf(stderr, "stiction-fuzz-replay: unknown harness '%s'\n", name.c_str());
    return Usage();
  }
  const std::optional<std::vector<fs::path>> files = CollectInputs(argc, argv);
  if (!files) return 2;
  if (files->empty()) {
    std::fprintf(stderr, "stiction-fuzz-replay: no input files (a regression directory must not be empty)\n");
    return 2;
  }
  int failures = 0;
  for (const fs::path& file : *files) failures += Replay(*it, file) ? 0 : 1;
  std::printf("%s: %zu inputs, %d findings\n", name.c_str(), files->size(), failures);
  return failures == 0 ? 0 : 1;
}
