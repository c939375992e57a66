#include "engine/dataset/demo_sampler.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/common/error.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/parameter_assignments.h"

namespace stiction {
namespace {

// Free bodies that no gripper moves: the objects of obs/object.
std::vector<int> ObjectBodies(const Simulation& sim, const SceneGripper& grippers) {
  const MultibodyModel& model = sim.model();
  std::vector<int> bodies;
  for (int b = 1; b < model.num_bodies(); ++b) {
    const int j = model.body(b).joint;
    if (j < 0 || model.joint(j).type != JointType::kFree) continue;
    bool gripper = false;
    for (int i = 0; i < grippers.num_grippers(); ++i) gripper = gripper || grippers.controller(i)->IsGripperBody(b);
    if (!gripper) bodies.push_back(b);
  }
  return bodies;
}

// The joints' positions of a gripper's fingers, in finger order.
std::vector<int> FingerPositionIndices(const Simulation& sim, const GripperController& g) {
  const MultibodyModel& model = sim.model();
  std::vector<int> indices;
  for (int f = 0; f < g.num_fingers(); ++f) {
    for (int b : g.finger_bodies(f)) {
      const Joint& j = model.joint(model.body(b).joint);
      if (j.type != JointType::kRevolute && j.type != JointType::kPrismatic) continue;
      indices.push_back(j.q_start);
    }
  }
  return indices;
}

void AppendPose(const RigidTransform& X, std::vector<double>* pos, std::vector<double>* quat) {
  const Quaternion q(X.R);
  pos->insert(pos->end(), {X.p.x(), X.p.y(), X.p.z()});
  // robosuite's convention: x, y, z, w.
  quat->insert(quat->end(), {q.x(), q.y(), q.z(), q.w()});
}

}  // namespace

std::string ReadDemoSceneText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the scene file for the dataset");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void SetDemoOutcome(Demo* demo, bool success) {
  const auto n = static_cast<std::size_t>(demo->num_samples());
  demo->success = success;
  demo->rewards = DemoTable{1, std::vector<double>(n, 0.0)};
  demo->dones = DemoTable{1, std::vector<double>(n, 0.0)};
  if (n == 0) return;
  demo->dones.data.back() = 1;
  if (success) demo->rewards.data.back() = 1;
}

std::vector<double> DemoStateRow(const Simulation& sim) {
  std::vector<double> row;
  row.reserve(1 + sim.positions().size() + sim.velocities().size());
  row.push_back(sim.time());
  row.insert(row.end(), sim.positions().data(), sim.positions().data() + sim.positions().size());
  row.insert(row.end(), sim.velocities().data(), sim.velocities().data() + sim.velocities().size());
  return row;
}

void DemoSampler::Begin(const Simulation& sim, const SceneGripper& grippers, const std::string& scene_path,
                        std::vector<std::string> load_overrides, const SceneParameters& loaded) {
  if (!grippers.present()) {
    throw InputError("the scene has no gripper: a demonstration's actions are its grippers' targets (scene key 'gripper')");
  }
  demo_ = Demo{};
  demo_.scene_path = std::filesystem::absolute(scene_path).lexically_normal().string();
  demo_.scene_text = ReadDemoSceneText(scene_path);
  demo_.load_overrides = std::move(load_overrides);
  demo_.parameters = DiffSceneParameters(loaded, sim.CalcSceneParameters());
  demo_.time_step = sim.time_step();
  demo_.nq = static_cast<int>(sim.positions().size());
  demo_.nv = static_cast<int>(sim.velocities().size());
  const int G = grippers.num_grippers();
  for (int i = 0; i < G; ++i) demo_.grippers.push_back(grippers.controller(i)->name());
  object_bodies_ = ObjectBodies(sim, grippers);
  for (int b : object_bodies_) demo_.objects.push_back(sim.model().body(b).name);
  demo_.states.cols = 1 + demo_.nq + demo_.nv;
  demo_.actions.cols = kActionColumnsPerGripper * G;
  demo_.action_rates.cols = kRateColumnsPerGripper * G;
  finger_q_.clear();
  for (int i = 0; i < G; ++i) {
    const std::string robot = "robot" + std::to_string(i);
    finger_q_.push_back(FingerPositionIndices(sim, *grippers.controller(i)));
    demo_.obs.push_back({robot + "_eef_pos", DemoTable{3, {}}});
    demo_.obs.push_back({robot + "_eef_quat", DemoTable{4, {}}});
    demo_.obs.push_back({robot + "_gripper_qpos", DemoTable{static_cast<int>(finger_q_.back().size()), {}}});
  }
  kinematics_.emplace(sim.model());
  if (!object_bodies_.empty()) demo_.obs.push_back({"object", DemoTable{7 * static_cast<int>(object_bodies_.size()), {}}});
  first_step_ = sim.step_index();
  taken_ = 0;
  last_state_ = DemoStateRow(sim);
  const CommandPlayer* player = grippers.player();
  script_edits_ = player != nullptr ? player->parameter_edits_applied() : 0;
  active_ = true;
}

void DemoSampler::Sample(const Simulation& sim, const SceneGripper& grippers) {
  if (!active_) return;
  if (sim.step_index() != first_step_ + demo_.num_samples()) {
    NoteInput("a jump of the state (a restore or a reset) at t = " + std::to_string(sim.time()) + " s");
    return;
  }
  if (const CommandPlayer* player = grippers.player(); player != nullptr && player->parameter_edits_applied() != script_edits_) {
    NoteInput("a script's set: entry (parameter edits are not actions)");
    script_edits_ = player->parameter_edits_applied();
  }
  const std::vector<double> state = DemoStateRow(sim);
  demo_.states.AppendRow(state.data());

  const MultibodyModel& model = sim.model();
  KinematicsCache& kin = *kinematics_;
  CalcKinematics(model, sim.positions(), sim.velocities(), BodyRange::All(model), &kin);
  std::size_t o = 0;
  for (int i = 0; i < grippers.num_grippers(); ++i) {
    const GripperController& g = *grippers.controller(i);
    const GripperActuation a = g.ActuationAt(sim.step_index(), sim.time_step());
    const double act[kActionColumnsPerGripper] = {a.target.x, a.target.y, a.target.z, a.target.yaw, a.target.tilt,
                                                  a.grip == GripState::kClosed ? 1.0 : -1.0, a.grip_force};
    demo_.actions.data.insert(demo_.actions.data.end(), act, act + kActionColumnsPerGripper);
    const double rate[kRateColumnsPerGripper] = {a.rate.x, a.rate.y, a.rate.z, a.rate.yaw, a.rate.tilt};
    demo_.action_rates.data.insert(demo_.action_rates.data.end(), rate, rate + kRateColumnsPerGripper);
    AppendPose(kin.X_WB[g.palm_body()] * g.X_BE(), &demo_.obs[o].table.data, &demo_.obs[o + 1].table.data);
    std::vector<double>& fingers = demo_.obs[o + 2].table.data;
    for (int k : finger_q_[static_cast<std::size_t>(i)]) fingers.push_back(sim.positions()[k]);
    o += 3;
  }
  // Per object: x, y, z, then the quaternion.
  for (int b : object_bodies_) AppendPose(kin.X_WB[b], &demo_.obs[o].table.data, &demo_.obs[o].table.data);
}

void DemoSampler::AfterStep(const Simulation& sim) {
  if (!active_ || demo_.num_samples() != taken_ + 1 || sim.step_index() != first_step_ + taken_ + 1) return;
  ++taken_;
  last_state_ = DemoStateRow(sim);
}

void DemoSampler::NoteInput(const std::string& what) {
  if (active_ && demo_.not_reproducible.empty()) demo_.not_reproducible = what;
}

Demo DemoSampler::Finish(bool success) {
  active_ = false;
  // A sample taken before a step that failed (or was never taken).
  while (demo_.num_samples() > taken_) {
    for (DemoTable* t : {&demo_.states, &demo_.actions, &demo_.action_rates}) t->data.resize(t->data.size() - t->cols);
    for (DemoObservation& ob : demo_.obs) ob.table.data.resize(ob.table.data.size() - ob.table.cols);
  }
  demo_.final_state = std::move(last_state_);
  SetDemoOutcome(&demo_, success);
  return std::move(demo_);
}

}  // namespace stiction
