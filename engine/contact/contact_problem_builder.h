#pragma once
// Turns the contact points of a step into SAP constraints ([SAP] Sec. V):
// contact frames and Jacobians, the physical parameters k, τd, μ of each
// pair, and the regularization R, v̂ of Eqs. (29)–(30). Also adds near-rigid
// joint-limit constraints, implicit PD actuators with effort limits and
// weld/ball constraints (Sec. VII).
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/common/eigen_types.h"
#include "engine/contact/contact_problem.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"

namespace stiction {

/// The convex contact models (docs/contact-model.md):
///  kSap: SAP's linear dissipation τd and regularized friction ([SAP]
///        Eqs. 27–30);
///  kLagged, kSimilar: Hunt & Crossley compliance with the regularized
///        friction of [ICF] Sec. VI-B / VI-C;
///  kRegularizedLagged: Lagged with ε_s = max(v_s, σ w μ γ_n0) (002 Eq. 44).
enum class ContactModel { kSap, kLagged, kSimilar, kRegularizedLagged };
/// "sap", "lagged", "similar", "regularized_lagged".
const char* ContactModelName(ContactModel model);
/// The model of a name above; nullopt if unknown.
std::optional<ContactModel> ParseContactModel(const std::string& name);

/// Physical contact parameters of one material (SI units).
struct ContactMaterial {
  double stiffness = 1e6;    ///< k [N/m] (every model).
  double dissipation = 0.01; ///< τd [s] (SAP).
  double friction = 0.5;     ///< μ (every model).
  double hc_dissipation = 10.0;     ///< Hunt & Crossley d [s/m] (Lagged, Similar).
  double stiction_velocity = 1e-4;  ///< Stiction tolerance v_s [m/s] (Lagged, Similar).
  /// The model for contacts with this material; nullopt: the scene's.
  std::optional<ContactModel> model;
};

/// How two materials combine (documented in docs/contact-model.md): the
/// stiffnesses as springs in series, the dissipation so that the damping
/// coefficients c = τd k also combine in series, the Hunt & Crossley d
/// weighted by the other side's stiffness, d = (k_B d_A + k_A d_B)/(k_A + k_B)
/// (the softer side deforms more and dominates), μ by the harmonic-style
/// mean 2μ_Aμ_B/(μ_A + μ_B) (0 when either is 0), v_s the smaller (tighter)
/// of the two. The model: the one either material names (they must agree
/// when both do; the loader and SetMaterial enforce it), else nullopt.
ContactMaterial CombineMaterials(const ContactMaterial& a, const ContactMaterial& b);

/// Solver-independent model parameters ([SAP] Sec. V-B).
struct ContactModelParameters {
  double near_rigid_threshold = 1.0;  ///< β of Eq. (29), ≥ 0 (SAP model).
  double stiction_tolerance = 1e-3;   ///< σ of Eq. (30), > 0 (SAP, regularized Lagged).
  ContactModel model = ContactModel::kSap;  ///< For pairs whose materials name none.
};

/// What the stepper reports per contact after the solve.
struct ContactReport {
  int body_a = 0, body_b = 0;
  Vector3 p_W = Vector3::Zero();     ///< Contact point [m].
  Matrix3 R_WC = Matrix3::Identity(); ///< Contact frame; z = n̂ from A to B.
  double phi = 0;                    ///< Signed distance at the step start [m].
  double mu = 0;
  ContactModel model = ContactModel::kSap;  ///< The model that ran.
  Vector3 gamma_C = Vector3::Zero(); ///< Impulse on B, contact frame [N s].
  Vector3 vc = Vector3::Zero();      ///< Velocity of B relative to A, frame C [m/s].
  ConeRegion region = ConeRegion::kNoContact;
};

/// A PD controller on a revolute or prismatic joint ([SAP] Sec. VII),
/// solved implicitly: τ = −kp (q − q_d) − kd (v − v_d) with q = q0 + δt v,
/// clamped to ±effort_limit. docs/contact-model.md, "Actuators and
/// constraints".
struct JointActuator {
  int joint = -1;            ///< Model joint index (revolute or prismatic).
  double kp = 0;             ///< [N m/rad] or [N/m], ≥ 0.
  double kd = 0;             ///< [N m s/rad] or [N s/m], ≥ 0; kp + kd > 0.
  double effort_limit = std::numeric_limits<double>::infinity();  ///< [N m] or [N], > 0.
  double target_position = 0;  ///< q_d.
  double target_velocity = 0;  ///< v_d.
};

enum class BodyConstraintKind {
  kWeld,  ///< Frames Fa and Fb coincide: 6 rows [ω_B − ω_A; v_Fb − v_Fa] (world).
  kBall,  ///< Origins of Fa and Fb coincide: 3 rows v_Fb − v_Fa (world).
};

/// A bilateral constraint between frame Fa on body A and Fb on body B (either
/// may be the world, index 0), with the near-rigid regularization of Sec. V-B.
struct BodyConstraint {
  BodyConstraintKind kind = BodyConstraintKind::kWeld;
  int body_a = 0, body_b = 0;
  RigidTransform X_AFa;  ///< Fa in A.
  RigidTransform X_BFb;  ///< Fb in B.
};

class ContactProblemBuilder {
 public:
  /// `materials[g]`: the material of collision geometry g.
  ContactProblemBuilder(const MultibodyModel& model, std::vector<ContactMaterial> materials);

  /// Appends to `problem` (whose A, v*, trees are already set) one contact
  /// constraint per contact point (a SAP friction cone or a Hunt & Crossley
  /// constraint, by the pair's model) and the active joint limits. `cache`
  /// holds the kinematics at q0 (SAP evaluates J at q0, Eq. 7); v0 (the
  /// velocities at the step start) gives the Lagged model its previous normal
  /// force ([ICF] Eq. 29). Fills one report per contact, in constraint
  /// order.
  void Build(const KinematicsCache& cache, const VectorX& q0, const VectorX& v0,
             const std::vector<ContactPoint>& contacts, const ContactModelParameters& params,
             double margin, ContactProblem* problem, std::vector<ContactReport>* reports);

  /// Moves the constraints of the last problem into a pool whose storage
  /// (Jacobian blocks) the next Build() reuses, and clears *constraints.
  /// Call instead of constraints.clear() to avoid per-step allocations.
  void Recycle(std::vector<Constraint>* constraints);

  std::vector<ContactMaterial>& materials() { return materials_; }
  /// PD actuators and body constraints appended by every Build() (after the
  /// contacts and joint limits). Editable between steps.
  std::vector<JointActuator>& actuators() { return actuators_; }
  std::vector<BodyConstraint>& body_constraints() { return body_constraints_; }
  /// Per actuator: index of its constraint in the last built problem (-1 if
  /// none, e.g. a joint on a tree without velocities).
  const std::vector<int>& actuator_constraints() const { return actuator_constraints_; }

 private:
  // A_t⁻¹ for the O(n) Delassus estimate of Sec. V-B, factored on demand
  // (once per tree and step; fixed-size LLT for 6-DOF trees).
  const MatrixX& InverseA(const ContactProblem& problem, int tree);
  // Appends a constraint with `num_blocks` Jacobian blocks to the problem,
  // reusing the storage of a recycled one; all other fields are defaults.
  Constraint& AppendConstraint(ContactProblem* problem, int num_blocks);
  // W += J A_t⁻¹ Jᵀ for a 3-row block (fixed-size kernels for 6 columns).
  void AddDelassusBlock(const ContactProblem& problem, const ConstraintJacobianBlock& b,
                        Matrix3* W);

  const MultibodyModel& model_;
  std::vector<ContactMaterial> materials_;
  std::vector<JointActuator> actuators_;
  std::vector<BodyConstraint> body_constraints_;
  std::vector<int> actuator_constraints_;
  std::vector<MatrixX> A_inverse_;
  std::vector<bool> A_inverse_valid_;
  Eigen::LLT<MatrixX> llt_;           // Scratch for trees that are not 6-DOF.
  std::vector<Constraint> pool_;      // Recycled constraints (see Recycle()).
  Matrix6X jacobian_;                 // Scratch: a tree frame Jacobian.
  MatrixX JA_;                        // Scratch: J A⁻¹ for trees that are not 6-DOF.
  MatrixX self_jacobian_;             // Scratch: body A's block of a self-contact.
};

}  // namespace stiction
