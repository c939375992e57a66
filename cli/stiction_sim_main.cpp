// stiction-sim: runs a scene headless and writes a report. All the work is in
// cli_runner; main only turns any escaped exception into one line and exit 1.
#include "cli/cli_io.h"
#include "cli/cli_runner.h"

int main(int argc, char** argv) {
  static_assert(stiction::cli::kExitInternalError == 1);
  return stiction::cli::RunMain("stiction-sim", argc, argv, stiction::cli::RunCli);
}
