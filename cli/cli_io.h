#pragma once
// What stiction-sim and stiction-soak share for their output: one-line error
// messages, output files that fail with OutputError, the wall clock their
// summaries report, and main()'s last line of defence.
#include <chrono>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stiction::cli {

/// An output file could not be opened or written. what() is one line naming
/// the file, e.g. "out/report.json: cannot open for writing: No such file or
/// directory".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Collapses a message to one line (newlines become "; ").
std::string OneLine(const std::string& message);

/// Prints "PROGRAM: MESSAGE" (made one line) on `err` and flushes it.
void PrintError(std::ostream& err, std::string_view program, const std::string& message);

/// Opens `path` for writing (truncated). Throws OutputError "PATH: cannot
/// open for writing: REASON".
std::ofstream OpenOutput(const std::string& path);
/// Flushes and closes `file`. Throws OutputError "PATH: write failed: REASON"
/// when either fails.
void FinishOutput(std::ofstream& file, const std::string& path);

/// What both programs' main() is: `run` on the arguments (without the
/// program name) with std::cout and std::cerr; an exception that escapes it
/// (a bug) becomes one line "PROGRAM: internal error: WHAT" and exit code 1.
int RunMain(std::string_view program, int argc, char** argv,
            int (*run)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err));

using Clock = std::chrono::steady_clock;
/// Wall time since `start` [s].
inline double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace stiction::cli
