#pragma once
// The NMDP time-stepping schemes of [NMDP] (docs/nmdp.md): one step from
// (q, v) to (q₊, v₊) with the contact forces of the nonconvex maximal
// dissipation principle (Eq. 6) in the wrench polytopes of the contact
// points (nmdp_contact_points.h), by
//   NMDP-PGM    the first-order projected gradient method (Alg. 1: the QP of
//               Eq. 8, the manifold projection of Eq. 9, a line search on α);
//   NMDP-ZOPGM  its zeroth-order variant (Eqs. 10–11);
// both inside the adaptive subdivision of Alg. 2 (halve δt and recurse when
// the projection diverges or F_v is near singular); or
//   NE-MDP      the linearized (forward) dynamics of Eq. (3) with one MDP QP.
// The joint PD controllers are the stable PD of [StablePD], inside F.
// A step never throws: failures come back as a status with a one-line reason
// and leave the outputs untouched. The sibling of ThetaMethodStepper behind
// the Stepper interface (stepper.h): Step takes the contact points from the
// collision world and the PD controllers from the ConstraintSources, and
// reports each point's impulse as a contact.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_sources.h"
#include "engine/geometry/collision_world.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/stepping/nmdp_contact_points.h"
#include "engine/stepping/nmdp_residual.h"
#include "engine/stepping/step_result.h"
#include "engine/stepping/stepper.h"

namespace stiction {

/// The force one contact point carried at the end of a step.
struct NmdpPointForce {
  NmdpCandidatePoint candidate;
  Vector3 p_W = Vector3::Zero();  ///< The contact point on the sphere's surface [m].
  double phi = 0;                 ///< Signed distance at the end of the step [m].
  Vector3 f_W = Vector3::Zero();  ///< Force on the body [N].
};

class NmdpStepper : public Stepper {
 public:
  /// `collision` may be null (no contact) and `sources` null (no materials
  /// or actuators); when given they must outlive the stepper, as must
  /// `model`.
  explicit NmdpStepper(const MultibodyModel& model, const CollisionWorld* collision = nullptr,
                       const ConstraintSources* sources = nullptr);

  /// One step of params.scheme (an NMDP scheme, not the θ-method) with the
  /// collision world's points and the sources' PD actuators; refuses weld
  /// and ball constraints, joint couplers and Cartesian impedance
  /// controllers.
  StepStatus Step(const StepperParameters& params, const VectorX& q0, const VectorX& v0,
                  const VectorX* tau_ext, VectorX* q, VectorX* v, StepStats* stats,
                  std::string* message) override;
  /// Forgets the weights that warm-start the next step (after a reset).
  void ClearHistory() override { warm_weights_.clear(); }
  void SaveMemory(StepperMemory* m) const override {
    Stepper::SaveMemory(m);
    m->warm_weights = warm_weights_;
  }
  void RestoreMemory(const StepperMemory& m) override {
    Stepper::RestoreMemory(m);
    warm_weights_ = m.warm_weights;
  }

  /// The scheme itself, on given points: one step of `scheme` over dt [s].
  /// `candidates`: every point that may touch (the step uses those within
  /// reach of their plane); `pd`: the joint controllers with their targets
  /// at t + dt. On success writes q, v, the statistics and forces();
  /// otherwise returns the status and a one-line *message.
  StepStatus StepPoints(SteppingScheme scheme, const NmdpParameters& params, double dt,
                        const std::vector<NmdpCandidatePoint>& candidates, const std::vector<NmdpJointPd>& pd,
                        const VectorX& q0, const VectorX& v0, const VectorX* tau_ext, VectorX* q, VectorX* v,
                        StepStats* stats, std::string* message);
  /// Per point in reach at the end of the last step: its force.
  const std::vector<NmdpPointForce>& forces() const { return forces_; }

 private:
  // Step's parts: the candidate points of the collision world (false, with
  // *message, when the scene has what the schemes do not support); the PD
  // actuators as stable PD controllers; what the viewer and the CLI read
  // after the step (each point's impulse as a contact, the actuators'
  // efforts at the new state).
  bool ListCandidates(const StepperParameters& params, std::vector<NmdpCandidatePoint>* candidates,
                      std::string* message) const;
  std::vector<NmdpJointPd> JointControllers() const;
  void ReportContacts(double dt);
  void ReportEfforts(const std::vector<NmdpJointPd>& pd, const VectorX& q, const VectorX& v);

  struct Substep;  // One PGM solve (nmdp_stepper.cpp).
  StepStatus Subdivide(const Substep& base, const VectorX& q0, const VectorX& v0, double dt, int depth,
                       VectorX* q, VectorX* v, StepStats* stats, std::string* message);
  StepStatus StepLinearized(const Substep& base, const VectorX& q0, const VectorX& v0, double dt, VectorX* q,
                            VectorX* v, StepStats* stats, std::string* message);
  // The candidates within reach of their plane over a step of dt from (q, v).
  std::vector<NmdpCandidatePoint> PointsInReach(const Substep& base, const VectorX& q, const VectorX& v,
                                                double dt) const;
  // Whether `points` are more than the dense QP is sized for (then sets
  // *message).
  static bool TooManyPoints(const Substep& base, const std::vector<NmdpCandidatePoint>& points,
                            std::string* message);
  // Records the weights (warm start) and the points' forces at the end state.
  void Record(const Substep& base, const std::vector<NmdpCandidatePoint>& points, const VectorX& w,
              const VectorX& q_next, const VectorX& v_next);

  const MultibodyModel& model_;
  const CollisionWorld* collision_;
  const ConstraintSources no_sources_;  // What sources_ points at when none are given.
  const ConstraintSources& sources_;
  std::unordered_map<std::uint64_t, Eigen::VectorXd> warm_weights_;
  std::vector<NmdpPointForce> forces_;
};

}  // namespace stiction
