#pragma once
// Spatial vectors in Featherstone's notation, [angular; linear], expressed in
// the world frame W and measured at the world origin Wo.
//   Motion vector  V = [ω; v_Wo]  where v_Wo = v_P - ω × p_WP for any point P
//                                   of the body (velocity of the body-fixed
//                                   point that passes through Wo).
//   Force vector   F = [τ_Wo; f]  (moment about Wo; force).
// With a single reference point, composite inertias are plain sums and no
// shift operators are needed (Featherstone, RBDA §2.9 / §4.x).
#include "engine/common/eigen_types.h"

namespace stiction {

/// Motion cross product V ×ₘ m (RBDA Eq. 2.31).
Vector6 CrossMotion(const Vector6& V, const Vector6& m);
/// Force cross product V ×f f = -(V ×ₘ)ᵀ f (RBDA Eq. 2.32).
Vector6 CrossForce(const Vector6& V, const Vector6& f);

/// 6×6 spatial inertia about the world origin of a body of mass m [kg] whose
/// centre of mass is at p_WBcm [m] and whose rotational inertia about the COM,
/// expressed in W, is I_Bcm_W [kg m²]:
///   [ I_Bcm + m [c]×[c]×ᵀ   m [c]× ]
///   [ m [c]×ᵀ               m 𝟙    ]
Matrix6 SpatialInertiaAboutWorldOrigin(double m, const Vector3& p_WBcm,
                                       const Matrix3& I_Bcm_W);

/// Linear velocity of point P (at p_WP) of a body moving with spatial
/// velocity V: v_P = v_Wo + ω × p_WP.
inline Vector3 PointVelocity(const Vector6& V, const Vector3& p_WP) {
  return V.tail<3>() + V.head<3>().cross(p_WP);
}

}  // namespace stiction
