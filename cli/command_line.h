#pragma once
// What stiction-sim's and stiction-soak's command lines share: the
// repeatable --set override and CLI11's parse with the programs'
// conventions (--help prints usage on stdout and exits 0; a bad argument is
// one line on stderr and exit 2).
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace stiction::cli {

/// The exit code of a bad command line (both programs).
inline constexpr int kCommandLineError = 2;

/// What a program's command line gave: options to run with, or the exit
/// code (0 after --help, kCommandLineError after an error line).
template <typename Options>
struct ParseOutcome {
  std::optional<Options> options;
  int exit_code = 0;
};

/// Adds the repeatable `--set KEY=VALUE` scene override: one value per
/// --set, so that a scene path after it stays positional.
void AddSceneOverrideOption(CLI::App& app, std::vector<std::string>* overrides);

/// Parses `args` (without the program name) with `app`. nullopt when they
/// parsed; otherwise the exit code: 0 after --help, its usage printed on
/// `out` unless `*usage_printed` says an option printed its own text (read
/// after the parse); kCommandLineError after an error, "PROGRAM: WHAT (run
/// with --help for usage)" on `err`.
std::optional<int> ParseArguments(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                  std::ostream& err, std::string_view program,
                                  const bool* usage_printed = nullptr);

}  // namespace stiction::cli
