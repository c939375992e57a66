#pragma once
// One demonstration (a recorded take) as a dataset holds it: per step the
// simulation state, the action every gripper was driven with and low-dim
// observations, in the layout robomimic and robosuite use
// (docs/datasets.md). DemoSampler (demo_sampler.h) fills it during a run,
// demo_file.h writes and reads it as HDF5, demo_replay.h replays it.
#include <cstdint>
#include <string>
#include <vector>

namespace stiction {

/// A row-major table of doubles: num_rows × cols (an HDF5 dataset).
struct DemoTable {
  int cols = 0;
  std::vector<double> data;
  std::int64_t rows() const { return cols == 0 ? 0 : static_cast<std::int64_t>(data.size()) / cols; }
  const double* row(std::int64_t r) const { return data.data() + r * cols; }
  void AppendRow(const double* values) { data.insert(data.end(), values, values + cols); }
};

/// An observation: its key under obs/ (e.g. "robot0_eef_pos") and values.
struct DemoObservation {
  std::string key;
  DemoTable table;
};

/// Camera images per step (obs/agentview_image): num_rows × height ×
/// width × 3, RGB, uint8, top row first.
struct DemoImages {
  std::string key = "agentview_image";
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
  std::int64_t rows() const {
    return width * height == 0 ? 0 : static_cast<std::int64_t>(pixels.size()) / (3LL * width * height);
  }
};

/// The columns per gripper of `actions`: target x, y, z [m], yaw, tilt
/// [rad], grip (−1 open, +1 closed, robosuite's sign), grip force [N].
inline constexpr int kActionColumnsPerGripper = 7;
/// The columns per gripper of `action_rates`: the target's rate during a
/// ramp, x, y, z [m/s], yaw, tilt [rad/s] (0 in teleop).
inline constexpr int kRateColumnsPerGripper = 5;

struct Demo {
  // ---- What the demonstration was recorded on (the demo group's attributes).
  std::string scene_path;        ///< Absolute path of the scene file (`scene`).
  std::string scene_text;        ///< The scene file's text (`model_file`, as robosuite keeps its MJCF).
  std::vector<std::string> load_overrides;  ///< The `--set` list the scene was loaded with.
  std::vector<std::string> parameters;      ///< Live parameter edits since load, KEY=VALUE.
  double time_step = 0;          ///< [s]
  int nq = 0, nv = 0;            ///< State layout: [t, q (nq), v (nv)].
  std::vector<std::string> grippers;  ///< Action blocks, in order.
  std::vector<std::string> objects;   ///< The free bodies of obs/object, in order.
  bool success = false;
  /// Empty when the actions alone drove the run (a replay reproduces it bit
  /// for bit); else what else did (a mouse drag, a joint slider, ...).
  std::string not_reproducible;

  // ---- Per step k (num_samples rows): state before step k, what drove it.
  DemoTable states;        ///< [t, q, v]
  DemoTable actions;       ///< kActionColumnsPerGripper per gripper.
  DemoTable action_rates;  ///< kRateColumnsPerGripper per gripper.
  DemoTable rewards;       ///< 1 column: 1 at the last step of a success, else 0.
  DemoTable dones;         ///< 1 column: 1 at the last step, else 0.
  std::vector<DemoObservation> obs;
  DemoImages images;       ///< Empty: no images.
  /// The state after the last step ([t, q, v], attribute `final_state`).
  std::vector<double> final_state;

  std::int64_t num_samples() const { return states.rows(); }
};

}  // namespace stiction
