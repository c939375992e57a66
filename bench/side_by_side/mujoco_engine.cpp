// MuJoCo behind the PeerEngine interface (stiction-bench, issue 8): the scene
// is written as MJCF (mujoco_scene_writer.h), loaded from an in-memory VFS
// file, and stepped with mj_step in MuJoCo's default configuration except
// for the cone (and noslip) chosen by MujocoConfig.
#include <map>
#include <memory>
#include <string>

#include "bench/side_by_side/mujoco_scene_writer.h"
#include "bench/side_by_side/peer_engine.h"

#ifdef STICTION_HAVE_MUJOCO
#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>
#endif

namespace stiction::bench {

#ifdef STICTION_HAVE_MUJOCO
namespace {

// Warnings that mean the step is not a valid MuJoCo step: a non-finite state
// (MuJoCo then resets mjData and carries on) or contacts / constraint rows
// dropped for lack of room (see MujocoCapacity).
struct WatchedWarning {
  int index;
  const char* what;
};
constexpr std::array<WatchedWarning, 5> kWatchedWarnings = {{
    {mjWARN_BADQACC, "bad qacc (MuJoCo reset the state)"},
    {mjWARN_BADQVEL, "bad qvel (MuJoCo reset the state)"},
    {mjWARN_BADQPOS, "bad qpos (MuJoCo reset the state)"},
    {mjWARN_CONTACTFULL, "contact list full (contacts dropped)"},
    {mjWARN_CNSTRFULL, "constraint buffer full (constraint rows dropped)"},
}};

class MujocoEngine final : public PeerEngine {
 public:
  MujocoEngine(mjModel* m, mjData* d, std::vector<int> body_ids, std::string label)
      : m_(m), d_(d), body_ids_(std::move(body_ids)), label_(std::move(label)) {}
  ~MujocoEngine() override {
    mj_deleteData(d_);
    mj_deleteModel(m_);
  }
  MujocoEngine(const MujocoEngine&) = delete;
  MujocoEngine& operator=(const MujocoEngine&) = delete;

  std::string label() const override { return label_; }

  bool Step(std::string* error) override {
    std::array<int, kWatchedWarnings.size()> before{};
    for (std::size_t i = 0; i < kWatchedWarnings.size(); ++i) {
      before[i] = d_->warning[kWatchedWarnings[i].index].number;
    }
    // The end of this step, read before mj_step: after a bad-state warning
    // MuJoCo resets mjData, time included.
    const double t_end = d_->time + m_->opt.timestep;
    mj_step(m_, d_);
    kinematics_current_ = false;
    for (std::size_t i = 0; i < kWatchedWarnings.size(); ++i) {
      if (d_->warning[kWatchedWarnings[i].index].number != before[i]) {
        if (error) {
          *error = std::string("MuJoCo warning at t = ") + std::to_string(t_end) + " s: " +
                   kWatchedWarnings[i].what;
        }
        return false;
      }
    }
    const bool finite = std::all_of(d_->qpos, d_->qpos + m_->nq, [](double x) { return std::isfinite(x); }) &&
                        std::all_of(d_->qvel, d_->qvel + m_->nv, [](double x) { return std::isfinite(x); });
    if (!finite) {
      if (error) *error = "MuJoCo state is not finite at t = " + std::to_string(d_->time) + " s";
      return false;
    }
    return true;
  }

  Vector3 BodyPosition(int i) const override {
    UpdateKinematics();
    const mjtNum* x = d_->xpos + 3 * body_ids_.at(i);
    return Vector3(x[0], x[1], x[2]);
  }

  Vector3 BodyVelocity(int i) const override {
    // mjOBJ_XBODY: the body frame's origin (mjOBJ_BODY would be the centre
    // of mass); flg_local = 0: world axes. Result = [angular; linear].
    UpdateKinematics();
    mjtNum velocity[6];
    mj_objectVelocity(m_, d_, mjOBJ_XBODY, body_ids_.at(i), velocity, 0);
    return Vector3(velocity[3], velocity[4], velocity[5]);
  }

  double LastIterations() const override { return d_->solver_iter; }

  double LastMaxPenetration() const override {
    // The contacts of the last step, detected at its start (mj_step's
    // collision stage); dist < 0 is penetration.
    double deepest = 0;
    for (int c = 0; c < d_->ncon; ++c) deepest = std::max(deepest, -d_->contact[c].dist);
    return deepest;
  }

 private:
  // mj_step leaves xpos, cvel etc. at the state *before* its integration
  // (it runs mj_forward first, then integrates qpos, qvel). The queries
  // recompute them from the current qpos, qvel on demand, outside Step():
  // mj_step recomputes everything from qpos, qvel anyway, so this does not
  // touch the dynamics, and Step() costs exactly one mj_step.
  void UpdateKinematics() const {
    if (kinematics_current_) return;
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_comVel(m_, d_);
    kinematics_current_ = true;
  }

  mjModel* m_;
  mjData* d_;
  std::vector<int> body_ids_;  // MuJoCo body id per scene body.
  std::string label_;
  mutable bool kinematics_current_ = true;  // After MakeMujocoEngine's mj_forward.
};

// Compiles `mjcf` from an in-memory VFS file; nullptr and `error` on failure.
mjModel* LoadModel(const std::string& mjcf, std::string* error) {
  const char* kFileName = "stiction_bench_scene.xml";
  auto vfs = std::make_unique<mjVFS>();  // ~2 MB of fixed tables: on the heap.
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), kFileName, static_cast<int>(mjcf.size())) != 0) {
    *error = "MuJoCo's VFS refused the MJCF buffer";
    return nullptr;
  }
  const int file = mj_findFileVFS(vfs.get(), kFileName);
  std::memcpy(vfs->filedata[file], mjcf.data(), mjcf.size());
  char message[1000] = "";
  mjModel* m = mj_loadXML(kFileName, vfs.get(), message, sizeof message);
  mj_deleteVFS(vfs.get());
  if (!m) *error = std::string("MuJoCo could not load the generated MJCF: ") + message;
  return m;
}

}  // namespace

std::unique_ptr<PeerEngine> MakeMujocoEngine(const SceneDescription& scene, MujocoConfig config,
                                             std::string* why_not) {
  std::string error;
  const std::string mjcf = WriteMjcf(scene, config, &error);
  if (mjcf.empty()) {
    if (why_not) *why_not = error;
    return nullptr;
  }
  mjModel* m = LoadModel(mjcf, &error);
  if (!m) {
    if (why_not) *why_not = error;
    return nullptr;
  }
  mjData* d = mj_makeData(m);
  if (!d) {
    mj_deleteModel(m);
    if (why_not) *why_not = "MuJoCo could not allocate mjData";
    return nullptr;
  }
  auto fail = [&](const std::string& reason) -> std::unique_ptr<PeerEngine> {
    mj_deleteData(d);
    mj_deleteModel(m);
    if (why_not) *why_not = reason;
    return nullptr;
  };
  // A joint frame (between an MJCF body's several joints) is that body in
  // MuJoCo: the body its chain of joints ends in.
  std::map<std::string, const BodyDescription*> child_of;  // Parent name -> the child of its (one) joint.
  std::map<std::string, const BodyDescription*> by_name;
  for (const BodyDescription& body : scene.bodies) by_name[body.name] = &body;
  for (const JointDescription& joint : scene.joints) {
    if (by_name.count(joint.child) != 0) child_of[joint.parent] = by_name[joint.child];
  }
  std::vector<int> body_ids;
  for (const BodyDescription& frame : scene.bodies) {
    const BodyDescription* body = &frame;
    while (body->joint_frame && child_of.count(body->name) != 0) body = child_of[body->name];
    const int id = mj_name2id(m, mjOBJ_BODY, body->name.c_str());
    if (id < 0) return fail("body '" + body->name + "' is missing from the MuJoCo model");
    body_ids.push_back(id);
  }
  for (const JointDescription& joint : scene.joints) {
    if (joint.type == JointType::kFixed) continue;
    const int id = mj_name2id(m, mjOBJ_JOINT, joint.name.c_str());
    if (id < 0) return fail("joint '" + joint.name + "' is missing from the MuJoCo model");
    const MujocoJointState state = ToMujocoJointState(joint);
    std::copy(state.qpos.begin(), state.qpos.end(), d->qpos + m->jnt_qposadr[id]);
    std::copy(state.qvel.begin(), state.qvel.end(), d->qvel + m->jnt_dofadr[id]);
  }
  for (const ActuatorDescription& actuator : scene.actuators) {
    const int id = mj_name2id(m, mjOBJ_ACTUATOR, actuator.name.c_str());
    if (id < 0) return fail("actuator '" + actuator.name + "' is missing from the MuJoCo model");
    d->ctrl[id] = MujocoControl(actuator);
  }
  mj_forward(m, d);
  const std::string label = std::string("MuJoCo ") + mj_versionString() + " " + MujocoConfigName(config);
  return std::make_unique<MujocoEngine>(m, d, std::move(body_ids), label);
}

#else  // STICTION_HAVE_MUJOCO

std::unique_ptr<PeerEngine> MakeMujocoEngine(const SceneDescription&, MujocoConfig,
                                             std::string* why_not) {
  if (why_not) *why_not = "built without MuJoCo (libmujoco-dev)";
  return nullptr;
}

#endif  // STICTION_HAVE_MUJOCO

}  // namespace stiction::bench
