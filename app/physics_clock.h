#pragma once
// Decides how many physics steps a frame takes so that simulated time follows
// wall time times the real-time factor (RTF), inside a wall-time budget per
// frame so that rendering never waits long on physics. When physics cannot
// keep up, the debt is dropped (the simulation slows down instead of
// spiralling) and the achieved RTF shows it.
//
// Use per frame: BeginFrame(wall_dt); while (WantsStep(dt) && within budget)
// { step; OnStep(dt); } EndFrame(wall_dt).
#include <deque>

namespace stiction::app {

class PhysicsClock {
 public:
  static constexpr double kMinRealTimeFactor = 0.01;
  static constexpr double kMaxRealTimeFactor = 100.0;

  /// Target RTF in [0.01, 100]; values outside are clamped.
  void set_real_time_factor(double rtf);
  double real_time_factor() const { return rtf_; }
  /// As fast as possible: step until the frame budget is spent.
  void set_unlimited(bool unlimited) { unlimited_ = unlimited; }
  bool unlimited() const { return unlimited_; }
  /// Wall time physics may take per frame [s].
  void set_budget(double seconds) { budget_s_ = seconds; }
  double budget() const { return budget_s_; }

  /// Adds rtf · wall_dt of simulated time to the debt. wall_dt [s] is capped
  /// (a stalled frame, e.g. a window drag, does not trigger a burst).
  void BeginFrame(double wall_dt);
  /// True if a step of dt [s] is owed.
  bool WantsStep(double dt) const;
  void OnStep(double dt);
  /// Ends the frame: drops unpaid debt beyond one step, updates the achieved RTF.
  void EndFrame(double wall_dt, double dt);
  /// Forget debt and history (after pause, reset, load).
  void Restart();

  /// Simulated over wall time across the last ~0.5 s of frames.
  double achieved_real_time_factor() const { return achieved_rtf_; }

 private:
  double rtf_ = 1.0;
  bool unlimited_ = false;
  double budget_s_ = 0.012;
  double debt_s_ = 0;          // Simulated time owed [s].
  double frame_sim_s_ = 0;     // Simulated this frame [s].
  struct Sample { double wall, sim; };
  std::deque<Sample> history_;
  double achieved_rtf_ = 0;
};

}  // namespace stiction::app
