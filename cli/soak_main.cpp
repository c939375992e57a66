// stiction-soak: soaks a scene under random events and checks invariants
// (docs/soak.md). All the work is in soak_runner; main only turns an escaped
// exception into one line and exit 1.
#include "cli/cli_io.h"
#include "cli/soak_runner.h"

int main(int argc, char** argv) {
  static_assert(stiction::cli::kSoakInternalError == 1);
  return stiction::cli::RunMain("stiction-soak", argc, argv, stiction::cli::RunSoakCli);
}
