#pragma once
// Errors that must not go unseen: the panel's status line shows them, and
// so does stderr, since a headless run or a hidden window has no panel.
#include <string>

#include "app/ui/ui_state.h"

namespace stiction::app {

/// Prints "stiction: LINE" to stderr; on a terminal it first erases the
/// progress line a headless run may have drawn.
void PrintStatusLine(const std::string& line);

/// Shows `message` in the UI as an error and prints it (PrintStatusLine).
void ReportError(UiState* ui, const std::string& message);

}  // namespace stiction::app
