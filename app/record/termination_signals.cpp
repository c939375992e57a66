#include "app/record/termination_signals.h"

#include <signal.h>

namespace stiction::app {
namespace {

volatile sig_atomic_t g_signal = 0;

extern "C" void NoteTerminationSignal(int signal) { g_signal = signal; }

}  // namespace

void InstallTerminationHandlers() {
  struct sigaction action {};
  action.sa_handler = NoteTerminationSignal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: an interrupted read, write or wait simply goes on; the loop
  // checks the flag between frames. SA_RESETHAND: the next signal kills.
  action.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int TerminationSignal() { return g_signal; }

const char* TerminationSignalName(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

}  // namespace stiction::app
