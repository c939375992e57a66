// A viewer that teleoperates the gripper while recording its commands, for
// recording_faults_test: it is killed (SIGKILL) or interrupted (SIGINT)
// from outside, like a user's viewer would be.
//
//   command_recording_child DIR kill     grip-force commands, one per frame, forever
//   command_recording_child DIR signal   50 of them, then App::Run until a signal
//
// Prints "autosave PATH" first, then for each command "command STEP FORCE
// WALL" (WALL: steady clock [s], the parent's clock too), flushed at once.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "app/app.h"
#include "app/record/termination_signals.h"

int main(int argc, char** argv) {
  using namespace stiction::app;
  if (argc != 3 || (std::strcmp(argv[2], "kill") != 0 && std::strcmp(argv[2], "signal") != 0)) {
    std::fprintf(stderr, "usage: command_recording_child DIR kill|signal\n");
    return 2;
  }
  const bool signal_mode = std::strcmp(argv[2], "signal") == 0;
  if (signal_mode) InstallTerminationHandlers();  // As main() does.
  AppOptions o;
  o.scene_path = STICTION_SOURCE_DIR "/assets/scenes/grasp_box.yaml";
  o.width = 320;
  o.height = 240;
  o.visible = false;
  o.vsync = false;
  o.screenshot_dir = argv[1];
  App app(o);
  app.StartCommandRecording();
  if (!app.gripper().command_autosave().is_open()) {
    std::fprintf(stderr, "no autosave: %s\n", app.ui().message.c_str());
    return 3;
  }
  std::printf("autosave %s\n", app.gripper().command_autosave().path().c_str());
  std::fflush(stdout);
  for (int i = 0;; ++i) {
    if (signal_mode && i == 50) {
      std::printf("running\n");
      std::fflush(stdout);
      return app.Run();  // Until SIGINT/SIGTERM: then 130/143.
    }
    const double force = 1.0 + (i % 490) * 0.1;  // Distinct, within [1, 50] N.
    app.SetGripForce(force);
    const auto& entries = app.gripper().recorder().log().entries;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    std::printf("command %lld %.17g %.9f\n", static_cast<long long>(*entries.back().step), force, wall);
    std::fflush(stdout);
    app.Frame();
  }
}
