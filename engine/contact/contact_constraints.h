#pragma once
// The contact family: one constraint per contact point of the step ([SAP]
// Sec. V), with its contact frame and Jacobian, the combined material of
// the pair, and the parameters of the pair's contact model — a SAP friction
// cone (friction_cone_constraint.h) or a Hunt & Crossley constraint
// (hunt_crossley_constraint.h).
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/contact/constraint_evaluation.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

/// How two materials combine (documented in docs/contact-model.md): the
/// stiffnesses as springs in series, the dissipation so that the damping
/// coefficients c = τd k also combine in series, the Hunt & Crossley d
/// weighted by the other side's stiffness, d = (k_B d_A + k_A d_B)/(k_A + k_B)
/// (the softer side deforms more and dominates), μ by the harmonic-style
/// mean 2μ_Aμ_B/(μ_A + μ_B) (0 when either is 0), v_s the smaller (tighter)
/// of the two. The model: the one either material names (they must agree
/// when both do; the loader and SetMaterial enforce it), else nullopt.
ContactMaterial CombineMaterials(const ContactMaterial& a, const ContactMaterial& b);

/// The material of every collision geometry, as an index into the scene's
/// named materials, so that editing a material reaches every geometry that
/// uses it.
struct GeometryMaterials {
  std::vector<ContactMaterial> materials;  ///< Per named material, in scene order.
  std::vector<int> of_geometry;            ///< Per collision geometry: its material's index.
  const ContactMaterial& of(int geometry) const { return materials[of_geometry[geometry]]; }
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
  /// A pressure-field polygon's surface (CollisionWorld::contact_surfaces())
  /// and polygon; −1 for rigid point contacts.
  int surface = -1, polygon = -1;
};

/// Appends one constraint per contact point between moving bodies, in the
/// order of `contacts` (points of one manifold consecutive), and one report
/// each, in constraint order. `params`: β, σ and the model of pairs whose
/// materials name none. The Lagged model's previous normal impulse comes from the
/// velocities at the step start ([ICF] Eq. 29).
void AddContactConstraints(const std::vector<ContactPoint>& contacts, const GeometryMaterials& materials,
                           const ContactModelParameters& params, ConstraintAssembly* assembly,
                           std::vector<ContactReport>* reports);

/// Sudden loads: whether some contact manifold of `problem` carried, in the
/// solved impulses `gamma` (stacked in problem order), more than
/// `params.load_resolve_ratio` times the load its λ assumed: the clamped
/// mean of its points' w γ_n/(a δt) (near_rigid.h, Eq. L1) against the λ
/// they were made with, while giving way under it: the manifold's normal
/// impulses did negative work Σ γ_n v_n < 0 at the solved velocities `v`
/// (every tree's, the stepper's order), so its points were pressed further
/// in. A manifold whose impulses push its bodies apart (Σ γ_n v_n ≥ 0) is
/// releasing a depth it started with, not carrying a load: stiffening it
/// would only release more (a body squeezed between two others, issue 36).
/// `gravity` [m/s²] is the scene's |g|. False when the carried-load
/// estimate is off.
bool CarriedLoadJumped(const ContactProblem& problem, const VectorX& gamma, const VectorX& v, double gravity,
                       const ContactModelParameters& params);

}  // namespace stiction
