#pragma once
// Every mouse and key binding, as the F1 window and docs/viewer.md list them.
// The handlers are InputController::HandleKey / HandleMouseButton /
// HandleCursor / HandleScroll; this table is their documentation and must
// match them.
#include <span>

namespace stiction::app {

struct Binding {
  const char* input;
  const char* action;
};

std::span<const Binding> KeyBindings();

}  // namespace stiction::app
