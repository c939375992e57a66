// The Bullet adapter of stiction-bench: maps a SceneDescription onto a
// btDiscreteDynamicsWorld (bullet_engine.h lists the mapping and what it
// refuses) and steps it with Bullet's defaults.
#include "bench/side_by_side/bullet_engine.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bench/side_by_side/peer_engine.h"
#include "engine/common/text.h"

#ifdef STICTION_HAVE_BULLET
#include <btBulletDynamicsCommon.h>
#endif

namespace stiction::bench {

double BulletObjectFriction(double mu) { return std::sqrt(mu); }

#ifdef STICTION_HAVE_BULLET
namespace {

btVector3 ToBt(const Vector3& v) {
  return btVector3(btScalar(v.x()), btScalar(v.y()), btScalar(v.z()));
}

Vector3 FromBt(const btVector3& v) { return Vector3(v.x(), v.y(), v.z()); }

btTransform ToBt(const RigidTransform& X) {
  const Matrix3& R = X.R;
  const btMatrix3x3 basis(btScalar(R(0, 0)), btScalar(R(0, 1)), btScalar(R(0, 2)),
                          btScalar(R(1, 0)), btScalar(R(1, 1)), btScalar(R(1, 2)),
                          btScalar(R(2, 0)), btScalar(R(2, 1)), btScalar(R(2, 2)));
  return btTransform(basis, ToBt(X.p));
}

RigidTransform FromBt(const btTransform& X) {
  RigidTransform out;
  const btMatrix3x3& basis = X.getBasis();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out.R(r, c) = basis[r][c];
  }
  out.p = FromBt(X.getOrigin());
  return out;
}

bool IsIdentity(const RigidTransform& X) {
  return X.p.isZero(0.0) && X.R.isIdentity(0.0);
}

bool Finite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

/// "'name' (file:line)" for why_not messages.
std::string Named(const std::string& name, const SourceLocation& where) {
  return "'" + name + "' (" + where.ToString() + ")";
}

/// A PD actuator on a prismatic joint from the world, applied explicitly.
struct AxialActuator {
  btRigidBody* body = nullptr;
  RigidTransform X_WF;   ///< Joint frame F in the world.
  Vector3 p_CM;          ///< Origin of the joint frame M in the child body [m].
  Vector3 axis_F;        ///< Unit axis in F.
  double kp = 0, kd = 0, effort_limit = 0, q_d = 0, v_d = 0;

  /// The force along the axis [N] at the body's current state.
  double Force() const {
    const RigidTransform X_WB = FromBt(body->getCenterOfMassTransform());
    const Vector3 p_FM = X_WF.inverse() * (X_WB * p_CM);
    const double q = axis_F.dot(p_FM);
    // The slider locks rotation, so M moves with the body's linear velocity.
    const double v = (X_WF.R * axis_F).dot(FromBt(body->getLinearVelocity()));
    const double tau = -kp * (q - q_d) - kd * (v - v_d);
    return std::clamp(tau, -effort_limit, effort_limit);
  }
};

const MaterialDescription* FindMaterial(const SceneDescription& scene, const std::string& name) {
  const std::string& wanted = name.empty() ? scene.default_material : name;
  for (const MaterialDescription& material : scene.materials) {
    if (material.name == wanted) return &material;
  }
  return nullptr;
}

const JointDescription* JointOfBody(const SceneDescription& scene, const std::string& body) {
  for (const JointDescription& joint : scene.joints) {
    if (joint.child == body) return &joint;
  }
  return nullptr;
}

const JointDescription* FindJoint(const SceneDescription& scene, const std::string& name) {
  for (const JointDescription& joint : scene.joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

/// Why the geometry cannot be mapped, or "".
std::string CheckGeometry(const SceneDescription& scene, const GeometryDescription& geometry,
                          bool on_body) {
  if (!geometry.collision) return "";
  const std::string what = "geometry " + Named(geometry.name, geometry.where);
  if (geometry.shape.type == ShapeType::kMesh) return what + ": meshes are not mapped to Bullet";
  if (on_body && geometry.shape.type == ShapeType::kHalfSpace) {
    return what + ": a half-space on a moving body is not mapped to Bullet";
  }
  for (const std::string& group : geometry.groups) {
    if (!group.empty()) return what + ": collision groups are not mapped to Bullet";
  }
  if (FindMaterial(scene, geometry.material) == nullptr) {
    return what + ": unknown material '" + geometry.material + "'";
  }
  return "";
}

/// Why the joint cannot be mapped, or "".
std::string CheckJoint(const JointDescription& joint) {
  const std::string what = "joint " + Named(joint.name, joint.where);
  if (joint.type != JointType::kFree && joint.type != JointType::kPrismatic) {
    return what + ": only free and prismatic joints are mapped to Bullet";
  }
  if (joint.parent != "world") {
    return what + ": joints between two bodies are not mapped to Bullet (parent '" +
           joint.parent + "')";
  }
  if (joint.type == JointType::kFree) {
    if (joint.initial_q.size() != 7 || joint.initial_v.size() != 6) {
      return what + ": a free joint needs 7 initial coordinates and 6 velocities";
    }
    return "";
  }
  if (std::isfinite(joint.lower_limit) || std::isfinite(joint.upper_limit)) {
    return what + ": prismatic joint limits are not mapped to Bullet";
  }
  if (joint.spring_stiffness != 0 || joint.damping != 0 || joint.rotor_inertia != 0) {
    return what + ": joint springs, damping and rotor inertia are not mapped to Bullet";
  }
  if (joint.initial_q.size() != 1 || joint.initial_v.size() != 1) {
    return what + ": a prismatic joint needs 1 initial coordinate and 1 velocity";
  }
  if (joint.axis.norm() == 0) return what + ": zero axis";
  return "";
}

/// Why the scene cannot be mapped, or "" when every element can.
std::string CheckScene(const SceneDescription& scene) {
  if (!scene.grippers.empty()) {
    return "gripper (" + scene.grippers.front().where.ToString() + "): the gripper is not mapped to Bullet";
  }
  if (!scene.constraints.empty()) {
    const ConstraintDescription& constraint = scene.constraints.front();
    return "constraint " + Named(constraint.name, constraint.where) +
           ": weld and ball constraints are not mapped to Bullet";
  }
  if (!scene.couplers.empty()) {
    const JointCouplerDescription& c = scene.couplers.front();
    return "coupler of joint '" + c.joint + "' (" + c.where.ToString() + "): joint couplers are not mapped to Bullet";
  }
  // Articulated trees first, so that a robot is refused for what it is
  // rather than for its first link's inertia: the adapter builds
  // btRigidBody objects only (no btMultiBody), jointed to the world.
  for (const JointDescription& joint : scene.joints) {
    if (joint.parent != "world" && joint.type != JointType::kFree) {
      return "joint " + Named(joint.name, joint.where) +
             ": articulated bodies (a joint between two bodies) are not mapped to Bullet (the adapter has no "
             "btMultiBody)";
    }
  }
  for (const GeometryDescription& geometry : scene.world_geometries) {
    if (std::string why = CheckGeometry(scene, geometry, false); !why.empty()) return why;
  }
  for (const BodyDescription& body : scene.bodies) {
    const std::string what = "body " + Named(body.name, body.where);
    if (!body.com_B.isZero(0.0)) return what + ": a centre of mass off the body origin is not mapped to Bullet";
    // Products of inertia below 1e-9 of the largest moment are round-off
    // (e.g. of a rotated shape's computed inertia); larger ones are real.
    const double scale = body.I_Bcm_B.diagonal().cwiseAbs().maxCoeff();
    const Matrix3 off = body.I_Bcm_B - Matrix3(body.I_Bcm_B.diagonal().asDiagonal());
    if (off.cwiseAbs().maxCoeff() > 1e-9 * scale) {
      return what + ": a non-diagonal inertia is not mapped to Bullet";
    }
    const MaterialDescription* first = nullptr;
    for (const GeometryDescription& geometry : body.geometries) {
      if (std::string why = CheckGeometry(scene, geometry, true); !why.empty()) return why;
      if (!geometry.collision) continue;
      const MaterialDescription* material = FindMaterial(scene, geometry.material);
      if (first == nullptr) first = material;
      if (material->material.friction != first->material.friction) {
        return "geometry " + Named(geometry.name, geometry.where) +
               ": Bullet has one friction per body, and this body's geometries differ";
      }
    }
    const JointDescription* joint = JointOfBody(scene, body.name);
    if (joint == nullptr) return what + ": has no joint (not even a free one)";
    if (std::string why = CheckJoint(*joint); !why.empty()) return why;
  }
  for (const ActuatorDescription& actuator : scene.actuators) {
    const JointDescription* joint = FindJoint(scene, actuator.joint);
    if (joint == nullptr || joint->type != JointType::kPrismatic) {
      return "actuator " + Named(actuator.name, actuator.where) +
             ": only actuators on prismatic joints from the world are mapped to Bullet";
    }
  }
  return "";
}

/// Rotation whose x axis is the unit vector `x` (btSliderConstraint slides
/// along its frames' x axis).
Matrix3 FrameWithXAxis(const Vector3& x) {
  const Vector3 helper = std::abs(x.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  const Vector3 y = x.cross(helper).normalized();
  Matrix3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = x.cross(y);
  return R;
}

class BulletEngine final : public PeerEngine {
 public:
  explicit BulletEngine(const SceneDescription& scene) : time_step_(scene.time_step) {
    collision_configuration_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(collision_configuration_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                       solver_.get(), collision_configuration_.get());
    world_->setGravity(ToBt(scene.gravity));
    for (const GeometryDescription& geometry : scene.world_geometries) {
      if (!geometry.collision) continue;
      AddBody(0.0, Vector3::Zero(), MakeShape(geometry.shape), geometry.X_BG,
              FindMaterial(scene, geometry.material)->material.friction);
    }
    for (const BodyDescription& body : scene.bodies) AddSceneBody(scene, body);
    for (const ActuatorDescription& actuator : scene.actuators) {
      const JointDescription& joint = *FindJoint(scene, actuator.joint);
      for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
        if (scene.bodies[b].name != joint.child) continue;
        AxialActuator a;
        a.body = bodies_[b];
        a.X_WF = joint.X_PF;
        a.p_CM = joint.X_CM.p;
        a.axis_F = joint.axis.normalized();
        a.kp = actuator.kp;
        a.kd = actuator.kd;
        a.effort_limit = actuator.effort_limit;
        a.q_d = actuator.target_position;
        a.v_d = actuator.target_velocity;
        actuators_.push_back(a);
      }
    }
  }

  ~BulletEngine() override {
    // Take everything out of the world before the unique_ptrs free it (the
    // world's destructor would otherwise still visit the objects).
    for (int i = world_->getNumConstraints() - 1; i >= 0; --i) {
      world_->removeConstraint(world_->getConstraint(i));
    }
    for (int i = world_->getNumCollisionObjects() - 1; i >= 0; --i) {
      world_->removeCollisionObject(world_->getCollisionObjectArray()[i]);
    }
  }

  BulletEngine(const BulletEngine&) = delete;
  BulletEngine& operator=(const BulletEngine&) = delete;

  std::string label() const override {
    const int version = btGetVersion();  // e.g. 324 for 3.24.
    return StringPrintf("Bullet %d.%02d SI", version / 100, version % 100);
  }

  bool Step(std::string* error) override {
    // Explicit PD: the force is evaluated at the start of the step and held
    // (Bullet clears applied forces after every stepSimulation).
    for (const AxialActuator& actuator : actuators_) {
      const Vector3 axis_W = actuator.X_WF.R * actuator.axis_F;
      actuator.body->applyCentralForce(ToBt(actuator.Force() * axis_W));
    }
    // maxSubSteps = 0 selects Bullet's variable-step mode: exactly one
    // internal step of length timeStep (none if timeStep is fuzzy-zero).
    const int steps = world_->stepSimulation(btScalar(time_step_), 0);
    if (steps != 1) {
      if (error) *error = "Bullet took " + std::to_string(steps) + " internal steps instead of 1";
      return false;
    }
    last_max_penetration_ = 0;
    for (int m = 0; m < dispatcher_->getNumManifolds(); ++m) {
      const btPersistentManifold* manifold = dispatcher_->getManifoldByIndexInternal(m);
      for (int c = 0; c < manifold->getNumContacts(); ++c) {
        last_max_penetration_ =
            std::max(last_max_penetration_, -double(manifold->getContactPoint(c).getDistance()));
      }
    }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const btRigidBody* body = bodies_[b];
      const btTransform& X = body->getCenterOfMassTransform();
      const btMatrix3x3& R = X.getBasis();
      if (!Finite(X.getOrigin()) || !Finite(R[0]) || !Finite(R[1]) || !Finite(R[2]) ||
          !Finite(body->getLinearVelocity()) || !Finite(body->getAngularVelocity())) {
        if (error) *error = "Bullet: body " + std::to_string(b) + " has a non-finite state";
        return false;
      }
    }
    return true;
  }

  Vector3 BodyPosition(int i) const override {
    // com_B = 0 is enforced, so Bullet's centre of mass is the body origin.
    return FromBt(bodies_.at(std::size_t(i))->getCenterOfMassPosition());
  }

  Vector3 BodyVelocity(int i) const override {
    return FromBt(bodies_.at(std::size_t(i))->getLinearVelocity());
  }

  double LastIterations() const override {
    // Bullet's SI runs a fixed number of Gauss-Seidel sweeps per step: its
    // residual threshold (m_leastSquaresResidualThreshold) defaults to 0, so
    // it stops early only on an exactly zero residual (or with no
    // constraints at all). The configured count is what it does.
    return world_->getSolverInfo().m_numIterations;
  }

  double LastMaxPenetration() const override { return last_max_penetration_; }

 private:
  btCollisionShape* Own(std::unique_ptr<btCollisionShape> shape) {
    shapes_.push_back(std::move(shape));
    return shapes_.back().get();
  }

  btCollisionShape* MakeShape(const ShapeDescription& shape) {
    const btScalar r = btScalar(shape.radius);
    const btScalar length = btScalar(shape.length);
    switch (shape.type) {
      case ShapeType::kSphere:
        return Own(std::make_unique<btSphereShape>(r));
      case ShapeType::kBox:
        return Own(std::make_unique<btBoxShape>(ToBt(shape.size / 2)));
      case ShapeType::kCapsule:
        // Bullet's height is the distance between the cap centres, as
        // Stiction's length.
        return Own(std::make_unique<btCapsuleShapeZ>(r, length));
      case ShapeType::kCylinder:
        return Own(std::make_unique<btCylinderShapeZ>(btVector3(r, r, length / 2)));
      case ShapeType::kHalfSpace:
        // Everything below z = 0 of the geometry frame; the object's world
        // transform places it.
        return Own(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), btScalar(0)));
      case ShapeType::kMesh:
        break;  // Refused by CheckScene.
    }
    return nullptr;
  }

  /// Adds a rigid body of `mass` (0 = static) with diagonal inertia
  /// `inertia` [kg m²] at pose X_W and returns it.
  btRigidBody* AddBody(double mass, const Vector3& inertia, btCollisionShape* shape,
                       const RigidTransform& X_W, double mu) {
    btRigidBody::btRigidBodyConstructionInfo info(btScalar(mass), nullptr, shape, ToBt(inertia));
    info.m_startWorldTransform = ToBt(X_W);
    info.m_friction = btScalar(BulletObjectFriction(mu));
    info.m_restitution = 0;
    info.m_rollingFriction = 0;
    info.m_spinningFriction = 0;
    objects_.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody* body = objects_.back().get();
    world_->addRigidBody(body);
    return body;
  }

  void AddSceneBody(const SceneDescription& scene, const BodyDescription& description) {
    std::vector<const GeometryDescription*> colliding;
    for (const GeometryDescription& geometry : description.geometries) {
      if (geometry.collision) colliding.push_back(&geometry);
    }
    btCollisionShape* shape = nullptr;
    double mu = 0;
    if (colliding.empty()) {
      shape = Own(std::make_unique<btEmptyShape>());
    } else {
      mu = FindMaterial(scene, colliding.front()->material)->material.friction;
      if (colliding.size() == 1 && IsIdentity(colliding.front()->X_BG)) {
        shape = MakeShape(colliding.front()->shape);
      } else {
        auto compound = std::make_unique<btCompoundShape>();
        for (const GeometryDescription* geometry : colliding) {
          compound->addChildShape(ToBt(geometry->X_BG), MakeShape(geometry->shape));
        }
        shape = Own(std::move(compound));
      }
    }

    const JointDescription& joint = *JointOfBody(scene, description.name);
    RigidTransform X_WM;
    Vector3 w_W = Vector3::Zero();
    Vector3 v_WM = Vector3::Zero();
    if (joint.type == JointType::kFree) {
      const std::vector<double>& q = joint.initial_q;
      const std::vector<double>& v = joint.initial_v;
      const RigidTransform X_FM{Quaternion(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix(),
                                Vector3(q[4], q[5], q[6])};
      X_WM = joint.X_PF * X_FM;
      w_W = X_WM.R * Vector3(v[0], v[1], v[2]);  // ω is measured in M.
      v_WM = joint.X_PF.R * Vector3(v[3], v[4], v[5]);  // v of M's origin, in F.
    } else {  // Prismatic from the world.
      const Vector3 axis_F = joint.axis.normalized();
      X_WM = joint.X_PF * RigidTransform{Matrix3::Identity(), axis_F * joint.initial_q[0]};
      v_WM = joint.X_PF.R * axis_F * joint.initial_v[0];
    }
    const RigidTransform X_WB = X_WM * joint.X_CM.inverse();
    btRigidBody* body = AddBody(description.mass, description.I_Bcm_B.diagonal(), shape, X_WB, mu);
    body->setAngularVelocity(ToBt(w_W));
    body->setLinearVelocity(ToBt(v_WM + w_W.cross(X_WB.p - X_WM.p)));
    bodies_.push_back(body);

    if (joint.type == JointType::kPrismatic) {
      // The slider's frame: origin at M, x along the axis, fixed in the
      // world (frame A) and in the body (frame B); they coincide now.
      const RigidTransform X_WS{FrameWithXAxis(joint.X_PF.R * joint.axis.normalized()), X_WM.p};
      constraints_.push_back(
          std::make_unique<btSliderConstraint>(*body, ToBt(X_WB.inverse() * X_WS), true));
      world_->addConstraint(constraints_.back().get(), true);
    }
  }

  // Declaration order = construction order; destruction runs backwards, so
  // the world goes first, then constraints, bodies and shapes, and the
  // solver, broadphase, dispatcher and configuration last.
  std::unique_ptr<btDefaultCollisionConfiguration> collision_configuration_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btDbvtBroadphase> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> objects_;  ///< Static and dynamic.
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<btRigidBody*> bodies_;  ///< Index = scene body index.
  std::vector<AxialActuator> actuators_;
  double time_step_;                  ///< δt [s].
  double last_max_penetration_ = 0;   ///< [m].
};

}  // namespace

std::unique_ptr<PeerEngine> MakeBulletEngine(const SceneDescription& scene, std::string* why_not) {
  if (std::string why = CheckScene(scene); !why.empty()) {
    if (why_not) *why_not = why;
    return nullptr;
  }
  return std::make_unique<BulletEngine>(scene);
}

#else  // !STICTION_HAVE_BULLET

std::unique_ptr<PeerEngine> MakeBulletEngine(const SceneDescription&, std::string* why_not) {
  if (why_not) *why_not = "built without Bullet (libbullet-dev)";
  return nullptr;
}

#endif  // STICTION_HAVE_BULLET

}  // namespace stiction::bench
