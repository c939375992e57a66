// stiction-sim: runs a scene headless and writes a report. All the work is in
// cli_runner; main only turns any escaped exception into one line and exit 1.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return stiction::cli::RunCli(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "stiction-sim: internal error: " << stiction::cli::OneLine(e.what()) << '\n';
  } catch (...) {
    std::cerr << "stiction-sim: internal error: unknown exception\n";
  }
  return stiction::cli::kExitInternalError;
}
