#pragma once
// The weld/ball family ([SAP] Sec. VII): a bilateral constraint between a
// frame Fa on body A and a frame Fb on body B (either may be the world),
// with the near-rigid regularization of Sec. V-B (near_rigid.h) per row
// (bilateral_constraint.h).
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_assembly.h"
#include "engine/parameters/contact_parameters.h"

namespace stiction {

enum class BodyConstraintKind {
  kWeld,  ///< Frames Fa and Fb coincide: 6 rows [ω_B − ω_A; v_Fb − v_Fa] (world).
  kBall,  ///< Origins of Fa and Fb coincide: 3 rows v_Fb − v_Fa (world).
};

struct BodyConstraint {
  BodyConstraintKind kind = BodyConstraintKind::kWeld;
  int body_a = 0, body_b = 0;  ///< Model body indices (0: the world).
  RigidTransform X_AFa;        ///< Fa in A.
  RigidTransform X_BFb;        ///< Fb in B.
};

/// Appends one constraint (6 or 3 rows) per body constraint that involves a
/// moving tree. β is `params.near_rigid_threshold`.
void AddWeldConstraints(const std::vector<BodyConstraint>& body_constraints, const ContactModelParameters& params,
                        ConstraintAssembly* assembly);

}  // namespace stiction
