#pragma once
// The demo scenes the Simulation panel's Demos list opens (issue 5): file
// names in assets/scenes/, each with its own `description:`.
#include <span>

namespace stiction::app {

struct DemoScene {
  const char* title;
  const char* file;  ///< Relative to the directory of the default scene.
};

inline constexpr DemoScene kDemoScenes[] = {
    {"Grasp and hold (1 kg box)", "grasp_box.yaml"},
    {"Pick and place", "pick_and_place.yaml"},
    {"Stack three blocks", "stack_blocks.yaml"},
    {"Slip control (SAP Sec. VI-D)", "slip_control.yaml"},
    {"Clutter (40 objects)", "clutter.yaml"},
    {"Incline", "incline.yaml"},
    {"Spring-cylinder (friction)", "spring_cylinder_friction.yaml"},
    {"Spring-cylinder (frictionless)", "spring_cylinder.yaml"},
    {"Conveyor belt (contact models)", "conveyor_belt.yaml"},
    {"Falling sphere (slide to roll)", "falling_sphere.yaml"},
    {"Sliding rod (Painleve)", "sliding_rod.yaml"},
    {"Grasp hold (exact friction, CANAL)", "grasp_hold.yaml"},
    {"Default demo", "demo.yaml"},
};

inline std::span<const DemoScene> DemoScenes() { return kDemoScenes; }

}  // namespace stiction::app
