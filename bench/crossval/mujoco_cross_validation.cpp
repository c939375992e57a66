#include "bench/crossval/mujoco_cross_validation.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include <tinyxml.h>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/robot_file_scene.h"
#include "engine/scene/scene_loader.h"

namespace stiction {

namespace {

using Kind = CrossValidationError::Kind;

RigidTransform PoseOf(const mjtNum* pos, const mjtNum* quat_wxyz) {
  RigidTransform X;
  X.R = Quaternion(quat_wxyz[0], quat_wxyz[1], quat_wxyz[2], quat_wxyz[3]).normalized().toRotationMatrix();
  X.p = Vector3(pos[0], pos[1], pos[2]);
  return X;
}

/// Mass, centre of mass and rotational inertia about it, in one frame.
struct Inertial {
  double mass = 0;                // [kg]
  Vector3 com = Vector3::Zero();  // [m]
  Matrix3 I = Matrix3::Zero();    // [kg m²]
};

/// Inertia of a point mass m at offset d from the reference point.
Matrix3 PointInertia(double m, const Vector3& d) {
  return m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
}

/// MuJoCo body b's compiled inertial in its frame (the compiler's
/// principal axes body_iquat turned back into the body's).
Inertial CompiledInertial(const mjModel& m, int b) {
  const RigidTransform X_BI = PoseOf(m.body_ipos + 3 * b, m.body_iquat + 4 * b);
  const Vector3 d(m.body_inertia[3 * b], m.body_inertia[3 * b + 1], m.body_inertia[3 * b + 2]);
  return {m.body_mass[b], X_BI.p, X_BI.R * d.asDiagonal() * X_BI.R.transpose()};
}

/// MuJoCo body b with every body welded to it (no joint on the way down),
/// in b's frame: what Stiction's importers make of b (LumpWeldedMasses
/// moves a welded body's mass into its parent). MuJoCo numbers bodies
/// parents first.
Inertial WeldedInertial(const mjModel& m, int b) {
  Inertial sum = CompiledInertial(m, b);
  std::vector<std::optional<RigidTransform>> X_B(m.nbody);
  X_B[b] = RigidTransform::Identity();
  for (int c = b + 1; c < m.nbody; ++c) {
    const int p = m.body_parentid[c];
    if (!X_B[p] || m.body_jntnum[c] != 0) continue;
    X_B[c] = *X_B[p] * PoseOf(m.body_pos + 3 * c, m.body_quat + 4 * c);
    const Inertial own = CompiledInertial(m, c);
    if (!(own.mass > 0)) continue;
    const double total = sum.mass + own.mass;
    const Vector3 c_added = *X_B[c] * own.com;
    const Vector3 com = (sum.mass * sum.com + own.mass * c_added) / total;
    sum.I = sum.I + PointInertia(sum.mass, sum.com - com) + X_B[c]->R * own.I * X_B[c]->R.transpose() +
            PointInertia(own.mass, c_added - com);
    sum.com = com;
    sum.mass = total;
  }
  return sum;
}

/// The MuJoCo id of a joint or body Stiction names `name`. An unnamed
/// MuJoCo element is named "<prefix><id>" by Stiction's MJCF importer.
int FindMujocoId(const mjModel& m, int type, const std::string& name, const char* prefix) {
  const int id = mj_name2id(&m, type, name.c_str());
  if (id >= 0) return id;
  const std::string p = prefix;
  if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0) return -1;
  const std::string digits = name.substr(p.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  const int n = type == mjOBJ_JOINT ? m.njnt : m.nbody;
  const long k = std::strtol(digits.c_str(), nullptr, 10);
  if (k < 0 || k >= n) return -1;
  const char* own = mj_id2name(&m, type, static_cast<int>(k));
  return own == nullptr || own[0] == '\0' ? static_cast<int>(k) : -1;
}

// MuJoCo's default warning handler prints to stdout and appends to
// MUJOCO_LOG.TXT in the working directory; a cross-validation keeps its
// output to its figures.
void IgnoreMujocoWarning(const char*) {}

class ScopedQuietMujoco {
 public:
  ScopedQuietMujoco() : previous_(mju_user_warning) { mju_user_warning = IgnoreMujocoWarning; }
  ~ScopedQuietMujoco() { mju_user_warning = previous_; }
  ScopedQuietMujoco(const ScopedQuietMujoco&) = delete;
  ScopedQuietMujoco& operator=(const ScopedQuietMujoco&) = delete;

 private:
  void (*previous_)(const char*);
};

/// A file in the system's temporary directory, removed with this object.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::filesystem::path path) : path_(std::move(path)) {}
  TemporaryFile(TemporaryFile&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  ~TemporaryFile() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove(path_, ec);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// The <mujoco><compiler> element of a URDF's <robot>, made if missing.
TiXmlElement* MujocoCompiler(TiXmlElement* robot) {
  TiXmlElement* mujoco = robot->FirstChildElement("mujoco");
  if (mujoco == nullptr) mujoco = robot->InsertEndChild(TiXmlElement("mujoco"))->ToElement();
  TiXmlElement* compiler = mujoco->FirstChildElement("compiler");
  if (compiler == nullptr) compiler = mujoco->InsertEndChild(TiXmlElement("compiler"))->ToElement();
  return compiler;
}

/// A copy of the URDF at `path` for MuJoCo's compiler: without the
/// <visual> and <collision> elements of its links and with a declared
/// `world` link if joints name an undeclared one (`strip_geometry`), with
/// <compiler balanceinertia="true"> (`balance_inertia`); Options says why.
/// A copy that keeps its geometry looks for meshes where MuJoCo would
/// have for the file itself (its meshdir made absolute).
TemporaryFile UrdfForMujoco(const std::string& path, bool strip_geometry, bool balance_inertia) {
  TiXmlDocument doc;
  if (!doc.LoadFile(path.c_str()) || doc.RootElement() == nullptr) {
    throw CrossValidationError(Kind::kMujocoRefused,
                               path + ": cannot read it to write MuJoCo's copy: " + std::string(doc.ErrorDesc()));
  }
  TiXmlElement* robot = doc.RootElement();
  if (strip_geometry) {
    bool world_declared = false, world_named = false;
    for (TiXmlElement* link = robot->FirstChildElement("link"); link != nullptr;
         link = link->NextSiblingElement("link")) {
      for (const char* tag : {"visual", "collision"}) {
        while (TiXmlElement* e = link->FirstChildElement(tag)) link->RemoveChild(e);
      }
      const char* name = link->Attribute("name");
      world_declared = world_declared || (name != nullptr && std::string(name) == "world");
    }
    for (TiXmlElement* joint = robot->FirstChildElement("joint"); joint != nullptr;
         joint = joint->NextSiblingElement("joint")) {
      const TiXmlElement* parent = joint->FirstChildElement("parent");
      const char* link = parent != nullptr ? parent->Attribute("link") : nullptr;
      world_named = world_named || (link != nullptr && std::string(link) == "world");
    }
    if (world_named && !world_declared) {
      TiXmlElement world("link");
      world.SetAttribute("name", "world");
      robot->InsertBeforeChild(robot->FirstChild(), world);
    }
  }
  if (balance_inertia) MujocoCompiler(robot)->SetAttribute("balanceinertia", "true");
  if (!strip_geometry) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::canonical(path, ec).parent_path();
    if (ec) dir = std::filesystem::absolute(path).parent_path();
    TiXmlElement* compiler = MujocoCompiler(robot);
    const char* meshdir = compiler->Attribute("meshdir");
    if (meshdir != nullptr) dir /= meshdir;  // An absolute meshdir replaces dir.
    compiler->SetAttribute("meshdir", dir.string().c_str());
  }
  TemporaryFile copy(std::filesystem::temp_directory_path() /
                     ("stiction-crossval-" + std::to_string(getpid()) + "-" +
                      std::filesystem::path(path).filename().string()));
  if (!doc.SaveFile(copy.path().c_str())) {
    throw CrossValidationError(Kind::kMujocoRefused, path + ": cannot write MuJoCo's copy to " + copy.path());
  }
  return copy;
}

/// `text` on one line, as the command prints a reason: its lines trimmed
/// and joined by "; " (by a space after a line ending in ':', which
/// introduces a list, as Stiction's "22 mesh files cannot be found:").
std::string OneLineReason(const std::string& text) {
  std::string out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    const std::size_t first = line.find_first_not_of(" \t\r");
    const std::size_t last = line.find_last_not_of(" \t\r");
    line = first == std::string::npos ? "" : line.substr(first, last - first + 1);
    if (!line.empty()) {
      if (!out.empty()) out += out.back() == ':' ? " " : "; ";
      out += line;
    }
    begin = end + 1;
  }
  return out;
}

/// A YAML single-quoted scalar.
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

MujocoCrossValidation::MujocoCrossValidation(const std::string& robot_file, const std::string& mujoco_file)
    : MujocoCrossValidation(robot_file, mujoco_file, Options{}) {}

MujocoCrossValidation::MujocoCrossValidation(const std::string& robot_file, const std::string& mujoco_file,
                                             const Options& options) {
  // MuJoCo first: Stiction imports MJCF through MuJoCo's compiler, so an
  // MJCF that MuJoCo refuses is refused by MuJoCo, not by Stiction.
  LoadMujoco(mujoco_file, options);
  // No ground: the file's robot alone. Gravity is MuJoCo's default for a
  // URDF (which has none) and, for MJCF, what Stiction reads from the file
  // (<option gravity>, <flag gravity="disable">), so that the bias checks
  // that reading too.
  std::string yaml = "gravity: [0, 0, -9.81]\nrobots:\n  - file: " + Quoted(robot_file) + "\n";
  SceneDescription scene;
  try {
    if (!LooksLikeUrdf(robot_file)) yaml += "    use_file_options: true\n";
    scene = LoadSceneString(yaml, "cross_validation.yaml", ".");
  } catch (const std::exception& e) {
    throw CrossValidationError(Kind::kStictionRefused, OneLineReason(e.what()));
  }
  UseMujocoInertias(&scene, options.use_mujoco_inertias);
  try {
    sim_ = std::make_unique<Simulation>(scene);
  } catch (const std::exception& e) {
    throw CrossValidationError(Kind::kStictionRefused, OneLineReason(e.what()));
  }
  MapJoints();
}

MujocoCrossValidation::~MujocoCrossValidation() = default;

void MujocoCrossValidation::LoadMujoco(const std::string& mujoco_file, const Options& options) {
  // MuJoCo finds includes and meshes beside the path it is given: the real
  // file's, as Stiction's importer does for a link.
  std::error_code ec;
  std::string path = std::filesystem::canonical(mujoco_file, ec).string();
  if (ec) path = mujoco_file;
  std::string label = mujoco_file;
  std::optional<TemporaryFile> stripped;
  if ((options.strip_urdf_geometry || options.balance_urdf_inertia) && LooksLikeUrdf(mujoco_file)) {
    stripped.emplace(UrdfForMujoco(mujoco_file, options.strip_urdf_geometry, options.balance_urdf_inertia));
    path = stripped->path();
    label = mujoco_file + " (MuJoCo's copy" + (options.strip_urdf_geometry ? ", without geometry" : "") +
            (options.balance_urdf_inertia ? ", balanceinertia" : "") + ")";
  }
  std::array<char, 1000> error{};
  {
    ScopedQuietMujoco quiet;
    // libmujoco 2.2.2 lets some C++ exceptions out of its C API
    // (engine/scene/mjcf_importer.cpp).
    try {
      mj_.reset(mj_loadXML(path.c_str(), nullptr, error.data(), static_cast<int>(error.size())));
    } catch (const std::exception& e) {
      throw CrossValidationError(Kind::kMujocoRefused, label + ": its compiler failed with " + OneLineReason(e.what()));
    }
  }
  if (!mj_) {
    throw CrossValidationError(Kind::kMujocoRefused, label + ": " + OneLineReason(error.data()));
  }
  data_.reset(mj_makeData(mj_.get()));
}

// Pairs each Stiction body that may carry mass with the MuJoCo body it was
// made from: a moving body through its joint (the last of its MuJoCo body's
// joints; the joint frames before it are massless), a body welded to the
// world by name. Its MuJoCo inertial is that body's with the bodies welded
// to it (WeldedInertial), as Stiction lumps them; a body MuJoCo does not
// have (fused into the world by its URDF compiler) is static and skipped.
void MujocoCrossValidation::UseMujocoInertias(SceneDescription* scene, bool override_inertias) {
  const mjModel& m = *mj_;
  std::map<std::string, const JointDescription*> inboard;
  for (const JointDescription& j : scene->joints) inboard[j.child] = &j;
  for (BodyDescription& b : scene->bodies) {
    const auto it = inboard.find(b.name);
    if (it == inboard.end()) continue;
    const JointDescription& joint = *it->second;
    int id = -1;
    if (joint.type == JointType::kFixed) {
      if (joint.parent != "world" || b.mass == 0) continue;  // Lumped into its parent, or massless.
      id = FindMujocoId(m, mjOBJ_BODY, b.name, "body");
    } else {
      const int j = FindMujocoId(m, mjOBJ_JOINT, joint.name, "joint");
      if (j < 0) continue;  // MapJoints() says so.
      const int body = m.jnt_bodyid[j];
      if (j != m.body_jntadr[body] + m.body_jntnum[body] - 1) continue;  // A joint frame.
      id = body;
    }
    if (id <= 0) continue;
    const Inertial mj = WeldedInertial(m, id);
    if (b.mass == 0 && mj.mass == 0) continue;
    // Relative to MuJoCo's inertia and to Stiction's mass, or to the other
    // side's where one is zero.
    const double mass_scale = b.mass > 0 ? b.mass : mj.mass;
    const double inertia_scale =
        mj.I.isZero(0.0) ? b.I_Bcm_B.cwiseAbs().maxCoeff() : mj.I.cwiseAbs().maxCoeff();
    import_.mass_rel = std::max(import_.mass_rel, std::abs(b.mass - mj.mass) / mass_scale);
    import_.com_m = std::max(import_.com_m, (b.com_B - mj.com).cwiseAbs().maxCoeff());
    if (inertia_scale > 0) {
      import_.inertia_rel = std::max(import_.inertia_rel, (b.I_Bcm_B - mj.I).cwiseAbs().maxCoeff() / inertia_scale);
    }
    // A body massless on one side only is an import difference, not
    // something to paper over (a massless moving body is a joint frame).
    if (override_inertias && b.mass > 0 && mj.mass > 0) {
      b.mass = mj.mass;
      b.com_B = mj.com;
      b.I_Bcm_B = mj.I;
    }
  }
}

void MujocoCrossValidation::MapJoints() {
  const MultibodyModel& model = sim_->model();
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.nv == 0) continue;
    const int id = FindMujocoId(*mj_, mjOBJ_JOINT, joint.name, "joint");
    if (id < 0) throw CrossValidationError(Kind::kModelsDiffer, "MuJoCo has no joint '" + joint.name + "'");
    JointMap map;
    map.type = mj_->jnt_type[id];
    const int nv_mj = map.type == mjJNT_FREE ? 6 : map.type == mjJNT_BALL ? 3 : 1;
    if (nv_mj != joint.nv) {
      throw CrossValidationError(Kind::kModelsDiffer, "joint '" + joint.name + "' has " + std::to_string(joint.nv) +
                                                          " velocities in Stiction, " + std::to_string(nv_mj) +
                                                          " in MuJoCo");
    }
    map.q_ours = joint.q_start;
    map.v_ours = joint.v_start;
    map.q_mj = mj_->jnt_qposadr[id];
    map.v_mj = mj_->jnt_dofadr[id];
    map.qpos0 = mj_->qpos0[map.q_mj];
    if (std::isfinite(joint.lower_limit)) map.lower = joint.lower_limit;
    if (std::isfinite(joint.upper_limit)) map.upper = joint.upper_limit;
    maps_.push_back(map);
  }
  if (model.num_velocities() != mj_->nv) {
    throw CrossValidationError(Kind::kModelsDiffer, "Stiction has " + std::to_string(model.num_velocities()) +
                                                        " velocities, MuJoCo " + std::to_string(mj_->nv));
  }
}

void MujocoCrossValidation::RandomState(std::mt19937* rng, VectorX* q, VectorX* v, double coordinate_bound) const {
  std::uniform_real_distribution<double> unit(-1, 1);
  *q = model().DefaultPositions();
  *v = VectorX::Zero(model().num_velocities());
  for (const JointMap& m : maps_) {
    if (m.type == mjJNT_FREE || m.type == mjJNT_BALL) {
      Vector4 quat(unit(*rng), unit(*rng), unit(*rng), unit(*rng));
      q->segment<4>(m.q_ours) = quat.normalized();
      if (m.type == mjJNT_FREE) q->segment<3>(m.q_ours + 4) = Vector3(unit(*rng), unit(*rng), unit(*rng));
      const int n = m.type == mjJNT_FREE ? 6 : 3;
      for (int k = 0; k < n; ++k) (*v)[m.v_ours + k] = 2 * unit(*rng);
    } else {
      const double lo = std::max(m.lower, -coordinate_bound), hi = std::min(m.upper, coordinate_bound);
      (*q)[m.q_ours] = lo + (hi - lo) * 0.5 * (1 + unit(*rng));
      (*v)[m.v_ours] = 2 * unit(*rng);
    }
  }
}

void MujocoCrossValidation::ToMuJoCo(const VectorX& q, const VectorX& v) {
  for (const JointMap& m : maps_) {
    switch (m.type) {
      case mjJNT_FREE:  // Ours [quat; p] and [ω_B; v_W]; MuJoCo [p; quat] and [v_W; ω_B].
        for (int k = 0; k < 3; ++k) data_->qpos[m.q_mj + k] = q[m.q_ours + 4 + k];
        for (int k = 0; k < 4; ++k) data_->qpos[m.q_mj + 3 + k] = q[m.q_ours + k];
        for (int k = 0; k < 3; ++k) {
          data_->qvel[m.v_mj + k] = v[m.v_ours + 3 + k];
          data_->qvel[m.v_mj + 3 + k] = v[m.v_ours + k];
        }
        break;
      case mjJNT_BALL:
        for (int k = 0; k < 4; ++k) data_->qpos[m.q_mj + k] = q[m.q_ours + k];
        for (int k = 0; k < 3; ++k) data_->qvel[m.v_mj + k] = v[m.v_ours + k];
        break;
      default:
        data_->qpos[m.q_mj] = q[m.q_ours] + m.qpos0;
        data_->qvel[m.v_mj] = v[m.v_ours];
    }
  }
}

void MujocoCrossValidation::FromMuJoCo(VectorX* q, VectorX* v) const {
  *q = model().DefaultPositions();
  *v = VectorX::Zero(model().num_velocities());
  for (const JointMap& m : maps_) {
    switch (m.type) {
      case mjJNT_FREE:
        for (int k = 0; k < 3; ++k) (*q)[m.q_ours + 4 + k] = data_->qpos[m.q_mj + k];
        for (int k = 0; k < 4; ++k) (*q)[m.q_ours + k] = data_->qpos[m.q_mj + 3 + k];
        for (int k = 0; k < 3; ++k) {
          (*v)[m.v_ours + 3 + k] = data_->qvel[m.v_mj + k];
          (*v)[m.v_ours + k] = data_->qvel[m.v_mj + 3 + k];
        }
        break;
      case mjJNT_BALL:
        for (int k = 0; k < 4; ++k) (*q)[m.q_ours + k] = data_->qpos[m.q_mj + k];
        for (int k = 0; k < 3; ++k) (*v)[m.v_ours + k] = data_->qvel[m.v_mj + k];
        break;
      default:
        (*q)[m.q_ours] = data_->qpos[m.q_mj] - m.qpos0;
        (*v)[m.v_ours] = data_->qvel[m.v_mj];
    }
  }
}

std::vector<int> MujocoCrossValidation::VelocityPermutation() const {
  std::vector<int> perm(nv());
  for (const JointMap& m : maps_) {
    if (m.type == mjJNT_FREE) {
      for (int k = 0; k < 3; ++k) {
        perm[m.v_ours + k] = m.v_mj + 3 + k;
        perm[m.v_ours + 3 + k] = m.v_mj + k;
      }
    } else {
      const int n = m.type == mjJNT_BALL ? 3 : 1;
      for (int k = 0; k < n; ++k) perm[m.v_ours + k] = m.v_mj + k;
    }
  }
  return perm;
}

void MujocoCrossValidation::Compare(const VectorX& q, const VectorX& v, double* dM, double* dbias) {
  *dM = 0;
  *dbias = 0;
  if (nv() == 0) return;  // Nothing moves: nothing to compare.
  const MultibodyModel& model = this->model();
  KinematicsCache cache(model);
  CalcKinematics(model, q, v, BodyRange::All(model), &cache);
  MatrixX M;
  CalcMassMatrix(model, cache, &M);
  VectorX bias = VectorX::Zero(nv());
  const VectorX zero = VectorX::Zero(nv());
  for (int t = 0; t < model.num_trees(); ++t) {
    if (model.tree(t).nv > 0) CalcTreeInverseDynamics(model, cache, t, zero, &bias);  // C v − τ_g (v̇ = 0).
  }
  ToMuJoCo(q, v);
  // The stages of mj_forward that make qM and qfrc_bias (mj_fwdPosition,
  // mj_fwdVelocity in 2.2.2), without contacts, constraints and passive
  // forces: qfrc_bias is RNE at zero acceleration, C(q, v) v plus gravity;
  // springs, damping and friction loss are in qfrc_passive, not in it.
  {
    ScopedQuietMujoco quiet;
    mj_kinematics(mj_.get(), data_.get());
    mj_comPos(mj_.get(), data_.get());
    mj_crb(mj_.get(), data_.get());
    mj_comVel(mj_.get(), data_.get());
    mj_rne(mj_.get(), data_.get(), 0, data_->qfrc_bias);
  }
  std::vector<mjtNum> dense(nv() * nv());
  mj_fullM(mj_.get(), dense.data(), data_->qM);
  const std::vector<int> perm = VelocityPermutation();
  MatrixX M_mj(nv(), nv());
  VectorX bias_mj(nv());
  for (int i = 0; i < nv(); ++i) {
    bias_mj[i] = data_->qfrc_bias[perm[i]];
    for (int k = 0; k < nv(); ++k) M_mj(i, k) = dense[perm[i] * nv() + perm[k]];
  }
  // MuJoCo adds armature to M's diagonal; ours adds rotor inertia: both
  // are in the compared matrices.
  *dM = (M - M_mj).cwiseAbs().maxCoeff() / M_mj.cwiseAbs().maxCoeff();
  *dbias = (bias - bias_mj).cwiseAbs().maxCoeff() / std::max(1.0, bias_mj.cwiseAbs().maxCoeff());
}

CrossValidationFigures MujocoCrossValidation::Run(int states, unsigned seed, double coordinate_bound) {
  CrossValidationFigures figures;
  figures.nv = nv();
  figures.states = states;
  std::mt19937 rng(seed);
  for (int k = 0; k < states; ++k) {
    VectorX q, v;
    RandomState(&rng, &q, &v, coordinate_bound);
    double dM = 0, dbias = 0;
    Compare(q, v, &dM, &dbias);
    // NaN-propagating maxima: a NaN figure must not read as agreement.
    if (!(dM <= figures.max_rel_dM)) figures.max_rel_dM = dM;
    if (!(dbias <= figures.max_rel_dbias)) figures.max_rel_dbias = dbias;
  }
  return figures;
}

}  // namespace stiction
