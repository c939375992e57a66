#include "engine/multibody/model_builder.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <vector>

#include "engine/common/error.h"

namespace stiction {

namespace {

[[noreturn]] void Fail(const SourceLocation& where, const std::string& what) {
  throw InputError(where.ToString() + ": " + what);
}

/// The scene's joints as a forest: each body's index in scene.bodies and,
/// per parent ("world" or a body), the joints that hang from it.
struct JointForest {
  std::map<std::string, int> body_index;
  std::map<std::string, std::vector<int>> children;  ///< Parent name -> joints, in scene order.
};

/// Indexes the bodies and joints. Body names must be unique and not
/// "world": a robot file's own names are checked here only (the loader
/// checks the scene's, and a robot's against the scene's). That every joint
/// names known bodies and every body has exactly one parent joint are the
/// loader's checks (joint_section.cpp), asserted.
JointForest IndexJoints(const SceneDescription& scene) {
  JointForest forest;
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i) {
    const BodyDescription& b = scene.bodies[i];
    if (b.name == "world" || !forest.body_index.emplace(b.name, i).second) {
      Fail(b.where, "bodies: duplicate or reserved body name '" + b.name + "'");
    }
  }
  for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j) {
    forest.children[scene.joints[j].parent].push_back(j);
  }
#ifndef NDEBUG
  std::vector<int> parent_joints(scene.bodies.size(), 0);
  for (const JointDescription& jd : scene.joints) {
    assert(forest.body_index.count(jd.child) && (jd.parent == "world" || forest.body_index.count(jd.parent)));
    ++parent_joints[forest.body_index.at(jd.child)];
  }
  assert(std::all_of(parent_joints.begin(), parent_joints.end(), [](int n) { return n == 1; }));
#endif
  return forest;
}

Body ModelBody(const BodyDescription& bd) {
  Body body;
  body.name = bd.name;
  body.mass = bd.mass;
  body.com_B = bd.com_B;
  body.I_Bcm_B = bd.I_Bcm_B;
  body.joint_frame = bd.joint_frame;
  return body;
}

Joint ModelJoint(const JointDescription& jd, int parent_index) {
  Joint joint;
  joint.name = jd.name;
  joint.type = jd.type;
  joint.parent = parent_index;
  joint.X_PF = jd.X_PF;
  joint.X_CM = jd.X_CM;
  joint.axis_F = jd.axis;
  joint.lower_limit = jd.lower_limit;
  joint.upper_limit = jd.upper_limit;
  joint.spring_stiffness = jd.spring_stiffness;
  joint.spring_reference = jd.spring_reference;
  joint.damping = jd.damping;
  joint.rotor_inertia = jd.rotor_inertia;
  return joint;
}

/// Adds the bodies hanging from `parent` (model index `parent_index`) and,
/// depth first, their descendants, so that each tree's bodies come out
/// contiguous; appends their joints to *order in the order added. A body
/// the model refuses (e.g. its inertia) fails at the body.
void AddSubtree(const SceneDescription& scene, const JointForest& forest, const std::string& parent,
                int parent_index, MultibodyModel* model, std::vector<const JointDescription*>* order) {
  const auto it = forest.children.find(parent);
  if (it == forest.children.end()) return;
  for (int j : it->second) {
    const JointDescription& jd = scene.joints[j];
    const BodyDescription& bd = scene.bodies[forest.body_index.at(jd.child)];
    int index = 0;
    try {
      index = model->AddBody(ModelBody(bd), ModelJoint(jd, parent_index));
    } catch (const InputError& e) {
      Fail(bd.where, e.what());
    }
    order->push_back(&jd);
    AddSubtree(scene, forest, bd.name, index, model, order);
  }
}

/// Writes the joints' initial coordinates and velocities (model order:
/// `order`) into out->q0, out->v0, quaternions normalized.
void SetInitialState(const SceneDescription& scene, const std::vector<const JointDescription*>& order,
                     BuiltModel* out) {
  const MultibodyModel& model = *out->model;
  out->q0 = model.DefaultPositions();
  out->v0 = VectorX::Zero(model.num_velocities());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    const JointDescription& jd = *order[j];
    if (!jd.initial_q.empty()) {
      if (static_cast<int>(jd.initial_q.size()) != joint.nq) {
        Fail(jd.where, "joints: '" + jd.name + "' initial position needs " +
                           std::to_string(joint.nq) + " values");
      }
      for (int k = 0; k < joint.nq; ++k) out->q0[joint.q_start + k] = jd.initial_q[k];
    }
    if (!jd.initial_v.empty()) {
      if (static_cast<int>(jd.initial_v.size()) != joint.nv) {
        Fail(jd.where, "joints: '" + jd.name + "' initial velocity needs " +
                           std::to_string(joint.nv) + " values");
      }
      for (int k = 0; k < joint.nv; ++k) out->v0[joint.v_start + k] = jd.initial_v[k];
    }
  }
  if (!out->q0.allFinite() || !out->v0.allFinite()) {
    throw InputError(scene.file + ": non-finite initial state");
  }
  model.NormalizeQuaternions(&out->q0);
}

}  // namespace

BuiltModel BuildModel(const SceneDescription& scene) {
  const JointForest forest = IndexJoints(scene);
  BuiltModel out;
  out.model = std::make_unique<MultibodyModel>();
  out.model->set_gravity(scene.gravity);
  std::vector<const JointDescription*> order;  // Joints in insertion order.
  AddSubtree(scene, forest, "world", 0, out.model.get(), &order);
  // Every body reached from the world: the loader refuses joint loops
  // (SceneParser::CheckJointLoops); robots are trees.
  assert(order.size() == scene.bodies.size());
  out.model->Finalize();
  SetInitialState(scene, order, &out);
  return out;
}

}  // namespace stiction
