#pragma once
// The timeline's tools beyond going back and forth (PhysicsLoop keeps the
// states and restores them): a video of a past range, made from the kept
// states one viewer frame at a time (TimelineVideo), and the run saved as
// a command file that replays it from the scene file (docs/viewer.md,
// "Timeline").
#include <functional>
#include <string>

#include "app/physics_loop.h"
#include "app/record/timeline_video.h"
#include "app/record/video_session.h"
#include "app/teleop/gripper_session.h"
#include "app/ui/ui_state.h"
#include "app/viewer_scene.h"

namespace stiction::app {

class TimelineSession {
 public:
  /// Everything passed outlives the session. `start_recording(path)` opens
  /// the video file as V would (the App's StartRecording: the Recording
  /// section's size); false when it could not.
  TimelineSession(ViewerScene& scene, UiState& ui, PhysicsLoop& physics, GripperSession& gripper,
                  VideoSession& video, std::function<bool(const std::string&)> start_recording);
  TimelineSession(const TimelineSession&) = delete;
  TimelineSession& operator=(const TimelineSession&) = delete;

  /// Starts a video of the kept states from from_s to to_s [s] to `path`
  /// ("" = the default name). False (message shown, nothing changed) for a
  /// bad range or while recording.
  bool RecordVideo(double from_s, double to_s, const std::string& path);
  /// While a video is being made, each frame instead of stepping: the next
  /// kept state it shows (the frame's scene image writes the frames due),
  /// or, past the range or once the recording stopped, the end.
  void AdvanceVideo();
  /// Finishes the video now and goes back to the state it began at.
  void CancelVideo();
  /// The kept states are gone (a load, a reset): the video ends where it is.
  void AbandonVideo();
  const TimelineVideo& video() const { return video_; }

  /// Writes the run from t = 0 to the current state as a command file
  /// (StateHistory::BranchCommandLog against the scene file's parameters).
  /// False (message shown) when it cannot; inputs a file cannot hold are
  /// named in the message.
  bool SaveBranch(const std::string& path);

 private:
  void FinishVideo();

  ViewerScene& scene_;
  UiState& ui_;
  PhysicsLoop& physics_;
  GripperSession& gripper_;
  VideoSession& recording_;
  std::function<bool(const std::string&)> start_recording_;
  TimelineVideo video_;
};

}  // namespace stiction::app
