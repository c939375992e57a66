#pragma once
// `stiction --headless SCENE.yaml --record out.mp4 [--duration S] [--size WxH]
// [--fps N]`: a hidden window (Xvfb or any X server), the simulation stepped
// frame-synchronously, exactly round(duration x fps) frames written, a
// progress bar on stderr when it is a terminal, then exit.
//
// Hook for `--replay commands.yaml` (teleop): every step here is taken by
// PhysicsLoop::Step, like the viewer's, so a command player that the App's
// GripperSession owns and applies before each step drives headless
// recordings too; the option is parsed in
// app_options.cpp like the others. Without one the scene runs with its own
// scripted or idle commands.
#include "app/app_options.h"

namespace stiction::app {

/// Runs the headless recording; returns the exit code (0 done, 1 a failure,
/// reported on stderr; 130 / 143 after SIGINT / SIGTERM, the video finished
/// with the frames so far). When the video cannot be written on (a full
/// disk), the simulation still runs to --duration, then 1 with "video
/// incomplete" (docs/recording-faults.md). Throws what App's constructor
/// throws.
int RunHeadlessRecording(const AppOptions& options);

}  // namespace stiction::app
