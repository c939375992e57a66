// stiction-soak: soaks a scene under random events and checks invariants
// (docs/soak.md). All the work is in soak_runner; main only turns an escaped
// exception into one line and exit 1.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"
#include "cli/soak_runner.h"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return stiction::cli::RunSoakCli(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "stiction-soak: internal error: " << stiction::cli::OneLine(e.what()) << '\n';
  } catch (...) {
    std::cerr << "stiction-soak: internal error: unknown exception\n";
  }
  return stiction::cli::kSoakInternalError;
}
