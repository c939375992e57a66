#include "engine/multibody/model_builder.h"

#include <functional>
#include <map>
#include <set>

#include "engine/common/error.h"

namespace stiction {

namespace {

[[noreturn]] void Fail(const SourceLocation& where, const std::string& what) {
  throw InputError(where.ToString() + ": " + what);
}

}  // namespace

BuiltModel BuildModel(const SceneDescription& scene) {
  std::map<std::string, int> body_index;  // Index into scene.bodies.
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i) {
    const BodyDescription& b = scene.bodies[i];
    if (b.name == "world" || !body_index.emplace(b.name, i).second) {
      Fail(b.where, "bodies: duplicate or reserved body name '" + b.name + "'");
    }
  }
  // The joint that has each body as its child, and each body's children.
  std::vector<int> inboard(scene.bodies.size(), -1);
  std::map<std::string, std::vector<int>> children;  // parent name -> joints.
  for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j) {
    const JointDescription& jd = scene.joints[j];
    auto child = body_index.find(jd.child);
    if (child == body_index.end()) Fail(jd.where, "joints: unknown child body '" + jd.child + "'");
    if (jd.parent != "world" && !body_index.count(jd.parent)) {
      Fail(jd.where, "joints: unknown parent body '" + jd.parent + "'");
    }
    if (inboard[child->second] >= 0) {
      Fail(jd.where, "joints: body '" + jd.child + "' is the child of two joints");
    }
    inboard[child->second] = j;
    children[jd.parent].push_back(j);
  }
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i) {
    if (inboard[i] < 0) {
      Fail(scene.bodies[i].where, "bodies: body '" + scene.bodies[i].name +
                                      "' is not the child of any joint");
    }
  }

  BuiltModel out;
  out.model = std::make_unique<MultibodyModel>();
  MultibodyModel& model = *out.model;
  model.set_gravity(scene.gravity);
  std::vector<const JointDescription*> order;  // Joints in insertion order.
  std::set<std::string> visited;
  // Depth-first from the world: each tree's bodies come out contiguous.
  std::function<void(const std::string&, int)> visit = [&](const std::string& parent,
                                                          int parent_index) {
    auto it = children.find(parent);
    if (it == children.end()) return;
    for (int j : it->second) {
      const JointDescription& jd = scene.joints[j];
      const BodyDescription& bd = scene.bodies[body_index.at(jd.child)];
      visited.insert(bd.name);
      Body body;
      body.name = bd.name;
      body.mass = bd.mass;
      body.com_B = bd.com_B;
      body.I_Bcm_B = bd.I_Bcm_B;
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
      int index = 0;
      try {
        index = model.AddBody(body, joint);
      } catch (const InputError& e) {
        Fail(bd.where, e.what());
      }
      order.push_back(&jd);
      visit(bd.name, index);
    }
  };
  visit("world", 0);
  for (const BodyDescription& b : scene.bodies) {
    if (!visited.count(b.name)) {
      Fail(b.where, "bodies: body '" + b.name + "' is part of a joint cycle (not connected to the world)");
    }
  }
  model.Finalize();

  out.q0 = model.DefaultPositions();
  out.v0 = VectorX::Zero(model.num_velocities());
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    const JointDescription& jd = *order[j];
    if (!jd.initial_q.empty()) {
      if (static_cast<int>(jd.initial_q.size()) != joint.nq) {
        Fail(jd.where, "joints: '" + jd.name + "' initial position needs " +
                           std::to_string(joint.nq) + " values");
      }
      for (int k = 0; k < joint.nq; ++k) out.q0[joint.q_start + k] = jd.initial_q[k];
    }
    if (!jd.initial_v.empty()) {
      if (static_cast<int>(jd.initial_v.size()) != joint.nv) {
        Fail(jd.where, "joints: '" + jd.name + "' initial velocity needs " +
                           std::to_string(joint.nv) + " values");
      }
      for (int k = 0; k < joint.nv; ++k) out.v0[joint.v_start + k] = jd.initial_v[k];
    }
  }
  if (!out.q0.allFinite() || !out.v0.allFinite()) {
    throw InputError(scene.file + ": non-finite initial state");
  }
  model.NormalizeQuaternions(&out.q0);
  return out;
}

}  // namespace stiction
