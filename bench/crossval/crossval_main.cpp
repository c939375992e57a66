// stiction-crossval: one robot file (URDF or MJCF) loaded into Stiction and
// into MuJoCo 2.2.2, its mass matrix M(q) and bias C(q, v) v − τ_g compared
// at random states (issue 34's acceptance: 1e-9 relative). One line out:
//
//   FILE nv=N max_rel_dM=X max_rel_dbias=Y (S states) import dmass_rel=A dcom_m=B dI_rel=C
//   FILE: refused by Stiction: REASON
//   FILE: refused by MuJoCo: REASON
//   FILE: models differ: REASON
//
// Exit status: 0 when both figures are below 1e-9 and the imported
// inertials match MuJoCo's compiled ones; 1 when they disagree; 2 on bad
// input (a refused file, a bad command line). docs/robots.md
// ("Cross-validation against MuJoCo") defines the figures.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "bench/crossval/mujoco_cross_validation.h"

namespace {

struct Options {
  std::string file;
  int samples = 20;
  unsigned seed = 7;
  bool own_inertias = false;
  bool strip_urdf_geometry = false;
  bool balance_inertia = false;
};

constexpr int kAgrees = 0, kDisagrees = 1, kBadInput = 2;

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"stiction-crossval: M(q) and the bias of one URDF or MJCF file in Stiction against MuJoCo 2.2.2"};
  app.add_option("FILE", o.file, "robot file (.urdf, or MJCF .xml)")->required();
  app.add_option("--samples", o.samples, "random states compared")->check(CLI::Range(1, 1000000));
  app.add_option("--seed", o.seed, "seed of the random states");
  app.add_flag("--own-inertias", o.own_inertias,
               "run Stiction on its own imported inertias instead of MuJoCo's compiled (diagonalized) ones");
  app.add_flag("--strip-urdf-geometry", o.strip_urdf_geometry,
               "MuJoCo compiles a copy of a URDF without <visual> and <collision> (it finds meshes only beside the "
               "file and reads neither DAE nor glTF; M and the bias need only the <inertial> elements), with a "
               "'world' link declared if joints name it undeclared (Drake's convention)");
  app.add_flag("--balance-inertia", o.balance_inertia,
               "MuJoCo compiles a copy of a URDF with <compiler balanceinertia=\"true\">: inertias that break the "
               "triangle inequality get the mean of their principal moments (the import figures show the change)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kAgrees : kBadInput;
  }
  const char* file = o.file.c_str();
  try {
    stiction::MujocoCrossValidation::Options options;
    options.use_mujoco_inertias = !o.own_inertias;
    options.strip_urdf_geometry = o.strip_urdf_geometry;
    options.balance_urdf_inertia = o.balance_inertia;
    stiction::MujocoCrossValidation xv(o.file, o.file, options);
    const stiction::CrossValidationFigures f = xv.Run(o.samples, o.seed);
    const stiction::InertialDifferences& d = xv.import_differences();
    std::printf("%s nv=%d max_rel_dM=%.3e max_rel_dbias=%.3e (%d states) import dmass_rel=%.1e dcom_m=%.1e dI_rel=%.1e\n",
                file, f.nv, f.max_rel_dM, f.max_rel_dbias, f.states, d.mass_rel, d.com_m, d.inertia_rel);
    // A NaN fails every comparison: it disagrees.
    const bool agrees = f.max_rel_dM < stiction::kCrossValidationTolerance &&
                        f.max_rel_dbias < stiction::kCrossValidationTolerance &&
                        d.mass_rel < stiction::kImportMassTolerance && d.com_m < stiction::kImportComTolerance &&
                        d.inertia_rel < stiction::kImportInertiaTolerance;
    return agrees ? kAgrees : kDisagrees;
  } catch (const stiction::CrossValidationError& e) {
    using Kind = stiction::CrossValidationError::Kind;
    const char* what = e.kind() == Kind::kStictionRefused ? "refused by Stiction"
                       : e.kind() == Kind::kMujocoRefused ? "refused by MuJoCo"
                                                          : "models differ";
    std::printf("%s: %s: %s\n", file, what, e.what());
    return e.kind() == Kind::kModelsDiffer ? kDisagrees : kBadInput;
  }
}
