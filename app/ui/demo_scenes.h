#pragma once
// The demo scenes the Simulation panel's Demos list opens (issue 5): file
// names in assets/scenes/, each with its own `description:` (shown below the
// list once the scene is open). The robot scenes import URDF files
// (docs/robots.md); any .urdf/.xml robot file also opens directly, from the
// scene field, the command line or by dropping it on the window.
#include <span>

namespace stiction::app {

struct DemoScene {
  const char* title;
  const char* file;  ///< Relative to the directory of the default scene.
};

inline constexpr DemoScene kDemoScenes[] = {
    {"Welcome: an arm to teleoperate", "welcome.yaml"},
    {"Grasp and hold (1 kg box)", "grasp_box.yaml"},
    {"Pick and place", "pick_and_place.yaml"},
    {"Stack three blocks", "stack_blocks.yaml"},
    {"Slip control (SAP Sec. VI-D)", "slip_control.yaml"},
    {"Clutter (40 objects)", "clutter.yaml"},
    {"Dish piling: plates under a heavy pot (try PGS, a budget)", "dish_pile.yaml"},
    {"Concave objects: marbles in a bowl and a cup (revolved shapes)", "marbles_in_bowl.yaml"},
    {"Incline", "incline.yaml"},
    {"Spring-cylinder (friction)", "spring_cylinder_friction.yaml"},
    {"Spring-cylinder (frictionless)", "spring_cylinder.yaml"},
    {"Conveyor belt (contact models)", "conveyor_belt.yaml"},
    {"Falling sphere (slide to roll)", "falling_sphere.yaml"},
    {"Sliding rod (Painleve)", "sliding_rod.yaml"},
    {"Grasp hold (exact friction, CANAL)", "grasp_hold.yaml"},
    {"Soft ball on a table (pressure patches)", "soft_ball.yaml"},
    {"Slip control with soft pads (pressure patches)", "slip_control_patches.yaml"},
    {"Soft-padded gripper grasp", "grasp_soft_pads.yaml"},
    {"Robot arm: iiwa 14-like + gripper (URDF)", "iiwa_posture.yaml"},
    {"Robot arm pick and place (Cartesian impedance, T to teleoperate)", "iiwa_pick_place.yaml"},
    {"Robot arm and hand: lift a can with four fingers (G, T to teleoperate)", "iiwa_hand_grasp.yaml"},
    {"Two arms stack two cubes: one task script waiting on forces (T takes an arm over)", "two_arm_stack.yaml"},
    {"Jar of marbles: two hands open a jar, pour it into a bowl and close it (the SAP paper's task)", "jar_marbles.yaml"},
    {"Robot hand: four fingers, 16 DOF (URDF)", "hand_posture.yaml"},
    {"Robot quadruped: A1-like, standing (URDF)", "quadruped_stand.yaml"},
    {"Robot quadruped: trotting in place (oscillating joint targets)", "quadruped_trot.yaml"},
    {"NMDP: quadruped jumping (stable PD, backward Euler + maximal dissipation)", "quadruped_jump.yaml"},
    {"NMDP: quadruped walking in a trot (stable PD, backward Euler + maximal dissipation)", "quadruped_walk.yaml"},
    {"Free bodies, materials and a pendulum", "demo.yaml"},
};

inline std::span<const DemoScene> DemoScenes() { return kDemoScenes; }

}  // namespace stiction::app
