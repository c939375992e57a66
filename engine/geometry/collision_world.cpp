#include "engine/geometry/collision_world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <map>

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include "engine/common/error.h"

namespace stiction {

struct CollisionWorld::BroadPhase {
  fcl::DynamicAABBTreeCollisionManagerd dynamic;  // Geometries on moving bodies.
  fcl::DynamicAABBTreeCollisionManagerd fixed;    // World geometries but half-spaces.
};

namespace {

// When the best face axis is within this of FCL's signed distance, the contact
// is treated as face contact and clipped; otherwise it is edge–edge (or
// edge–rim) and FCL's single point is used. FCL's overlap depth is exact for
// box–box (SAT) and an upper bound for other pairs (libccd MPR), so face
// contacts are never misjudged as edges; the slack covers GJK's ~1e-6 m [m].
constexpr double kFaceContactTolerance = 1e-4;

using Clock = std::chrono::steady_clock;

int GeometryIndex(const fcl::CollisionObjectd* o) {
  return static_cast<int>(reinterpret_cast<std::intptr_t>(o->getUserData()));
}

struct CallbackData {
  const CollisionWorld* world;
  std::vector<std::pair<int, int>>* pairs;
};

bool CollectPair(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  auto* d = static_cast<CallbackData*>(data);
  const int i = GeometryIndex(o1), j = GeometryIndex(o2);
  if (d->world->CanCollide(i, j)) d->pairs->emplace_back(std::min(i, j), std::max(i, j));
  return false;  // Never stop early.
}

PlacedHull Hull(const CollisionGeometry& g) { return {g.hull(), g.X_WG()}; }
PlacedRound Round(const CollisionGeometry& g) {
  return {g.shape().radius, g.shape().length, g.X_WG()};
}
bool IsPolytope(ShapeType t) { return t == ShapeType::kBox || t == ShapeType::kMesh; }

// Order in which pair kinds are written below (the lower rank is the first
// argument of the manifold function).
int Rank(ShapeType t) {
  switch (t) {
    case ShapeType::kHalfSpace: return 0;
    case ShapeType::kSphere: return 1;
    case ShapeType::kCapsule: return 2;
    case ShapeType::kBox: return 3;
    case ShapeType::kMesh: return 3;
    case ShapeType::kCylinder: return 4;
  }
  return 5;
}

// The signed distance between two convex FCL shapes with the contact normal
// (unit, from the first towards the second) and the point midway between the
// surfaces.
struct SignedDistance {
  double phi = 0;  // [m]
  Vector3 nhat_W = Vector3::UnitZ();
  Vector3 p_W = Vector3::Zero();
};

// FCL's signed distance (enable_signed_distance) runs its own EPA, which
// aborts on an internal assertion for some overlapping convex pairs (seen in
// the random-pile test). So overlap goes through collide(), whose libccd MPR
// is robust (normal from o1 to o2, positive depth, mid-penetration point), and
// only separated pairs through distance() with plain GJK.
SignedDistance FclSignedDistance(const CollisionGeometry& g1, const CollisionGeometry& g2) {
  SignedDistance sd;
  const fcl::CollisionObjectd* o1 = g1.fcl_object();
  const fcl::CollisionObjectd* o2 = g2.fcl_object();
  fcl::CollisionRequestd collision_request(1, true);
  collision_request.gjk_solver_type = fcl::GST_LIBCCD;  // GST_INDEP is wrong (PLATFORM-NOTES).
  fcl::CollisionResultd collision_result;
  fcl::collide(o1, o2, collision_request, collision_result);
  if (collision_result.numContacts() > 0) {
    const fcl::Contactd& contact = collision_result.getContact(0);
    Vector3 n = contact.normal;  // From contact.o1 to contact.o2.
    if (contact.o1 != o1->collisionGeometry().get()) n = -n;
    if (n.norm() > 1e-12) {
      sd.phi = -contact.penetration_depth;
      sd.nhat_W = n.normalized();
      sd.p_W = contact.pos;
      return sd;
    }
  }
  fcl::DistanceRequestd request;
  request.enable_nearest_points = true;
  request.gjk_solver_type = fcl::GST_LIBCCD;
  // Round shapes converge slowly; the default 1e-6 leaves sphere pairs
  // micrometres off (PLATFORM-NOTES).
  if (g1.shape_type() == ShapeType::kSphere || g2.shape_type() == ShapeType::kSphere) {
    request.distance_tolerance = 1e-9;
  }
  fcl::DistanceResultd result;
  fcl::distance(o1, o2, request, result);
  const Vector3 p1 = result.nearest_points[0], p2 = result.nearest_points[1];
  sd.phi = std::max(result.min_distance, 0.0);  // Unsigned GJK: -1 means overlap.
  sd.p_W = 0.5 * (p1 + p2);
  // Grazing contact (distance ~0) has no direction from the nearest points:
  // fall back to the centre line, then to +z.
  Vector3 n = p2 - p1;
  if (sd.phi <= 0 || n.norm() <= 1e-12) n = g2.X_WG().p - g1.X_WG().p;
  sd.nhat_W = n.norm() > 1e-12 ? Vector3(n.normalized()) : Vector3::UnitZ();
  return sd;
}

// One contact from FCL between g1 (A) and g2 (B).
void FclPointContact(const SignedDistance& sd, double margin, std::vector<ContactPoint>* out) {
  if (!(sd.phi < margin)) return;
  ContactPoint c;
  c.nhat_AB_W = sd.nhat_W;
  c.phi = sd.phi;
  c.p_W = sd.p_W;
  out->push_back(c);
}

// The narrow phase for geometries X and Y with Rank(X) <= Rank(Y); X is A.
void NarrowPhase(const CollisionGeometry& X, const CollisionGeometry& Y, double margin,
                 std::vector<ContactPoint>* out) {
  const ShapeType tx = X.shape_type(), ty = Y.shape_type();
  if (tx == ShapeType::kHalfSpace) {
    const Plane plane = Plane::FromPose(X.X_WG());
    switch (ty) {
      case ShapeType::kSphere:
        PlaneSphereContacts(plane, Y.X_WG().p, Y.shape().radius, margin, out);
        return;
      case ShapeType::kCapsule: PlaneCapsuleContacts(plane, Round(Y), margin, out); return;
      case ShapeType::kCylinder: PlaneCylinderContacts(plane, Round(Y), margin, out); return;
      case ShapeType::kBox:
      case ShapeType::kMesh: PlaneHullContacts(plane, Hull(Y), margin, out); return;
      case ShapeType::kHalfSpace: return;  // Both on the world: never.
    }
    return;
  }
  if (tx == ShapeType::kSphere) {
    const Vector3& c = X.X_WG().p;
    const double r = X.shape().radius;
    switch (ty) {
      case ShapeType::kSphere:
        SphereSphereContacts(c, r, Y.X_WG().p, Y.shape().radius, margin, out);
        return;
      case ShapeType::kCapsule: SphereCapsuleContacts(c, r, Round(Y), margin, out); return;
      case ShapeType::kBox:
        SphereBoxContacts(c, r, Y.shape().size, Y.X_WG(), margin, out);
        return;
      case ShapeType::kMesh: SphereHullContacts(c, r, Hull(Y), margin, out); return;
      default: break;  // Cylinder: FCL below.
    }
  }
  if (tx == ShapeType::kCapsule && ty == ShapeType::kCapsule) {
    CapsuleCapsuleContacts(Round(X), Round(Y), margin, out);
    return;
  }
  if (IsPolytope(tx) && IsPolytope(ty)) {
    // Face axes first: they bound φ from below, so a face axis separating the
    // pair by the margin or more means no contact, and no GJK/MPR query
    // (HullHullContacts would append nothing whatever FCL returned).
    thread_local HullPairFaces faces;
    CalcHullHullFaces(Hull(X), Hull(Y), &faces);
    if (faces.separation() >= margin) return;
    const SignedDistance sd = FclSignedDistance(X, Y);
    if (!(sd.phi < margin)) return;
    if (HullHullContacts(Hull(X), Hull(Y), faces, sd.phi, margin, kFaceContactTolerance, out)) {
      return;
    }
    FclPointContact(sd, margin, out);
    return;
  }
  const SignedDistance sd = FclSignedDistance(X, Y);
  if (!(sd.phi < margin)) return;
  if (tx == ShapeType::kCapsule && IsPolytope(ty)) {
    const size_t begin = out->size();
    if (HullRoundContacts(Hull(Y), Round(X), RoundKind::kCapsule, sd.phi, margin,
                          kFaceContactTolerance, out)) {
      FlipContacts(out, begin);  // Computed with the polytope as A.
      return;
    }
  } else if (IsPolytope(tx) && ty == ShapeType::kCylinder) {
    if (HullRoundContacts(Hull(X), Round(Y), RoundKind::kCylinder, sd.phi, margin,
                          kFaceContactTolerance, out)) {
      return;
    }
  }
  FclPointContact(sd, margin, out);
}

}  // namespace

CollisionWorld::CollisionWorld(std::vector<CollisionGeometrySpec> geometries,
                               CollisionFilter filter)
    : filter_(std::move(filter)), broad_phase_(std::make_unique<BroadPhase>()) {
  // One hull per (file or in-memory mesh, scale), shared by every instance of
  // the mesh. In-memory meshes are keyed by address: the shapes hold them, so
  // the address cannot be reused while this loop runs.
  std::map<std::pair<std::string, std::array<double, 3>>, std::shared_ptr<const ConvexHull>>
      hulls;
  std::map<std::string, int> group_bit;
  std::vector<std::string> mesh_errors;
  geometries_.reserve(geometries.size());
  for (size_t i = 0; i < geometries.size(); ++i) {
    CollisionGeometrySpec& spec = geometries[i];
    const GeometryDescription& d = spec.description;
    if (spec.body < 0) {
      throw InputError("geometry '" + d.name + "': negative body index " +
                       std::to_string(spec.body));
    }
    std::shared_ptr<const ConvexHull> hull;
    if (d.collision && d.shape.type == ShapeType::kMesh) {
      const Vector3& s = d.shape.mesh_scale;
      const std::string source = d.shape.mesh_data
                                     ? "data:" + std::to_string(reinterpret_cast<std::uintptr_t>(d.shape.mesh_data.get()))
                                     : "file:" + d.shape.mesh_file;
      const auto key = std::make_pair(source, std::array<double, 3>{s.x(), s.y(), s.z()});
      auto it = hulls.find(key);
      if (it == hulls.end()) {
        const std::string where = d.where.ToString();
        const std::string at = where.empty() ? "" : where + ": ";
        std::shared_ptr<const ConvexHull> loaded;
        try {
          CollisionMesh mesh = LoadCollisionMesh(d.shape);
          if (const std::string open = DescribeOpenSurface(mesh); !open.empty()) {
            notes_.push_back(at + MeshWhat(d.shape) + " " + open + "; contact uses its convex hull");
          }
          loaded = std::make_shared<const ConvexHull>(std::move(mesh.hull));
        } catch (const InputError& e) {
          mesh_errors.push_back(at + e.what());  // Go on: every bad mesh in one message.
        }
        it = hulls.emplace(key, std::move(loaded)).first;
      }
      hull = it->second;
    }
    std::uint64_t mask = 0;
    if (d.collision) {
      for (const std::string& group : d.groups) {
        if (group.empty()) continue;  // "" is the default group: no exclusions.
        auto [it, inserted] = group_bit.emplace(group, static_cast<int>(group_names_.size()));
        if (inserted) {
          group_names_.push_back(group);
          if (group_names_.size() > 64) {
            throw InputError("more than 64 distinct collision groups (at '" + group + "')");
          }
        }
        mask |= std::uint64_t{1} << it->second;
      }
    }
    max_body_ = std::max(max_body_, spec.body);
    if (!mesh_errors.empty()) continue;  // Only reported (below).
    geometries_.emplace_back(static_cast<int>(i), std::move(spec), std::move(hull));
    geometries_.back().set_group_mask(mask);
  }

  if (mesh_errors.size() == 1) throw InputError(mesh_errors.front());
  if (!mesh_errors.empty()) {
    std::string message = std::to_string(mesh_errors.size()) + " collision meshes cannot be used:";
    for (const std::string& e : mesh_errors) message += "\n  " + e;
    throw InputError(message);
  }

  std::vector<fcl::CollisionObjectd*> dynamic_objects, static_objects;
  for (CollisionGeometry& g : geometries_) {
    if (!g.is_collision()) continue;
    if (g.is_half_space()) {
      half_space_ids_.push_back(g.index());
      continue;
    }
    g.SetBroadPhaseAabb(0);
    if (g.body() == 0) {
      static_ids_.push_back(g.index());
      static_objects.push_back(g.fcl_object());
    } else {
      dynamic_ids_.push_back(g.index());
      dynamic_objects.push_back(g.fcl_object());
    }
  }
  BuildCompliantGeometry();
  if (!dynamic_objects.empty()) broad_phase_->dynamic.registerObjects(dynamic_objects);
  if (!static_objects.empty()) broad_phase_->fixed.registerObjects(static_objects);
  broad_phase_->dynamic.setup();
  broad_phase_->fixed.setup();
}

// One volume mesh and hierarchy per distinct compliant shape and resolution
// (a pile of equal balls shares one), and a rigid surface per distinct rigid
// shape, built only when something is compliant.
void CollisionWorld::BuildCompliantGeometry() {
  const size_t n = geometries_.size();
  volume_meshes_.assign(n, nullptr);
  bvhs_.assign(n, nullptr);
  rigid_surfaces_.assign(n, nullptr);
  moduli_.assign(n, 0.0);
  auto key_of = [](const CollisionGeometry& g) {
    const ShapeDescription& s = g.shape();
    char buffer[256];
    std::snprintf(buffer, sizeof(buffer), "%d %.17g %.17g %.17g %.17g %.17g %.17g", static_cast<int>(s.type),
                  s.radius, s.length, s.size.x(), s.size.y(), s.size.z(),
                  g.description().compliant ? g.description().compliant->resolution : -1.0);
    // Meshes by their hull (shared per file and scale).
    return std::string(buffer) + (g.hull() != nullptr ? " hull " + std::to_string(reinterpret_cast<std::uintptr_t>(g.hull())) : "");
  };
  std::map<std::string, std::pair<std::shared_ptr<const VolumeMesh>, std::shared_ptr<const TetBvh>>> volumes;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const CollisionGeometry& g = geometries_[i];
    if (!g.is_collision() || !g.description().compliant) continue;
    any = true;
    auto it = volumes.find(key_of(g));
    if (it == volumes.end()) {
      const GeometryDescription& d = g.description();
      const std::string where = d.where.ToString();
      auto mesh = std::make_shared<const VolumeMesh>(MakeCompliantVolumeMesh(
          d.shape, d.compliant->resolution, g.hull(), (where.empty() ? "" : where + ": ") + "geometry '" + d.name + "'"));
      auto bvh = std::make_shared<const TetBvh>(*mesh);
      it = volumes.emplace(key_of(g), std::make_pair(std::move(mesh), std::move(bvh))).first;
    }
    volume_meshes_[i] = it->second.first;
    bvhs_[i] = it->second.second;
    moduli_[i] = ContactMaterial{}.hydroelastic_modulus;  // The default, until the Simulation sets the material's.
  }
  if (!any) return;
  std::map<std::string, std::shared_ptr<const SurfaceMesh>> rigid;
  for (size_t i = 0; i < n; ++i) {
    const CollisionGeometry& g = geometries_[i];
    if (!g.is_collision() || volume_meshes_[i] != nullptr || g.is_half_space()) continue;
    auto it = rigid.find(key_of(g));
    if (it == rigid.end()) {
      it = rigid.emplace(key_of(g), std::make_shared<const SurfaceMesh>(MakeRigidSurfaceMesh(g.shape(), g.hull())))
               .first;
    }
    rigid_surfaces_[i] = it->second;
  }
}

void CollisionWorld::SetHydroelasticModulus(int i, double modulus) {
  if (!(modulus > 0) || !std::isfinite(modulus)) {
    throw InputError("geometry '" + geometry(i).description().name +
                     "': hydroelastic_modulus must be positive and finite [Pa], got " + std::to_string(modulus));
  }
  moduli_.at(i) = modulus;
}

void CollisionWorld::ComputeSurfacePair(int a, int b, std::vector<ContactPoint>* contacts,
                                        std::vector<ContactSurface>* surfaces) const {
  const CollisionGeometry& A = geometries_[a];
  const CollisionGeometry& B = geometries_[b];
  auto soft = [&](int i) { return SoftGeometry{volume_meshes_[i].get(), bvhs_[i].get(), geometries_[i].X_WG(), moduli_[i]}; };
  auto rigid = [&](int i) { return RigidSurface{rigid_surfaces_[i].get(), geometries_[i].X_WG()}; };
  ContactSurface s;
  const bool soft_a = volume_meshes_[a] != nullptr, soft_b = volume_meshes_[b] != nullptr;
  if (soft_a && soft_b) {
    ComputeSoftSoftSurface(soft(a), soft(b), &s);
  } else if (A.is_half_space()) {
    ComputePlaneSoftSurface(Plane::FromPose(A.X_WG()), soft(b), &s);
  } else if (soft_b) {
    ComputeRigidSoftSurface(rigid(a), soft(b), &s);
  } else {
    ComputeRigidSoftSurface(rigid(b), soft(a), &s);  // Normals from b into a,
    s.Flip();                                         // now from a into b.
  }
  if (s.polygons.empty()) return;
  s.geometry_a = a;
  s.geometry_b = b;
  s.body_a = A.body();
  s.body_b = B.body();
  AppendPatchContacts(s, surfaces != nullptr ? static_cast<int>(surfaces->size()) : -1, contacts);
  if (surfaces != nullptr) surfaces->push_back(std::move(s));
}

CollisionWorld::~CollisionWorld() = default;
CollisionWorld::CollisionWorld(CollisionWorld&&) noexcept = default;
CollisionWorld& CollisionWorld::operator=(CollisionWorld&&) noexcept = default;

void CollisionWorld::UpdatePoses(const std::vector<RigidTransform>& X_WB) {
  if (static_cast<int>(X_WB.size()) <= max_body_) {
    throw InputError("CollisionWorld::UpdatePoses: got " + std::to_string(X_WB.size()) +
                     " body poses, but a geometry belongs to body " + std::to_string(max_body_));
  }
  for (CollisionGeometry& g : geometries_) {
    if (g.body() == 0) {
      const RigidTransform& X_W0 = X_WB[0];
      // The world normally stays put: skip re-fitting the static tree then.
      const RigidTransform expected = X_W0 * g.X_BG();
      if (expected.R == g.X_WG().R && expected.p == g.X_WG().p) continue;
      static_dirty_ = true;
    }
    g.SetBodyPose(X_WB[g.body()]);
  }
}

bool CollisionWorld::CanCollide(int i, int j) const {
  if (i == j) return false;
  const CollisionGeometry& a = geometries_[i];
  const CollisionGeometry& b = geometries_[j];
  if (!a.is_collision() || !b.is_collision()) return false;
  if (a.body() == b.body()) return false;  // Also world–world.
  if ((a.group_mask() & b.group_mask()) != 0) return false;
  const GeometryDescription& da = a.description();
  const GeometryDescription& db = b.description();
  if (((da.contype & db.conaffinity) | (db.contype & da.conaffinity)) == 0) return false;  // MJCF bitmasks.
  return !filter_.Excludes(a.body(), b.body());
}

void CollisionWorld::CollectCandidatePairs(double margin) {
  candidate_pairs_.clear();
  // Shapes closer than `margin` have AABBs less than `margin` apart on every
  // axis, so growing each AABB by margin/2 catches every pair within margin.
  const double inflation = 0.5 * margin;
  for (int id : dynamic_ids_) geometries_[id].SetBroadPhaseAabb(inflation);
  if (!dynamic_ids_.empty()) broad_phase_->dynamic.update();
  if (static_dirty_ || static_margin_ != inflation) {
    for (int id : static_ids_) geometries_[id].SetBroadPhaseAabb(inflation);
    if (!static_ids_.empty()) broad_phase_->fixed.update();
    static_dirty_ = false;
    static_margin_ = inflation;
  }
  CallbackData data{this, &candidate_pairs_};
  if (!dynamic_ids_.empty()) {
    broad_phase_->dynamic.collide(&data, CollectPair);
    if (!static_ids_.empty()) broad_phase_->dynamic.collide(&broad_phase_->fixed, &data, CollectPair);
  }
  // Half-spaces have infinite AABBs: test each moving geometry's AABB against
  // the plane directly (the AABB's lowest point along -n).
  for (int h : half_space_ids_) {
    const Plane plane = Plane::FromPose(geometries_[h].X_WG());
    const Vector3& n = plane.normal_W;
    for (int id : dynamic_ids_) {
      const Aabb& box = geometries_[id].aabb_W();
      const Vector3 centre = 0.5 * (box.min_W + box.max_W);
      const Vector3 half = 0.5 * (box.max_W - box.min_W);
      const double lowest = n.dot(centre) - n.cwiseAbs().dot(half) - plane.offset;
      if (lowest < margin && CanCollide(h, id)) {
        candidate_pairs_.emplace_back(std::min(h, id), std::max(h, id));
      }
    }
  }
  std::sort(candidate_pairs_.begin(), candidate_pairs_.end());
  candidate_pairs_.erase(std::unique(candidate_pairs_.begin(), candidate_pairs_.end()),
                         candidate_pairs_.end());
}

void CollisionWorld::ComputeContacts(double margin, std::vector<ContactPoint>* contacts) {
  if (!(margin >= 0) || !std::isfinite(margin)) {
    throw InputError("CollisionWorld::ComputeContacts: margin must be >= 0 and finite, got " +
                     std::to_string(margin));
  }
  contacts->clear();
  surfaces_.clear();
  surface_seconds_ = 0;
  const Clock::time_point t0 = Clock::now();
  // Asleep bodies are frozen against each other and the world: nothing to
  // find between them; when every moving geometry is asleep, no pair at all.
  auto frozen = [&](int g) {
    const int body = geometries_[g].body();
    return body == 0 || (body < static_cast<int>(sleeping_bodies_.size()) && sleeping_bodies_[body] != 0);
  };
  const bool all_frozen =
      !sleeping_bodies_.empty() && std::all_of(dynamic_ids_.begin(), dynamic_ids_.end(), frozen);
  if (all_frozen) {
    candidate_pairs_.clear();
  } else {
    CollectCandidatePairs(margin);
  }
  if (!sleeping_bodies_.empty()) {
    std::erase_if(candidate_pairs_, [&](const std::pair<int, int>& p) { return frozen(p.first) && frozen(p.second); });
  }
  const Clock::time_point t1 = Clock::now();
  for (const auto& [i, j] : candidate_pairs_) {
    if (volume_meshes_[i] != nullptr || volume_meshes_[j] != nullptr) {
      const Clock::time_point s0 = Clock::now();
      ComputePairContacts(i, j, margin, contacts, &surfaces_);
      surface_seconds_ += std::chrono::duration<double>(Clock::now() - s0).count();
    } else {
      ComputePairContacts(i, j, margin, contacts);
    }
  }
  const Clock::time_point t2 = Clock::now();
  broad_phase_seconds_ = std::chrono::duration<double>(t1 - t0).count();
  narrow_phase_seconds_ = std::chrono::duration<double>(t2 - t1).count();
}

void CollisionWorld::ComputePairContacts(int i, int j, double margin, std::vector<ContactPoint>* contacts,
                                         std::vector<ContactSurface>* surfaces) const {
  int a = std::min(i, j), b = std::max(i, j);
  if (a == b || a < 0 || b >= num_geometries()) return;
  if (geometries_[b].is_half_space()) std::swap(a, b);
  const CollisionGeometry& A = geometries_[a];
  const CollisionGeometry& B = geometries_[b];
  if (!A.is_collision() || !B.is_collision()) return;
  if (A.is_half_space() && B.is_half_space()) return;
  if (volume_meshes_[a] != nullptr || volume_meshes_[b] != nullptr) {
    ComputeSurfacePair(a, b, contacts, surfaces);
    return;
  }
  const size_t begin = contacts->size();
  if (Rank(A.shape_type()) <= Rank(B.shape_type())) {
    NarrowPhase(A, B, margin, contacts);
  } else {
    NarrowPhase(B, A, margin, contacts);
    FlipContacts(contacts, begin);
  }
  for (size_t k = begin; k < contacts->size(); ++k) {
    ContactPoint& c = (*contacts)[k];
    c.body_a = A.body();
    c.body_b = B.body();
    c.geometry_a = a;
    c.geometry_b = b;
  }
}

}  // namespace stiction
