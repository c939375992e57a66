#pragma once
// Builds the constraints of a step's contact problem, one family at a time
// ([SAP] Sec. V and VII): contacts, joint limits, PD actuators, Cartesian
// impedance controllers, welds, joint couplers.
// Each family is one file of this folder that owns its parameters and
// regularization next to its cost; adding a family is one file plus one
// call in Build().
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/cartesian_impedance_constraints.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/contact/constraint_history.h"
#include "engine/contact/constraint_sources.h"
#include "engine/contact/contact_constraints.h"
#include "engine/contact/contact_problem.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

class ContactProblemBuilder {
 public:
  /// `model` must outlive the builder.
  explicit ContactProblemBuilder(const MultibodyModel& model);

  /// Replaces the constraints of `problem` (whose dt, A, v* and trees are
  /// set) by this step's, in family order: contacts (one per point, with one
  /// report each in *reports; their materials from `sources`), joint limits
  /// within reach, and from `sources` the PD actuators, Cartesian impedance
  /// controllers, welds and joint couplers. `cache_q0` holds the
  /// kinematics at q0 (J is evaluated at q0, [SAP] Eq. 7); v0 (the
  /// velocities at the step start) gives the Lagged model its previous
  /// normal force ([ICF] Eq. 29); margin [m] is the
  /// speculative distance within which pairs and limits are included;
  /// `history` (may be null) holds what each constraint carried in the
  /// previous step, for the carried-load regularization (near_rigid.h).
  void Build(const KinematicsCache& cache_q0, const VectorX& q0, const VectorX& v0,
             const std::vector<ContactPoint>& contacts, const ConstraintSources& sources,
             const ContactModelParameters& params, double margin, const ConstraintHistory* history,
             ContactProblem* problem, std::vector<ContactReport>* reports);

  /// Per actuator: index of its constraint in the last built problem (−1 if
  /// none, e.g. a joint on a tree without velocities).
  const std::vector<int>& actuator_constraints() const { return actuator_constraints_; }
  /// Per Cartesian impedance controller: where its rows are in the last
  /// built problem, and their frames.
  const std::vector<CartesianImpedanceRows>& cartesian_rows() const { return cartesian_rows_; }
  /// x ← A_t⁻¹ x for tree t of the last built problem, reusing the
  /// factorization its Delassus blocks used (ConstraintAssembly::SolveA).
  void SolveA(int tree, Eigen::Ref<VectorX> x) { assembly_.SolveA(tree, x); }

 private:
  ConstraintAssembly assembly_;
  std::vector<int> actuator_constraints_;
  std::vector<int> cartesian_constraints_;
  std::vector<CartesianImpedanceRows> cartesian_rows_;
};

}  // namespace stiction
