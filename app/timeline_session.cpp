#include "app/timeline_session.h"

#include <utility>
#include <vector>

#include "app/ui/status_line.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/control/command_log.h"

namespace stiction::app {

TimelineSession::TimelineSession(ViewerScene& scene, UiState& ui, PhysicsLoop& physics, GripperSession& gripper,
                                 VideoSession& video, std::function<bool(const std::string&)> start_recording)
    : scene_(scene),
      ui_(ui),
      physics_(physics),
      gripper_(gripper),
      recording_(video),
      start_recording_(std::move(start_recording)) {}

bool TimelineSession::RecordVideo(double from_s, double to_s, const std::string& path) {
  if (video_.active()) {
    ui_.Error("timeline video: one is being made (Cancel stops it)");
    return false;
  }
  if (recording_.recording() || gripper_.recorder().recording()) {
    ui_.Error("timeline video: stop the recording first");
    return false;
  }
  try {
    video_.Begin(physics_.history(), from_s, to_s);
  } catch (const InputError& e) {
    ui_.Error(e.what());
    return false;
  }
  // The first state first: the video's frame 0 is due at its time.
  if (!physics_.ShowState(video_.first_index()) || !start_recording_(path)) {
    video_.End();
    physics_.ShowState(video_.return_index());
    return false;
  }
  return true;
}

void TimelineSession::AdvanceVideo() {
  // Stopped meanwhile (V, or a frame that could not be written): done.
  const int index = recording_.recording() ? video_.Next(physics_.history(), recording_.clock()) : -1;
  if (index < 0 || !physics_.ShowState(index)) {
    FinishVideo();
    return;
  }
  ui_.Info(StringPrintf("timeline video: t = %.3f s of %.3f to %.3f s", video_.shown_time(), video_.start_time(),
                        video_.end_time()));
}

void TimelineSession::CancelVideo() {
  if (video_.active()) FinishVideo();
}

void TimelineSession::AbandonVideo() {
  if (!video_.active()) return;
  video_.End();
  recording_.Stop();
}

void TimelineSession::FinishVideo() {
  video_.End();
  const bool ok = recording_.Stop();  // Its message says where and how many frames.
  const std::string outcome = ui_.message;
  physics_.ShowState(video_.return_index());
  const std::string range =
      StringPrintf("timeline video of t = %.3f to %.3f s: ", video_.start_time(), video_.end_time());
  if (ok) {
    ui_.Info(range + outcome);
  } else {
    ui_.Error(range + outcome);
  }
}

bool TimelineSession::SaveBranch(const std::string& path) {
  if (gripper_.num_grippers() == 0) {
    ui_.Error("save branch: command files play on scenes with a gripper, and this one has none; Save scene as keeps "
              "its parameters");
    return false;
  }
  std::vector<std::string> names;
  for (int i = 0; i < gripper_.num_grippers(); ++i) names.push_back(gripper_.scene_gripper().controller(i)->name());
  std::vector<std::string> not_saved;
  CommandLog log;
  try {
    log = physics_.history().BranchCommandLog(scene_.loaded_parameters, names, scene_.path, &not_saved);
    SaveCommandFile(log, path);
  } catch (const InputError& e) {
    ReportError(&ui_, e.what());
    return false;
  }
  int edits = 0;
  for (const CommandEntry& e : log.entries) edits += e.set.empty() ? 0 : 1;
  const std::string line =
      StringPrintf("branch from t = 0 to %.3f s saved to %s: %d gripper commands, %d parameter edits; Replay plays it",
                   scene_.sim->time(), path.c_str(), static_cast<int>(log.entries.size()) - edits, edits);
  if (not_saved.empty()) {
    ui_.Info(line);
  } else {
    std::string what;
    for (const std::string& n : not_saved) what += (what.empty() ? "" : "; ") + n;
    ReportError(&ui_, line + ", but a command file cannot hold " + what + ": the replay differs from there");
  }
  return true;
}

}  // namespace stiction::app
