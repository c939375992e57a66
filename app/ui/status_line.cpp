#include "app/ui/status_line.h"

#include <unistd.h>

#include <cstdio>

namespace stiction::app {

void PrintStatusLine(const std::string& line) {
  std::fprintf(stderr, "%sstiction: %s\n", isatty(STDERR_FILENO) == 1 ? "\r\033[K" : "", line.c_str());
}

void ReportError(UiState* ui, const std::string& message) {
  ui->Error(message);
  PrintStatusLine(message);
}

}  // namespace stiction::app
