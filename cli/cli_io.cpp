#include "cli/cli_io.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>

namespace stiction::cli {

std::string OneLine(const std::string& message) {
  std::string line;
  line.reserve(message.size());
  for (std::size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == '\r' || c == '\n') {
      // Drop trailing newlines; join inner lines with "; ".
      std::size_t j = i;
      while (j < message.size() && (message[j] == '\r' || message[j] == '\n')) ++j;
      if (j < message.size() && !line.empty()) line += "; ";
      i = j - 1;
    } else {
      line += c;
    }
  }
  return line;
}

void PrintError(std::ostream& err, std::string_view program, const std::string& message) {
  err << program << ": " << OneLine(message) << '\n' << std::flush;
}

std::ofstream OpenOutput(const std::string& path) {
  std::ofstream file(path, std::ios::out | std::ios::trunc);
  if (!file) throw OutputError(path + ": cannot open for writing: " + std::strerror(errno));
  return file;
}

void FinishOutput(std::ofstream& file, const std::string& path) {
  file.flush();
  if (!file) throw OutputError(path + ": write failed: " + std::strerror(errno));
  file.close();
  if (!file) throw OutputError(path + ": write failed: " + std::strerror(errno));
}

int RunMain(std::string_view program, int argc, char** argv,
            int (*run)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return run(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << program << ": internal error: " << OneLine(e.what()) << '\n';
  } catch (...) {
    std::cerr << program << ": internal error: unknown exception\n";
  }
  return 1;
}

}  // namespace stiction::cli
