#pragma once
// Stiction behind the side-by-side benchmark's PeerEngine interface: one
// row per solver and contact model the engine has.
#include <memory>
#include <string>
#include <vector>

#include "bench/side_by_side/peer_engine.h"

namespace stiction::bench {

enum class StictionVariant {
  kSap,                ///< SAP solver, SAP contact model (the default).
  kSapPaper,           ///< kSap with [SAP] Eq. (29) as published (no carried-load estimate).
  kLagged,             ///< SAP solver, Lagged Hunt & Crossley ([ICF] Sec. VI-B).
  kSimilar,            ///< SAP solver, Similar Hunt & Crossley (Sec. VI-C).
  kRegularizedLagged,  ///< SAP solver, regularized Lagged (Eq. 44).
  kCanal,              ///< CANAL, exact Coulomb ([CANAL] Sec. IV-V).
  kSubAdmm1,           ///< SubADMM on 1 thread ([CANAL] Sec. VI).
  kSubAdmm2,           ///< SubADMM on 2 threads.
  kPgs,                ///< PGS on the exact NCP ([CANAL] Sec. VII's baseline).
  kPgsRegularized,     ///< PGS on SAP's regularized dual (MuJoCo's formulation).
};

/// Contact stiffness cap of the Hunt & Crossley variants [N/m]: they have no
/// near-rigid regularization, so they run at [ICF]'s clutter stiffness
/// (Sec. X-A) instead of the scenes' near-rigid 1e12.
inline constexpr double kHuntCrossleyBenchStiffness = 1e7;

std::vector<StictionVariant> AllStictionVariants();
/// "sap", "sap_paper", "lagged", "similar", "reg_lagged", "canal", "subadmm1", "subadmm2",
/// "pgs", "pgs_reg".
const char* StictionVariantKey(StictionVariant v);

/// Stiction running `scene` in `variant`. The scene's own parameters are kept
/// (materials, σ, β, tolerances); the variant picks the solver and the
/// scene-wide contact model; the Hunt & Crossley variants cap k and use
/// symplectic Euler, as [ICF] runs them. Returns nullptr and sets `why_not` when the
/// scene does not build.
std::unique_ptr<PeerEngine> MakeStictionEngine(const SceneDescription& scene, StictionVariant variant,
                                               std::string* why_not);

}  // namespace stiction::bench
