#include "engine/stepping/sleep_tracker.h"

#include <algorithm>
#include <numeric>

namespace stiction {
namespace {

// Union–find over trees, smallest index as root (islands are then named by
// their first tree, whatever the order of the pairs).
int Root(std::vector<int>& parent, int t) {
  while (parent[t] != t) t = parent[t] = parent[parent[t]];
  return t;
}

void Join(std::vector<int>& parent, int a, int b) {
  a = Root(parent, a);
  b = Root(parent, b);
  if (a == b) return;
  if (a > b) std::swap(a, b);
  parent[b] = a;
}

}  // namespace

SleepTracker::SleepTracker(const MultibodyModel& model, const ConstraintSources& sources)
    : model_(model), sources_(sources), tree_of_body_(model.num_bodies(), -1) {
  for (int t = 0; t < model.num_trees(); ++t) {
    for (int b = model.tree(t).body_begin; b < model.tree(t).body_end; ++b) tree_of_body_[b] = t;
  }
  state_.asleep.assign(model.num_trees(), 0);
  state_.rest_time.assign(model.num_trees(), 0.0);
  state_.island.assign(model.num_trees(), -1);
  asleep_bodies_.assign(model.num_bodies(), 0);
}

void SleepTracker::UpdateSleepable() {
  // Driven trees never sleep; passive constraints (welds, balls, couplers,
  // tendon limits) do not drive, but one between two trees joins them into
  // one island.
  sleepable_.assign(model_.num_trees(), 1);
  links_.clear();
  auto tree_of_joint = [&](int joint) { return joint >= 0 ? tree_of_body_[model_.joint(joint).child] : -1; };
  auto drive = [&](int tree) {
    if (tree >= 0) sleepable_[tree] = 0;
  };
  auto link = [&](int a, int b) {
    if (a >= 0 && b >= 0 && a != b) links_.emplace_back(std::min(a, b), std::max(a, b));
  };
  for (const JointActuator& a : sources_.actuators) drive(tree_of_joint(a.joint));
  for (const CartesianImpedance& c : sources_.cartesian_impedances) drive(tree_of_body_[c.body]);
  for (const TendonServo& c : sources_.tendon_servos) {
    for (const auto& [joint, coefficient] : c.joints) drive(tree_of_joint(joint));
  }
  for (const BodyConstraint& c : sources_.body_constraints) link(tree_of_body_[c.body_a], tree_of_body_[c.body_b]);
  for (const JointCoupler& c : sources_.joint_couplers) link(tree_of_joint(c.joint), tree_of_joint(c.leader));
  for (const TendonConstraint& c : sources_.tendons) {
    for (const auto& [joint, coefficient] : c.joints) link(tree_of_joint(c.joints.front().first), tree_of_joint(joint));
  }
}

void SleepTracker::WakeAll() {
  std::fill(state_.asleep.begin(), state_.asleep.end(), 0);
  std::fill(state_.rest_time.begin(), state_.rest_time.end(), 0.0);
  std::fill(state_.island.begin(), state_.island.end(), -1);
  state_.touching.clear();
  state_.reports.clear();
  Refresh();
}

void SleepTracker::Wake(int tree) {
  const int island = state_.island[tree];
  if (island < 0) return;
  for (int t = 0; t < model_.num_trees(); ++t) {
    if (state_.island[t] != island) continue;
    state_.asleep[t] = 0;
    state_.island[t] = -1;
    state_.rest_time[t] = 0;
  }
}

void SleepTracker::Sleep(const std::vector<int>& trees) {
  for (const int t : trees) {
    state_.asleep[t] = 1;
    state_.island[t] = trees.front();
  }
}

void SleepTracker::Refresh() {
  num_asleep_trees_ = 0;
  std::fill(asleep_bodies_.begin(), asleep_bodies_.end(), 0);
  for (int t = 0; t < model_.num_trees(); ++t) {
    if (!state_.asleep[t]) continue;
    ++num_asleep_trees_;
    for (int b = model_.tree(t).body_begin; b < model_.tree(t).body_end; ++b) asleep_bodies_[b] = 1;
  }
  // A woken island's frozen contacts go: the query finds them again.
  std::erase_if(state_.reports, [&](const ContactReport& r) { return !Frozen(r.body_a) || !Frozen(r.body_b); });
}

void SleepTracker::BeginStep(const SleepParameters& p, double dt, const KinematicsCache& cache_q0,
                             const VectorX* tau_ext, const std::vector<ContactReport>& last_reports) {
  if (!p.enabled) {
    if (num_asleep_trees_ > 0 || !state_.touching.empty()) WakeAll();
    return;
  }
  const int num_trees = model_.num_trees();
  UpdateSleepable();  // The sources change (a gripper's controller is added after the stepper exists).
  // Forces wake, and a tree under a force is not at rest.
  for (int t = 0; t < num_trees; ++t) {
    const Tree& tree = model_.tree(t);
    const bool forced = tau_ext != nullptr && !tau_ext->segment(tree.v_start, tree.nv).isZero(0);
    if (forced) {
      Wake(t);
      state_.rest_time[t] = 0;
      continue;
    }
    if (state_.asleep[t]) continue;
    bool at_rest = sleepable_[t] != 0;
    for (int b = tree.body_begin; at_rest && b < tree.body_end; ++b) {
      const Vector6& V = cache_q0.V_WB[b];  // [ω; v of the point at Wo].
      const Vector3 w = V.head<3>();
      const Vector3 v_cm = V.tail<3>() + w.cross(cache_q0.p_WBcm[b]);
      at_rest = v_cm.norm() < p.linear_speed && w.norm() < p.angular_speed;
    }
    state_.rest_time[t] = at_rest ? state_.rest_time[t] + dt : 0.0;
  }
  // Islands of the last step's contacts among the awake trees.
  std::vector<int> parent(num_trees);
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& [a, b] : state_.touching) Join(parent, a, b);
  for (const auto& [a, b] : links_) Join(parent, a, b);
  std::vector<char> ready(num_trees, 1);  // Per root: every tree of the island rested long enough.
  for (int t = 0; t < num_trees; ++t) {
    if (state_.asleep[t] || !sleepable_[t] || state_.rest_time[t] < p.time) ready[Root(parent, t)] = 0;
  }
  std::vector<std::vector<int>> islands(num_trees);
  for (int t = 0; t < num_trees; ++t) {
    if (!state_.asleep[t]) islands[Root(parent, t)].push_back(t);
  }
  std::vector<char> fell_asleep(num_trees, 0);
  for (int r = 0; r < num_trees; ++r) {
    if (!ready[r] || islands[r].empty()) continue;
    Sleep(islands[r]);
    for (const int t : islands[r]) fell_asleep[t] = 1;
  }
  Refresh();
  // The contacts of the islands that fell asleep now, as they last were.
  for (const ContactReport& report : last_reports) {
    const int ta = tree_of_body_[report.body_a], tb = tree_of_body_[report.body_b];
    if (!Frozen(report.body_a) || !Frozen(report.body_b)) continue;
    if (!(ta >= 0 && fell_asleep[ta]) && !(tb >= 0 && fell_asleep[tb])) continue;
    ContactReport frozen = report;
    frozen.surface = frozen.polygon = -1;  // Its pressure-field surface is not kept.
    state_.reports.push_back(frozen);
  }
}

bool SleepTracker::WakeTouched(const std::vector<ContactPoint>& points) {
  if (num_asleep_trees_ == 0) return false;
  bool woke = false;
  for (const ContactPoint& c : points) {
    const int ta = tree_of_body_[c.body_a], tb = tree_of_body_[c.body_b];
    if (ta < 0 || tb < 0) continue;  // The world wakes nobody.
    const bool sa = state_.asleep[ta] != 0, sb = state_.asleep[tb] != 0;
    if (sa == sb) continue;
    Wake(sa ? ta : tb);
    woke = true;
  }
  if (woke) Refresh();
  return woke;
}

void SleepTracker::NoteContacts(const std::vector<ContactPoint>& points) {
  state_.touching.clear();
  for (const ContactPoint& c : points) {
    const int ta = tree_of_body_[c.body_a], tb = tree_of_body_[c.body_b];
    if (ta < 0 || tb < 0 || ta == tb) continue;
    state_.touching.emplace_back(std::min(ta, tb), std::max(ta, tb));
  }
  std::sort(state_.touching.begin(), state_.touching.end());
  state_.touching.erase(std::unique(state_.touching.begin(), state_.touching.end()), state_.touching.end());
}

int SleepTracker::num_asleep_bodies() const {
  return static_cast<int>(std::count(asleep_bodies_.begin(), asleep_bodies_.end(), 1));
}

void SleepTracker::Restore(const SleepState& s) {
  if (s.asleep.size() != state_.asleep.size()) {
    WakeAll();
    return;
  }
  state_ = s;
  Refresh();
}

}  // namespace stiction
