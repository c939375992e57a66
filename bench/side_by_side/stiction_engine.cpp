#include "bench/side_by_side/stiction_engine.h"

#include <algorithm>
#include <exception>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"

namespace stiction::bench {
namespace {

bool IsHuntCrossley(StictionVariant v) {
  return v == StictionVariant::kLagged || v == StictionVariant::kSimilar ||
         v == StictionVariant::kRegularizedLagged;
}

// The Hunt & Crossley models have no near-rigid cap (SAP's β, Eq. 29): at the
// scenes' k = 1e12 N/m the Newton matrix is too ill-conditioned at 10 ms and
// SAP stalls. They run as [ICF] runs them (Sec. X-A), as the peers run
// their own contact models: k = min(k, 1e7) N/m and symplectic Euler (the
// midpoint rule makes stiff H&C contact ring, docs/contact-model.md).
SceneDescription ForVariant(SceneDescription scene, StictionVariant v) {
  if (IsHuntCrossley(v)) {
    for (MaterialDescription& m : scene.materials) {
      m.material.stiffness = std::min(m.material.stiffness, kHuntCrossleyBenchStiffness);
    }
    scene.integrator = IntegratorPreset("symplectic_euler");
  }
  return scene;
}

class StictionEngine final : public PeerEngine {
 public:
  StictionEngine(const SceneDescription& scene, StictionVariant variant)
      : sim_(ForVariant(scene, variant)), variant_(variant) {
    SolverSettings s = sim_.solver_settings();
    ContactModelParameters p = sim_.contact_model_parameters();
    switch (variant) {
      case StictionVariant::kSap: break;
      case StictionVariant::kSapPaper: p.load_aware_regularization = false; break;
      case StictionVariant::kLagged: p.model = ContactModel::kLagged; break;
      case StictionVariant::kSimilar: p.model = ContactModel::kSimilar; break;
      case StictionVariant::kRegularizedLagged: p.model = ContactModel::kRegularizedLagged; break;
      case StictionVariant::kCanal: s.type = SolverType::kCanal; break;
      case StictionVariant::kSubAdmm1: s.type = SolverType::kSubAdmm; s.subadmm.num_threads = 1; break;
      case StictionVariant::kSubAdmm2: s.type = SolverType::kSubAdmm; s.subadmm.num_threads = 2; break;
      case StictionVariant::kPgs: s.type = SolverType::kPgs; break;
      case StictionVariant::kPgsRegularized: s.type = SolverType::kPgs; s.pgs.regularized = true; break;
    }
    sim_.SetSolver(s);
    sim_.SetContactModelParameters(p);
    for (const BodyDescription& b : scene.bodies) {
      for (int m = 1; m < sim_.model().num_bodies(); ++m) {
        if (sim_.model().body(m).name == b.name) scene_to_state_.push_back(m - 1);
      }
    }
  }

  std::string label() const override {
    switch (variant_) {
      case StictionVariant::kSap: return "Stiction SAP";
      case StictionVariant::kSapPaper: return "Stiction SAP, Eq. (29) as published";
      case StictionVariant::kLagged: return "Stiction SAP, Lagged H&C k ≤ 1e7, sympl. Euler";
      case StictionVariant::kSimilar: return "Stiction SAP, Similar H&C k ≤ 1e7, sympl. Euler";
      case StictionVariant::kRegularizedLagged: return "Stiction SAP, reg. Lagged H&C k ≤ 1e7, sympl. Euler";
      case StictionVariant::kCanal: return "Stiction CANAL";
      case StictionVariant::kSubAdmm1: return "Stiction SubADMM 1 thread";
      case StictionVariant::kSubAdmm2: return "Stiction SubADMM 2 threads";
      case StictionVariant::kPgs: return "Stiction PGS, exact NCP";
      case StictionVariant::kPgsRegularized: return "Stiction PGS, regularized dual";
    }
    return "Stiction";
  }

  bool Step(std::string* error) override {
    const StepResult r = sim_.Step();
    states_valid_ = false;
    last_ = r.stats;
    if (r.status != StepStatus::kSuccess) {
      if (error) *error = r.message;
      return false;
    }
    return true;
  }

  Vector3 BodyPosition(int i) const override { return State(i).position; }
  Vector3 BodyVelocity(int i) const override { return State(i).linear_velocity; }
  double LastIterations() const override { return last_.iterations; }
  double LastMaxPenetration() const override { return last_.max_penetration_m; }

 private:
  const BodyState& State(int i) const {
    if (!states_valid_) {
      states_ = sim_.CalcBodyStates();
      states_valid_ = true;
    }
    return states_.at(scene_to_state_.at(i));
  }

  Simulation sim_;
  StictionVariant variant_;
  std::vector<int> scene_to_state_;  // Scene body index -> CalcBodyStates index.
  StepStats last_;
  mutable std::vector<BodyState> states_;
  mutable bool states_valid_ = false;
};

}  // namespace

std::vector<StictionVariant> AllStictionVariants() {
  return {StictionVariant::kSap,   StictionVariant::kSapPaper, StictionVariant::kLagged,   StictionVariant::kSimilar,
          StictionVariant::kRegularizedLagged, StictionVariant::kCanal,
          StictionVariant::kSubAdmm1, StictionVariant::kSubAdmm2, StictionVariant::kPgs,
          StictionVariant::kPgsRegularized};
}

const char* StictionVariantKey(StictionVariant v) {
  switch (v) {
    case StictionVariant::kSap: return "sap";
    case StictionVariant::kSapPaper: return "sap_paper";
    case StictionVariant::kLagged: return "lagged";
    case StictionVariant::kSimilar: return "similar";
    case StictionVariant::kRegularizedLagged: return "reg_lagged";
    case StictionVariant::kCanal: return "canal";
    case StictionVariant::kSubAdmm1: return "subadmm1";
    case StictionVariant::kSubAdmm2: return "subadmm2";
    case StictionVariant::kPgs: return "pgs";
    case StictionVariant::kPgsRegularized: return "pgs_reg";
  }
  return "?";
}

std::unique_ptr<PeerEngine> MakeStictionEngine(const SceneDescription& scene, StictionVariant variant,
                                               std::string* why_not) {
  try {
    return std::make_unique<StictionEngine>(scene, variant);
  } catch (const std::exception& e) {
    if (why_not) *why_not = e.what();
    return nullptr;
  }
}

}  // namespace stiction::bench
