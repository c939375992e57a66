// stiction-soak (docs/soak.md): the invariant checkers in-process, each on a
// case that makes it fail or pins its number; then the CI soak, the real
// executable for 30 s of wall time on the clutter and on the grasp demo.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/soak_events.h"
#include "cli/soak_invariants.h"
#include "cli/soak_memory.h"
#include "cli/soak_runner.h"
#include "engine/common/error.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/simulation.h"
#include "tests/app/run_command.h"
#include "tests/support/scratch_dir.h"

namespace stiction::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kScenesDir = fs::path(STICTION_SOURCE_DIR) / "assets" / "scenes";
constexpr double kMiB = 1024.0 * 1024.0;

std::string Scene(const std::string& name) { return (kScenesDir / (name + ".yaml")).string(); }

// ---------------------------------------------------------------------------
// Finite state.

TEST(SoakInvariantsTest, ANonFiniteStateIsFlaggedAndTheEngineRefusesToTakeOne) {
  Simulation sim = Simulation::FromFile(Scene("falling_box"));
  EXPECT_TRUE(StateIsFinite(sim));
  VectorX q = sim.positions();
  q[q.size() - 1] = std::numeric_limits<double>::quiet_NaN();
  // SetState is the one way to inject a state, and it refuses NaN: the
  // soak's check is the guard behind it (and behind every step).
  EXPECT_THROW(sim.SetState(q, sim.velocities()), InputError);
  EXPECT_TRUE(StateIsFinite(sim));
  EXPECT_FALSE(StateIsFinite(q, sim.velocities()));
  VectorX v = sim.velocities();
  v[0] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(StateIsFinite(sim.positions(), v));
  EXPECT_TRUE(StateIsFinite(sim.positions(), sim.velocities()));
}

TEST(SoakInvariantsTest, DeepestPenetrationIsTheLargestOverlapAndNaNPropagates) {
  std::vector<ContactReport> contacts(3);
  contacts[0].phi = 0.002;    // Apart (speculative contact): no overlap.
  contacts[1].phi = -0.0031;  // The deepest.
  contacts[2].phi = -0.001;
  EXPECT_EQ(DeepestPenetration(contacts), 0.0031);
  EXPECT_EQ(DeepestPenetration({}), 0.0);
  contacts[2].phi = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(DeepestPenetration(contacts)));
}

// ---------------------------------------------------------------------------
// Energy budget and work.

TEST(SoakInvariantsTest, FreeFallBudgetIsMghAndTheKineticEnergyMatchesIt) {
  // falling_box: a 1 kg box 0.5 m up (its bottom 0.45 m up); in 0.2 s it
  // falls 0.196 m and touches nothing.
  Simulation sim = Simulation::FromFile(Scene("falling_box"));
  const double z0 = sim.CalcBodyStates()[0].position.z();
  EnergyBudget budget;
  budget.Restart(sim.CalcKineticEnergy(), sim.CalcPotentialEnergy());
  WorkMeter meter;
  for (int i = 0; i < 200; ++i) {
    meter.BeginStep(sim, {});
    const StepResult result = sim.Step();
    ASSERT_EQ(result.status, StepStatus::kSuccess);
    const StepWork w = meter.EndStep(sim, result.stats);
    EXPECT_EQ(w.total(), 0.0);  // No wrench, no actuator.
    budget.AddWork(w.total());
  }
  ASSERT_TRUE(sim.contacts().empty());
  const double h = z0 - sim.CalcBodyStates()[0].position.z();
  const double m = 1.0, g = 9.81;
  EXPECT_NEAR(h, 0.5 * g * 0.2 * 0.2, 1e-12);  // Midpoint: exact for a constant acceleration.
  // E_in = KE0 + PE0 − PE = m g h (KE0 = 0); rounding only.
  EXPECT_NEAR(budget.Input(sim.CalcPotentialEnergy()), m * g * h, 1e-12);
  // And the kinetic energy is all of it: the midpoint rule conserves KE + PE
  // under a constant force (rounding only).
  EXPECT_NEAR(sim.CalcKineticEnergy(), m * g * h, 1e-12);
  const EnergyLimit strict{1.0, 1e-12};
  EXPECT_TRUE(strict.Holds(sim.CalcKineticEnergy(), budget.Input(sim.CalcPotentialEnergy())));
  // An energy that appeared from nowhere is not within it.
  EXPECT_FALSE(strict.Holds(sim.CalcKineticEnergy() + 1e-6, budget.Input(sim.CalcPotentialEnergy())));
}

TEST(SoakInvariantsTest, WrenchWorkEqualsTheKineticEnergyItGives) {
  // No gravity: all kinetic energy comes from the wrench. A force off the
  // centre of mass also spins the box.
  Simulation sim = Simulation::FromFile(Scene("falling_box"), {"gravity=[0,0,0]"});
  WorkMeter meter;
  double work = 0, work_by_meter = 0;
  for (int i = 0; i < 300; ++i) {
    const BodyState box = sim.CalcBodyStates()[0];
    // 3 N along x at a body-fixed point 3 cm off the centre along y.
    ExternalWrench w;
    w.body = 1;
    w.p_WP = box.position + box.orientation * Vector3(0, 0.03, 0);
    w.f_W = Vector3(3, 0, 0);
    std::vector<ExternalWrench> wrenches{w};
    sim.SetExternalWrenches(wrenches);
    meter.BeginStep(sim, wrenches);
    const StepResult result = sim.Step();
    ASSERT_EQ(result.status, StepStatus::kSuccess);
    ASSERT_TRUE(result.stats.work_metered);
    work += meter.EndStep(sim, result.stats).perturbation;  // The stepper's figure.
    work_by_meter += meter.EndStep(sim, StepStats()).perturbation;  // The meter's own (NMDP).
  }
  const double kinetic = sim.CalcKineticEnergy();
  EXPECT_GT(sim.CalcBodyStates()[0].angular_velocity.norm(), 1.0);  // It does spin.
  // The midpoint identity ΔKE = pᵀ v̄ is exact for a constant mass matrix,
  // which a free body has in its own velocity coordinates: rounding only
  // (300 steps of sums of O(1) numbers).
  EXPECT_NEAR(work, kinetic, 1e-9 * kinetic) << "work " << work << " J, KE " << kinetic << " J";
  EXPECT_NEAR(work_by_meter, kinetic, 1e-9 * kinetic) << "work " << work_by_meter << " J, KE " << kinetic << " J";
}

TEST(SoakInvariantsTest, DefaultPenetrationLimitIsTheSmallestRadiusOfGyration) {
  // clutter: 5 cm spheres (sqrt(0.6) r = 3.873 cm) and 10 cm boxes (5 cm).
  EXPECT_NEAR(SmallestRadiusOfGyration(Simulation::FromFile(Scene("clutter")).model(), 1), std::sqrt(0.6) * 0.05,
              1e-12);
  EXPECT_EQ(SmallestRadiusOfGyration(Simulation::FromFile(Scene("three_link_arm")).model(), 0.05), 0.05);
}

TEST(SoakInvariantsTest, EnergyFloorIsTheTotalMassDroppedByTheHeight) {
  Simulation sim = Simulation::FromFile(Scene("falling_box"));
  EXPECT_DOUBLE_EQ(EnergyFloor(sim.model(), 0.005), 1.0 * 9.81 * 0.005);
  Simulation weightless = Simulation::FromFile(Scene("falling_box"), {"gravity=[0,0,0]"});
  EXPECT_DOUBLE_EQ(EnergyFloor(weightless.model(), 0.005), 1.0 * 9.81 * 0.005);  // |g| := 9.81.
}

// ---------------------------------------------------------------------------
// Resident memory.

TEST(SoakMemoryTest, RssIsPositiveAndGrowsWhenMemoryIsTouched) {
  const std::optional<std::int64_t> before = ResidentMemoryBytes();
  ASSERT_TRUE(before.has_value());
  EXPECT_GT(*before, 0);
  std::vector<char> block(64 << 20);
  for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = static_cast<char>(i);
  const std::optional<std::int64_t> after = ResidentMemoryBytes();
  ASSERT_TRUE(after.has_value());
  // 64 MiB touched page by page; at least half of it must show (the
  // allocator may have had some of it resident already).
  EXPECT_GT(*after - *before, 32 << 20) << "before " << *before << ", after " << *after;
  volatile char sink = block[block.size() / 2];
  (void)sink;
}

TEST(SoakMemoryTest, MonitorJudgesOnlyAfterTheWarmUpAndFitsTheSlope) {
  ResidentMemoryMonitor flat(16 * kMiB);
  flat.AddSample(0, 100 * 1024 * 1024, /*warming_up=*/true);  // Warm-up growth is not judged.
  for (int s = 1; s <= 10; ++s) flat.AddSample(s, static_cast<std::int64_t>(200 * kMiB + s * kMiB), false);
  EXPECT_FALSE(flat.exceeded());
  EXPECT_EQ(flat.start_bytes(), static_cast<std::int64_t>(201 * kMiB));
  EXPECT_EQ(flat.max_growth_bytes(), static_cast<std::int64_t>(9 * kMiB));
  EXPECT_NEAR(flat.slope_bytes_per_s(), kMiB, 1e-6 * kMiB);  // Exactly linear samples.

  ResidentMemoryMonitor leak(16 * kMiB);
  for (int s = 0; s <= 20; ++s) leak.AddSample(s, static_cast<std::int64_t>(100 * kMiB + s * kMiB), false);
  EXPECT_TRUE(leak.exceeded());  // 20 MiB > 16 MiB.
}

// ---------------------------------------------------------------------------
// Events.

// Every parameter of every table the edits touch is in its range, and δt in
// [0.5, 2] x the scene's, after many random edits and switches.
TEST(SoakEventsTest, EditsStayWithinTheValidRanges) {
  Simulation sim = Simulation::FromFile(Scene("clutter"));
  const double dt0 = sim.time_step();
  SoakEventSource events(sim, SoakEventOptions{}, 7);
  int described = 0;
  for (int i = 0; i < 2000; ++i) {
    if (i % 50 == 0) events.SwitchSolver(&sim);
    if (i % 70 == 0) events.SwitchContactModel(&sim);
    if (!events.EditParameter(&sim).empty()) ++described;
    ContactModelParameters contact = sim.contact_model_parameters();
    EXPECT_NO_THROW(CheckParameters("contact", BindParameters(contact)));
    for (const std::string& name : sim.material_names()) {
      ContactMaterial m = sim.GetMaterial(name);
      EXPECT_NO_THROW(CheckParameters(name, BindParameters(m)));
    }
    EXPECT_NO_THROW(ValidateSolverSettings(sim.solver_settings()));
    EXPECT_GE(sim.time_step(), 0.5 * dt0);
    EXPECT_LE(sim.time_step(), 2.0 * dt0);
  }
  EXPECT_GT(events.counts().edits, 1500);  // Nearly every draw is an edit.
  EXPECT_GT(described, 1500);
  EXPECT_EQ(events.counts().solver_switches, 40);
  EXPECT_EQ(events.counts().model_switches, 29);
}

TEST(SoakEventsTest, TheSameSeedGivesTheSameEvents) {
  auto draw = [](std::uint64_t seed) {
    Simulation sim = Simulation::FromFile(Scene("clutter"));
    SoakEventSource events(sim, SoakEventOptions{}, seed);
    std::string log;
    for (int i = 0; i < 200; ++i) {
      if (events.Occurs(5.0, 0.01)) log += events.EditParameter(&sim) + "\n";
      if (events.Occurs(5.0, 0.01)) log += events.StartPerturbation(sim, 0.01 * i) + "\n";
    }
    return log;
  };
  const std::string a = draw(3);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, draw(3));
  EXPECT_NE(a, draw(4));
}

TEST(SoakEventsTest, PerturbationsHitFreeBodiesWithinTheForceBoundAndExpire) {
  Simulation sim = Simulation::FromFile(Scene("falling_box"));
  SoakEventOptions options;
  SoakEventSource events(sim, options, 11);
  ASSERT_TRUE(events.has_free_bodies());
  for (int i = 0; i < 100; ++i) events.StartPerturbation(sim, 0);
  const std::vector<ExternalWrench> held = events.ActiveWrenches(sim, 0.04);
  ASSERT_EQ(held.size(), 100u);  // All held at least 0.05 s.
  for (const ExternalWrench& w : held) {
    EXPECT_EQ(w.body, 1);
    EXPECT_LE(w.f_W.norm(), options.max_force_weights * 1.0 * 9.81);
    // Within the cube's radius of gyration of its centre: sqrt(tr(I)/2m)
    // = a/2 = 5 cm for a side a = 10 cm (I = m a^2/6 per axis); 1e-12 for
    // the rounding of the pose.
    EXPECT_LE((w.p_WP - sim.CalcBodyStates()[0].position).norm(), 0.05 + 1e-12);
  }
  EXPECT_TRUE(events.ActiveWrenches(sim, 0.5).empty());  // All released by 0.5 s.
  Simulation robot = Simulation::FromFile(Scene("three_link_arm"));
  SoakEventSource none(robot, options, 11);
  EXPECT_FALSE(none.has_free_bodies());
  EXPECT_EQ(none.StartPerturbation(robot, 0), "");
}

// ---------------------------------------------------------------------------
// The command line.

TEST(SoakCommandLineTest, DefaultsAndBadInput) {
  std::ostringstream out, err;
  const SoakParseResult ok = ParseSoakCommandLine({"scene.yaml"}, out, err);
  ASSERT_TRUE(ok.options.has_value());
  EXPECT_EQ(*ok.options->wall_time_s, 60.0);
  EXPECT_EQ(ok.options->seed, 1u);
  const SoakParseResult both = ParseSoakCommandLine({"s.yaml", "--wall-time", "5", "--duration", "5"}, out, err);
  EXPECT_FALSE(both.options.has_value());
  EXPECT_EQ(both.exit_code, kSoakInputError);
  std::ostringstream err2;
  const SoakParseResult rate = ParseSoakCommandLine({"s.yaml", "--reset-rate", "-1"}, out, err2);
  EXPECT_EQ(rate.exit_code, kSoakInputError);
  EXPECT_EQ(err2.str(), "stiction-soak: --reset-rate: must be >= 0 and finite [1/s]\n");
}

TEST(SoakCommandLineTest, AMissingSceneIsOneLineAndExitTwo) {
  std::string output;
  const int code = test::RunCommand(std::string(STICTION_SOAK_EXE) + " /nonexistent.yaml --duration 1", &output);
  EXPECT_EQ(code, kSoakInputError);
  EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
  EXPECT_NE(output.find("/nonexistent.yaml"), std::string::npos) << output;
}

// A short fixed-duration soak is reproducible: same seed, same report
// (minus wall time and memory figures, which measure the machine). The
// resident-memory invariant is left out of the enforced set for the same
// reason: under ASan (whose quarantine grows RSS by design) one of the two
// runs crossed the 16 MiB limit by 0.29 MiB and the other did not (CI at
// 180a2af), so its violation, like its figures, is not a property of the seed.
TEST(SoakCommandLineTest, SameSeedAndDurationReproduceTheRun) {
  const fs::path dir = test::TempPath("stiction_soak_repro_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto run = [&](const std::string& tag) {
    const fs::path report = dir / (tag + ".json");
    std::string output;
    const int code = test::RunCommand(std::string(STICTION_SOAK_EXE) + " " + Scene("stack_blocks") +
                                          " --duration 2 --seed 5 --quiet --edit-rate 5 --perturbation-rate 5"
                                          " --solver-switch-rate 1 --model-switch-rate 1 --reset-rate 1"
                                          " --invariants finite_state,recovery,energy,penetration --report " +
                                          report.string(),
                                      &output);
    EXPECT_EQ(code, 0) << output;
    std::ifstream in(report);
    json j = json::parse(in, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << output;
    for (const char* key : {"wall_time_s", "rss_start_mb", "rss_end_mb", "rss_max_growth_mb", "rss_slope_mb_per_hour"}) {
      j.erase(key);
    }
    if (j.contains("unenforced_breaches")) j["unenforced_breaches"].erase("resident_memory");
    return j;
  };
  const json a = run("a"), b = run("b");
  fs::remove_all(dir);
  EXPECT_EQ(a, b);
  EXPECT_GT(a.value("steps", 0), 0);
}

// A breach of an invariant that is not enforced is counted and the run goes
// on to its end. The memory breach is made certain: the test itself touches
// 64 MiB 1.5 s into a 4 s run (RSS is the whole process's), against a limit
// of 8 MiB. It used to end the run at the next RSS sample, with exit 0 and
// no violation (found running the CI soak under ASan, whose quarantine grows
// RSS by design).
TEST(SoakCommandLineTest, AnUnenforcedMemoryBreachIsCountedAndTheRunGoesOn) {
  const fs::path report = test::TempPath("stiction_soak_unenforced_" + std::to_string(::getpid()) + ".json");
  std::ostringstream out, err;
  const SoakParseResult parsed =
      ParseSoakCommandLine({Scene("falling_box"), "--wall-time", "4", "--quiet", "--invariants", "finite_state",
                            "--rss-growth-limit", "8", "--report", report.string()},
                           out, err);
  ASSERT_TRUE(parsed.options.has_value()) << err.str();
  std::atomic<bool> done{false};
  std::thread hog([&done] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::vector<char> block(64 << 20);
    std::fill(block.begin(), block.end(), char{1});  // Resident, not only reserved.
    while (!done.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(block[block.size() / 2], 1);
  });
  const int code = RunSoak(*parsed.options, out, err, false, -1);
  done = true;
  hog.join();
  EXPECT_EQ(code, kSoakOk) << err.str();
  std::ifstream in(report);
  const json r = json::parse(in, nullptr, false);
  fs::remove(report);
  ASSERT_FALSE(r.is_discarded()) << out.str();
  // The breach happened and was only counted ...
  EXPECT_GE(r["rss_max_growth_mb"].get<double>(), 8.0);
  EXPECT_GE(r["unenforced_breaches"].value("resident_memory", 0), 1) << r.dump();
  EXPECT_TRUE(r["violations"].empty());
  // ... and the run lasted its 4 s of wall time.
  EXPECT_GE(r["wall_time_s"].get<double>(), 4.0);
}

// ---------------------------------------------------------------------------
// The CI soak on the clutter and on the grasp demo, in two configurations
// each. By simulated time (--duration), not wall time: the events depend
// only on the steps taken, so the outcome is the same on every machine and a
// failure reproduces with the same command. Event rates raised above the
// hour-long defaults (docs/soak.md) so that every kind of event occurs.
//
// - "every_event": every solver and contact model the viewer offers. On the
//   clutter every invariant is enforced (since the Similar model caps its
//   stiffness at the near-rigid one, it no longer stalls there: issue 36).
//   On the grasp demo only the robustness invariants (finite state, flat
//   memory) are; energy, penetration and recovery are measured and their
//   breaches counted but not enforced: the soak found that they do not hold
//   for every solver and model there yet (docs/soak.md "Findings":
//   Lagged/Similar and the AL solvers gain energy or leave the box deep in
//   the ground under some edits).
// - "sap": the SAP solver and contact model only (perturbations, edits and
//   resets as above); every invariant enforced.

// - "sap_sleep": as "sap", with sleeping islands on (solver.sleep) and a
//   tenth of the edit rate (every edit wakes every island, so at the CI
//   rate nothing would stay asleep long): perturbations, edits and resets
//   wake sleepers while others settle; the test checks that bodies slept.

struct CiSoak {
  std::string scene;
  double duration_s;
  std::string config;  // "every_event", "sap" or "sap_sleep".
  bool every_invariant = true;  // "every_event": all enforced, or finite state and memory only.
};

class CiSoakTest : public ::testing::TestWithParam<CiSoak> {};

TEST_P(CiSoakTest, EveryKindOfEventAndNoViolation) {
  const CiSoak& c = GetParam();
  const bool every_event = c.config == "every_event";
  const bool sleep = c.config == "sap_sleep";
  const fs::path report = test::TempPath("stiction_soak_" + c.scene + "_" + c.config + "_" +
                                         std::to_string(::getpid()) + ".json");
  std::string output;
  const std::string command = std::string(STICTION_SOAK_EXE) + " " + Scene(c.scene) + " --duration " +
                              std::to_string(c.duration_s) +
                              " --quiet --seed 1 --perturbation-rate 2 --edit-rate " + (sleep ? "0.2" : "2") +
                              " --solver-switch-rate 0.5 --model-switch-rate 0.5 --reset-rate 0.3 --report " +
                              report.string() + (sleep ? " --set solver.sleep=true" : "") +
                              (!every_event                ? " --solvers sap --contact-models sap"
                               : c.every_invariant ? ""
                                                   : " --invariants finite_state,resident_memory");
  const int code = test::RunCommand(command, &output);
  std::cout << command << "\n" << output;
  EXPECT_EQ(code, 0) << output;
  std::ifstream in(report);
  const json r = json::parse(in, nullptr, false);
  fs::remove(report);
  ASSERT_FALSE(r.is_discarded()) << output;
  std::cout << r.dump(1) << "\n";
  EXPECT_TRUE(r["violations"].empty());
  EXPECT_GT(r["perturbations"].get<int>(), 0);
  EXPECT_GT(r["parameter_edits"].get<int>(), 0);
  EXPECT_GT(r["resets"].get<int>(), 0);
  if (every_event) {
    EXPECT_GT(r["solver_switches"].get<int>(), 0);
    EXPECT_GT(r["contact_model_switches"].get<int>(), 0);
  }
  if (c.every_invariant) {
    // Every invariant enforced, so the step-by-step checks above judged
    // energy, penetration and recovery too.
    EXPECT_EQ(r["invariants_enforced"].size(), 5u);
    EXPECT_LT(r["max_failed_steps_in_row"].get<int>(), r["limits"]["max_failed_steps_in_row"].get<int>());
  }
  if (sleep) {
    EXPECT_GT(r["sleeping_steps"].get<int>(), 0);
  }
  EXPECT_LE(r["rss_max_growth_mb"].get<double>(), r["limits"]["rss_growth_mb"].get<double>());
  EXPECT_GE(r["sim_time_s"].get<double>(), c.duration_s);
}

std::string CiName(const ::testing::TestParamInfo<CiSoak>& info) { return info.param.scene + "_" + info.param.config; }

INSTANTIATE_TEST_SUITE_P(Demos, CiSoakTest,
                         ::testing::Values(CiSoak{"clutter", 10.0, "every_event"}, CiSoak{"clutter", 10.0, "sap"},
                                           CiSoak{"grasp_box", 300.0, "every_event", false},
                                           CiSoak{"grasp_box", 300.0, "sap"},
                                           // Two arms under a task script that waits on forces: a
                                           // perturbation that knocks a cube away times the script
                                           // out (logged, not a violation) until the next reset.
                                           CiSoak{"two_arm_stack", 20.0, "every_event"},
                                           CiSoak{"two_arm_stack", 20.0, "sap"},
                                           CiSoak{"dish_pile", 30.0, "sap_sleep"},
                                           CiSoak{"two_arm_stack", 20.0, "sap_sleep"}),
                         CiName);

}  // namespace
}  // namespace stiction::cli
