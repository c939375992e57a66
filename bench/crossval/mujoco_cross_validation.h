#pragma once
// Cross-validation of Stiction's rigid-body dynamics against MuJoCo on one
// robot file (issue 34): MuJoCo 2.2.2 compiles the file with its own URDF or
// MJCF compiler, Stiction imports it as a scene's `robots:` entry; joints are
// mapped by name, and the mass matrix M(q) and the bias C(q, v) v − τ_g are
// compared at random states. Used by tests/multibody/robot_cross_validation_test.cpp
// and by the command stiction-crossval (docs/robots.md, "Cross-validation
// against MuJoCo").
//
// Both sides see the same model up to what MuJoCo's compiler does to
// inertias: it diagonalizes every rotational inertia (body_iquat,
// body_inertia), losing up to ~1e-7 of a tensor with products of inertia.
// The import is measured against MuJoCo's compiled inertials
// (import_differences()); by default the dynamics then run on MuJoCo's
// compiled inertias, so that the comparison tests the algorithms, not
// MuJoCo's diagonalization.
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "engine/common/constants.h"
#include "engine/common/eigen_types.h"
#include "engine/multibody/multibody_model.h"
#include "engine/simulation.h"

namespace stiction {

/// Why a cross-validation could not start; what() is one line.
class CrossValidationError : public std::runtime_error {
 public:
  enum class Kind {
    kStictionRefused,  ///< Stiction's importer or scene compiler refused the file.
    kMujocoRefused,    ///< MuJoCo's compiler refused the file.
    kModelsDiffer,     ///< Both loaded it, into models that do not map onto each other.
  };
  CrossValidationError(Kind kind, const std::string& reason) : std::runtime_error(reason), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

/// Largest differences between Stiction's imported inertials and MuJoCo's
/// compiled ones, over the bodies that carry mass. A body welded to another
/// is compared as the two together (both engines lump or fuse it).
struct InertialDifferences {
  double mass_rel = 0;     ///< |Δm| / m.
  double com_m = 0;        ///< Largest |Δ| of a centre-of-mass coordinate [m].
  double inertia_rel = 0;  ///< Largest |ΔI| entry relative to the body's largest entry.
};

/// Worst figures over a run of random states.
struct CrossValidationFigures {
  int nv = 0;          ///< Velocities of the model.
  int states = 0;      ///< States compared.
  double max_rel_dM = 0;     ///< max |M − M_MuJoCo| / max |M_MuJoCo| (armature included).
  double max_rel_dbias = 0;  ///< max |b − b_MuJoCo| / max(1, max |b_MuJoCo|).
};

/// Tolerances of the agreement (issue 34's acceptance) and of the import,
/// with their reasons.
/// Both engines run exact recursive algorithms in double precision on the
/// same numbers: only round-off separates them.
inline constexpr double kCrossValidationTolerance = 1e-9;
/// Masses and centres of mass are copied or lumped numbers (round-off only).
inline constexpr double kImportMassTolerance = 1e-14;
inline constexpr double kImportComTolerance = 1e-14;  // [m]
/// A tensor with products of inertia differs by what MuJoCo's compile of it
/// loses: its Jacobi diagonalization (mju_eig3, 2.2.2) stops once a
/// rotation's cosine exceeds 1 − 1e-12, leaving off-diagonal terms up to
/// √(2e-12) ≈ 1.4e-6 of the gap between two principal moments, so up to
/// 4.2e-6 of the body's largest entry (which is at least a third of its
/// largest moment); measured up to 1.1e-6 on the corpus (ANYmal's and HyQ's
/// thighs). A wrong rotation, sign or unit is off by 1e-2 or more.
inline constexpr double kImportInertiaTolerance = 1e-5;

/// One file loaded into both engines, joints mapped by name.
class MujocoCrossValidation {
 public:
  struct Options {
    /// Run Stiction's dynamics on MuJoCo's compiled inertias (see above);
    /// false keeps Stiction's own import.
    bool use_mujoco_inertias = true;
    /// MuJoCo compiles a copy of a URDF without its <visual> and <collision>
    /// elements. Its URDF compiler looks for every mesh beside the file
    /// (strippath) and reads neither DAE nor glTF, so most published URDFs
    /// do not compile as they are; M and the bias need only the <inertial>
    /// elements. Without geometry, a link without <inertial> is massless in
    /// MuJoCo as in Stiction (MuJoCo would otherwise infer its mass from its
    /// collision shapes). The copy also declares a `world` link that joints
    /// name without declaring it (Drake's convention, which Stiction's
    /// importer follows; MuJoCo takes a declared `world` link for its world
    /// body and refuses an undeclared one). MJCF files are compiled as they
    /// are.
    bool strip_urdf_geometry = false;
    /// MuJoCo compiles a copy of a URDF with <compiler balanceinertia="true">:
    /// a body whose principal moments break the triangle inequality
    /// (A + B ≥ C, which MuJoCo 2.2.2 otherwise refuses and Stiction accepts)
    /// gets their mean on all three axes. M and the bias are then compared on
    /// those inertias; the import differences show what balancing changed.
    /// Without strip_urdf_geometry the copy keeps its geometry, its meshes
    /// looked for where MuJoCo looks for the file's own.
    bool balance_urdf_inertia = false;
  };

  /// `robot_file` is what Stiction imports, `mujoco_file` what MuJoCo
  /// compiles (normally the same file). Throws CrossValidationError.
  MujocoCrossValidation(const std::string& robot_file, const std::string& mujoco_file);
  MujocoCrossValidation(const std::string& robot_file, const std::string& mujoco_file, const Options& options);
  ~MujocoCrossValidation();
  MujocoCrossValidation(const MujocoCrossValidation&) = delete;
  MujocoCrossValidation& operator=(const MujocoCrossValidation&) = delete;

  int nv() const { return mj_->nv; }
  const InertialDifferences& import_differences() const { return import_; }
  const MultibodyModel& model() const { return sim_->model(); }

  /// A random state of Stiction's model: hinge and slide coordinates within
  /// their limits and within ±π where unlimited, both also within
  /// ±coordinate_bound; random unit quaternions (a normalized sample of
  /// [−1, 1]⁴) for ball and free joints, free-joint positions in [−1, 1]³ m;
  /// velocities in ±2 (rad/s or m/s).
  void RandomState(std::mt19937* rng, VectorX* q, VectorX* v,
                   double coordinate_bound = std::numeric_limits<double>::infinity()) const;

  /// Stiction's state written into MuJoCo's qpos/qvel (hinge and slide
  /// shifted by qpos0, free joints reordered).
  void ToMuJoCo(const VectorX& q, const VectorX& v);
  /// MuJoCo's state read back into Stiction's order.
  void FromMuJoCo(VectorX* q, VectorX* v) const;
  /// Ours-index → MuJoCo-index permutation of the velocities.
  std::vector<int> VelocityPermutation() const;

  /// Largest relative differences of M and of the bias at one state
  /// (definitions in CrossValidationFigures).
  void Compare(const VectorX& q, const VectorX& v, double* dM, double* dbias);
  /// Compare() at `states` random states from a generator seeded with `seed`.
  CrossValidationFigures Run(int states, unsigned seed,
                             double coordinate_bound = std::numeric_limits<double>::infinity());

  mjModel* mj() { return mj_.get(); }
  mjData* data() { return data_.get(); }
  Simulation& sim() { return *sim_; }

 private:
  struct MjModelDeleter {
    void operator()(mjModel* m) const { mj_deleteModel(m); }
  };
  struct MjDataDeleter {
    void operator()(mjData* d) const { mj_deleteData(d); }
  };
  /// One joint's coordinates in both models.
  struct JointMap {
    int type = 0;                ///< mjtJoint.
    int q_ours = 0, v_ours = 0;  ///< Stiction slices.
    int q_mj = 0, v_mj = 0;      ///< MuJoCo slices.
    double qpos0 = 0;            ///< MuJoCo's reference (hinge, slide).
    double lower = -kPi, upper = kPi;  ///< Stiction's limits, ±π where unlimited.
  };

  void LoadMujoco(const std::string& mujoco_file, const Options& options);
  void UseMujocoInertias(SceneDescription* scene, bool override_inertias);
  void MapJoints();

  std::unique_ptr<mjModel, MjModelDeleter> mj_;
  std::unique_ptr<mjData, MjDataDeleter> data_;
  std::unique_ptr<Simulation> sim_;
  std::vector<JointMap> maps_;
  InertialDifferences import_;
};

}  // namespace stiction
