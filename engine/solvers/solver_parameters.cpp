#include "engine/solvers/solver_parameters.h"

#include <cmath>
#include <string>

#include "engine/common/error.h"

namespace stiction {

namespace {

void Require(const char* solver, bool ok, const char* what) {
  if (!ok) throw InputError(std::string(solver) + " " + what);
}

constexpr const char* kCanal = "canal";
constexpr const char* kSubAdmm = "subadmm";

}  // namespace

void ValidateCanalParameters(const CanalSolverParameters& p) {
  Require(kCanal, std::isfinite(p.initial_penalty) && p.initial_penalty > 0,
          "initial_penalty (AL penalty beta0) must be positive and finite [kg]");
  Require(kCanal, std::isfinite(p.penalty_growth) && p.penalty_growth > 1,
          "penalty_growth (kappa) must be > 1 and finite");
  Require(kCanal, std::isfinite(p.max_penalty) && p.max_penalty >= p.initial_penalty,
          "max_penalty (beta_max) must be finite and >= initial_penalty [kg]");
  Require(kCanal, std::isfinite(p.residual_ratio) && p.residual_ratio > 0 && p.residual_ratio < 1,
          "residual_ratio (zeta) must be in (0, 1)");
  Require(kCanal, std::isfinite(p.tolerance) && p.tolerance > 0, "tolerance must be positive and finite [m/s]");
  Require(kCanal, p.max_iterations >= 1, "max_iterations must be >= 1");
  Require(kCanal, std::isfinite(p.newton_tolerance) && p.newton_tolerance >= 0 && p.newton_tolerance < 1,
          "newton_tolerance must be in [0, 1)");
  Require(kCanal, p.max_newton_iterations >= 1, "max_newton_iterations must be >= 1");
  Require(kCanal, std::isfinite(p.penetration_recovery) && p.penetration_recovery > 0 &&
              p.penetration_recovery <= 1,
          "penetration_recovery must be in (0, 1]");
  Require(kCanal, p.dense_max_size >= 0, "dense_max_size must be >= 0");
}

void ValidateSubAdmmParameters(const SubAdmmSolverParameters& p) {
  Require(kSubAdmm, std::isfinite(p.initial_penalty) && p.initial_penalty >= 0,
          "initial_penalty (beta0) must be >= 0 and finite [kg] (0: automatic)");
  Require(kSubAdmm, std::isfinite(p.penalty_balance) && p.penalty_balance > 1,
          "penalty_balance (gamma) must be > 1 and finite");
  Require(kSubAdmm, std::isfinite(p.tolerance) && p.tolerance > 0, "tolerance must be positive and finite");
  Require(kSubAdmm, p.max_iterations >= 1, "max_iterations must be >= 1");
  Require(kSubAdmm, p.num_threads >= 1 && p.num_threads <= 256, "num_threads must be in [1, 256]");
  Require(kSubAdmm, std::isfinite(p.penetration_recovery) && p.penetration_recovery > 0 &&
                        p.penetration_recovery <= 1,
          "penetration_recovery must be in (0, 1]");
}

}  // namespace stiction
