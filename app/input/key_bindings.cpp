#include "app/input/key_bindings.h"

namespace stiction::app {

namespace {
constexpr Binding kBindings[] = {
    {"Left drag", "Orbit the camera about the look-at point"},
    {"Right drag", "Pan the camera in the view plane"},
    {"Shift + right drag", "Pan the camera in the horizontal plane"},
    {"Middle drag, scroll", "Zoom"},
    {"Double-click (left)", "Select the body under the cursor (empty space: deselect)"},
    {"Double-click (right)", "Centre the view on the point under the cursor"},
    {"Alt + left click", "Inspect the nearest contact point within 10 px (elsewhere: clear)"},
    {"Ctrl + left drag", "Rotate the selected body (spring, COM held in place)"},
    {"Ctrl + right drag", "Pull the selected body by the picked point (spring)"},
    {"Ctrl + Shift + right drag", "Pull the selected body in the horizontal plane"},
    {"Space", "Pause / run"},
    {"Right arrow", "Single step (pauses); after Left, forward through the timeline"},
    {"Left arrow", "One step back through the timeline (pauses)"},
    {"Backspace", "Reset to t = 0"},
    {"= / -", "Real-time factor faster / slower (x2 / x0.5)"},
    {"Ctrl + L", "Reload the scene file (keeps the camera)"},
    {"Ctrl + P", "Screenshot to PNG"},
    {"V", "Start / stop recording a video (MP4, frames at fixed simulated times)"},
    {"Esc", "Deselect the body and the inspected contact"},
    {"Tab", "Hide / show the left column (scene, simulation, recording, contact, solver, visualization)"},
    {"Shift + Tab", "Hide / show the right column (plots, gripper, contacts)"},
    {"T", "Teleop focus: mouse and keys drive the scene's gripper; without one, the selected link"},
    {"Teleop: left drag", "Move the gripper target in the horizontal plane"},
    {"Teleop: Shift + left drag, scroll", "Move the target up / down (scroll: 1 cm per notch)"},
    {"Teleop: Ctrl + left drag", "Turn the target about z (yaw)"},
    {"Teleop: Alt + left drag", "Tilt an arm's target about its horizontal x axis (±90°)"},
    {"Teleop: right drag", "Orbit the camera"},
    {"Teleop: W / S, A / D, R / F", "Move the target along x, y, z while held (0.15 m/s; world axes)"},
    {"Teleop: Q / E, Z / X", "Turn the target about z (yaw), tilt an arm's target (0.8 rad/s while held)"},
    {"Teleop: G", "Open / close the gripper or every finger of the hand (closing presses with the grip force or the fingers' effort limits)"},
    {"Teleop: V", "Start / stop a recording without leaving teleop"},
    {"Teleop: Esc", "Leave teleop focus (other keys do nothing while in it)"},
    {"F1", "This list"},
    {"F2", "Hide / show the info overlay"},
    {"Drop a .yaml file", "Open it"},
};
}  // namespace

std::span<const Binding> KeyBindings() { return kBindings; }

}  // namespace stiction::app
