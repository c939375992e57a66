#pragma once
// SIGINT and SIGTERM end a recording cleanly instead of cutting it off: the
// handler only notes the signal (async-signal-safe), the frame loop (App::Run,
// the headless recording loop) sees it between frames, finishes the video
// and the command recording, prints one line and exits with 128 + the signal
// number (130 for SIGINT, 143 for SIGTERM). The handlers are one-shot
// (SA_RESETHAND): a second signal while the files are being finished has the
// default action and ends the process at once. docs/recording-faults.md.

namespace stiction::app {

/// Installs the handlers for SIGINT and SIGTERM (main() calls it once).
void InstallTerminationHandlers();
/// The signal received since installation, or 0.
int TerminationSignal();
/// "SIGINT", "SIGTERM", or "a signal".
const char* TerminationSignalName(int signal);
/// The conventional exit status for a process ended by `signal`: 128 + signal.
inline int TerminationExitCode(int signal) { return 128 + signal; }

}  // namespace stiction::app
