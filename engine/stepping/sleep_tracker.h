#pragma once
// Sleeping islands for the θ-method (solver.sleep; docs/architecture.md,
// "Sleeping islands"): bodies at rest stop costing until something touches
// them. The unit is the tree (a free body, or an unactuated articulated
// body); an island is a set of trees joined by the last step's contacts
// (the world joins nothing). An island falls asleep when every tree in it is
// sleepable and has been at rest for solver.sleep_time; while asleep its
// trees are frozen (v = 0, q unchanged): the stepper skips their free
// motion, the collision query skips their pairs with each other and with
// the world, and they are in no contact problem.
//
// An island wakes, whole, when a contact point joins it to an awake body
// (a moving body within the speculative margin), when a generalized force
// (a perturbation, a motor) acts on one of its trees, and on every reset,
// new state and parameter edit (WakeAll). Everything is decided from the
// state and the step's inputs in a fixed order, so sleeping is
// deterministic, and a saved state (StepperMemory::sleep) restores it.
//
// Sleepable: a tree that no actuator, Cartesian impedance or tendon servo
// drives (a robot never sleeps, and a body it touches sleeps only once the
// robot lets go). Passive constraints — welds and balls, joint couplers,
// tendon limits — do not drive; one between two trees joins them into one
// island, like a contact (a ragdoll with its hamstring tendons sleeps).
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/contact/constraint_sources.h"
#include "engine/contact/contact_constraints.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/multibody/kinematics.h"
#include "engine/multibody/multibody_model.h"
#include "engine/parameters/sleep_parameters.h"

namespace stiction {

/// What a saved state holds of sleeping (StepperMemory::sleep).
struct SleepState {
  std::vector<char> asleep;       ///< Per tree.
  std::vector<double> rest_time;  ///< Per tree: how long it has been at rest [s].
  std::vector<int> island;        ///< Per asleep tree: its island (the island's first tree); −1 awake.
  /// Trees (a < b) that touched in the last step: the islands of the next.
  std::vector<std::pair<int, int>> touching;
  /// The contacts between sleeping bodies (and the world) as the last step
  /// before they fell asleep reported them: a sleeping body still shows its
  /// contacts and carries its weight in every report (as point contacts:
  /// surface and polygon −1).
  std::vector<ContactReport> reports;
  bool empty() const { return asleep.empty(); }
};

class SleepTracker {
 public:
  /// `model` and `sources` outlive the tracker; the sources are read at
  /// every step (controllers are added to them after the stepper exists).
  SleepTracker(const MultibodyModel& model, const ConstraintSources& sources);

  /// Wakes every tree and restarts every rest time (a reset, a new state,
  /// a parameter edit).
  void WakeAll();
  /// At the start of a step of dt [s], from the start-of-step velocities
  /// (cache_q0, CalcKinematics at (q0, v0)): trees with a generalized force
  /// in tau_ext (may be null) wake with their islands and are not at rest;
  /// the rest times of the other awake trees advance; then every island of
  /// the last step's contacts whose trees have all rested p.time falls
  /// asleep. With p.enabled false, wakes everything (switching it off lets
  /// the sleepers go).
  /// `last_reports`: the contacts the last step reported, from which an
  /// island that falls asleep keeps its own (reports()).
  void BeginStep(const SleepParameters& p, double dt, const KinematicsCache& cache_q0, const VectorX* tau_ext,
                 const std::vector<ContactReport>& last_reports);
  /// After the contact query: wakes the islands a contact point joins to an
  /// awake body. Returns true when any woke (the query must then be made
  /// again: it skipped their pairs with the world).
  bool WakeTouched(const std::vector<ContactPoint>& points);
  /// The trees the step's contact points join, for the next BeginStep.
  void NoteContacts(const std::vector<ContactPoint>& points);

  bool asleep(int tree) const { return state_.asleep[tree] != 0; }
  bool any_asleep() const { return num_asleep_trees_ > 0; }
  /// Per body (index = body index, 0 = the world): 1 when asleep.
  const std::vector<char>& asleep_bodies() const { return asleep_bodies_; }
  int num_asleep_bodies() const;
  int tree_of_body(int body) const { return tree_of_body_[body]; }
  /// The sleeping islands' contacts, frozen (SleepState::reports).
  const std::vector<ContactReport>& reports() const { return state_.reports; }

  const SleepState& state() const { return state_; }
  /// Back to a saved state; an empty one (saved before sleeping existed, or
  /// by another stepper) wakes everything.
  void Restore(const SleepState& s);

 private:
  void Wake(int tree);   // The tree's island.
  void Sleep(const std::vector<int>& trees);
  void Refresh();        // asleep_bodies_, the count and the reports from state_.asleep.
  void UpdateSleepable();  // sleepable_ from the sources as they are now.
  // The world, or a body asleep.
  bool Frozen(int body) const { return body == 0 || asleep_bodies_[body] != 0; }

  const MultibodyModel& model_;
  const ConstraintSources& sources_;  // Outlives the tracker (the stepper's).
  std::vector<int> tree_of_body_;  // −1 for the world.
  std::vector<char> sleepable_;
  std::vector<std::pair<int, int>> links_;  // Trees a passive constraint joins (a < b).
  SleepState state_;
  std::vector<char> asleep_bodies_;
  int num_asleep_trees_ = 0;
};

}  // namespace stiction
