#include "cli/command_line.h"

#include <CLI/CLI.hpp>

#include "cli/cli_io.h"

namespace stiction::cli {

void AddSceneOverrideOption(CLI::App& app, std::vector<std::string>* overrides) {
  app.add_option("--set", *overrides, "Override a scene value, e.g. --set materials.steel.friction=0.3 (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

std::optional<int> ParseArguments(CLI::App& app, const std::vector<std::string>& args, std::ostream& out,
                                  std::ostream& err, std::string_view program, const bool* usage_printed) {
  // CLI11 parses a reversed argument vector.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      if (usage_printed == nullptr || !*usage_printed) out << app.help();
      return 0;
    }
    PrintError(err, program, std::string(e.what()) + " (run with --help for usage)");
    return kCommandLineError;
  }
  return std::nullopt;
}

}  // namespace stiction::cli
