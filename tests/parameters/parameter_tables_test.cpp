// The parameter tables of engine/parameters/ (BindParameters of every
// settings struct) and the Validate… functions built on them. A struct's
// defaults are written once, in its member initializers, and its ranges once,
// in its table: these tests keep the two consistent, keep keys unambiguous
// for the scene loader, and check the cross-parameter rules that no single
// range can express.
#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "engine/common/error.h"
#include "engine/parameters/canal_parameters.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/parameter_binding.h"
#include "engine/parameters/sap_parameters.h"
#include "engine/parameters/solver_settings.h"
#include "engine/parameters/subadmm_parameters.h"

namespace stiction {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const void* Address(const ParameterBinding& p) {
  return std::visit([](auto* member) -> const void* { return member; }, p.value);
}

// Checks one table bound to `owner`: keys unique snake_case, descriptions
// one line, each key bound to its own member inside `owner`, ranges not
// empty.
template <typename T>
void ExpectWellFormedTable(const char* name, T& owner, const ParameterTable& table) {
  SCOPED_TRACE(name);
  static const std::regex kSnake("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  const std::byte* begin = reinterpret_cast<const std::byte*>(&owner);
  const std::byte* end = begin + sizeof(T);
  std::set<std::string_view> keys;
  std::set<const void*> members;
  ASSERT_FALSE(table.empty());
  for (const ParameterBinding& p : table) {
    EXPECT_TRUE(keys.insert(p.key).second) << "duplicate key " << p.key;
    EXPECT_TRUE(std::regex_match(std::string(p.key), kSnake)) << p.key;
    EXPECT_FALSE(p.description.empty()) << p.key;
    EXPECT_EQ(p.description.find('\n'), std::string_view::npos) << p.key;
    // Two keys bound to one member: one of them would silently set the other.
    EXPECT_TRUE(members.insert(Address(p)).second) << p.key << " shares its member";
    const std::byte* at = static_cast<const std::byte*>(Address(p));
    EXPECT_TRUE(at >= begin && at < end) << p.key << " is bound outside its struct";
    if (!std::holds_alternative<bool*>(p.value)) {
      EXPECT_LT(p.range.lo, p.range.hi) << p.key;
    }
  }
}

// Calls f(name, owner) on a default-constructed instance of each settings
// struct with a parameter table, in turn.
template <typename F>
void ForEachTableOwner(F f) {
  SapSolverParameters sap;
  f("sap", sap);
  CanalSolverParameters canal;
  f("canal", canal);
  SubAdmmSolverParameters subadmm;
  f("subadmm", subadmm);
  ContactMaterial material;
  f("material", material);
  ContactModelParameters contact;
  f("contact", contact);
  IntegratorSettings integrator;
  f("integrator", integrator);
  NmdpParameters nmdp;
  f("nmdp", nmdp);
}

TEST(ParameterTablesTest, KeysAreUniqueAndEachBindsItsOwnMember) {
  ForEachTableOwner([](const char* name, auto& owner) { ExpectWellFormedTable(name, owner, BindParameters(owner)); });
}

TEST(ParameterTablesTest, KeysSharingSolversTopLevelMapAreDistinct) {
  // The loader reads `type`, `line_search`, SAP's table, the contact
  // regularization's table and one map per own-map solver from the one map
  // `solver:`; a key in two of them would be read twice, into two members.
  SolverSettings s;
  ContactModelParameters contact;
  std::multiset<std::string> keys = {"type", "line_search"};
  for (const ParameterBinding& p : BindParameters(s.sap)) keys.insert(std::string(p.key));
  for (const ParameterBinding& p : BindParameters(contact)) keys.insert(std::string(p.key));
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (info.own_map) keys.insert(std::string(info.name));
  }
  for (const std::string& key : keys) EXPECT_EQ(keys.count(key), 1u) << key;
}

TEST(ParameterTablesTest, DefaultsLieInsideTheirRanges) {
  // Each CheckParameters names the first default outside its table's range:
  // a default or a range edited alone shows up here, not as a scene that
  // fails to load with an unchanged setting.
  ForEachTableOwner([](const char* name, auto& owner) {
    EXPECT_NO_THROW(CheckParameters(name, BindParameters(owner))) << name;
  });
  // And the full validators, with their cross-parameter rules.
  EXPECT_NO_THROW(ValidateSapParameters(SapSolverParameters{}));
  EXPECT_NO_THROW(ValidateCanalParameters(CanalSolverParameters{}));
  EXPECT_NO_THROW(ValidateSubAdmmParameters(SubAdmmSolverParameters{}));
  EXPECT_NO_THROW(ValidateContactMaterial("default", ContactMaterial{}));
  EXPECT_NO_THROW(ValidateContactModelParameters(ContactModelParameters{}));
  EXPECT_NO_THROW(ValidateIntegratorSettings(IntegratorSettings{}));
  EXPECT_NO_THROW(ValidateSolverSettings(SolverSettings{}));
  EXPECT_NO_THROW(ValidateNmdpParameters(NmdpParameters{}));
}

// The InputError message of f(), or "" when it does not throw.
template <typename F>
std::string Message(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParameterTablesTest, CanalMaxPenaltyBelowInitialPenaltyIsRefused) {
  // [CANAL] Eq. (27): beta <- min(kappa beta, beta_max). With beta_max <
  // beta0 the first update would lower the penalty. Each value alone is in
  // its range (both positive); only the cross check can see it.
  CanalSolverParameters p;
  p.initial_penalty_ratio = 1e5;
  p.max_penalty_ratio = 1e4;
  const std::string m = Message([&] { ValidateCanalParameters(p); });
  EXPECT_EQ(m.rfind("canal: max_penalty_ratio", 0), 0u) << m;
  EXPECT_NE(m.find("initial_penalty_ratio"), std::string::npos) << m;
  p.max_penalty_ratio = 1e5;  // rho_max = rho0: a constant penalty, allowed (">=").
  EXPECT_NO_THROW(ValidateCanalParameters(p));
  p.max_penalty_ratio = kNaN;  // Caught by the range before the comparison.
  EXPECT_THROW(ValidateCanalParameters(p), InputError);
}

TEST(ParameterTablesTest, SapLineSearchParametersAreChecked) {
  // [SAP] Sec. IV-B backtracking: alpha <- rho alpha needs rho in (0, 1)
  // to shrink; Armijo's sufficient decrease needs c in (0, 1); a search
  // from alpha_max <= 0 goes nowhere (or uphill). These are not scene keys,
  // so no table range covers them. NaN is refused as well.
  auto refused = [](auto set) {
    SapSolverParameters p;
    set(p);
    return Message([&] { ValidateSapParameters(p); });
  };
  for (const double rho : {0.0, 1.0, -0.5, 1.5, kNaN}) {
    EXPECT_NE(refused([&](SapSolverParameters& p) { p.backtracking_rho = rho; }), "") << "rho " << rho;
  }
  for (const double c : {0.0, 1.0, kNaN}) {
    EXPECT_NE(refused([&](SapSolverParameters& p) { p.armijo_c = c; }), "") << "c " << c;
  }
  for (const double a : {0.0, -1.0, kNaN}) {
    EXPECT_NE(refused([&](SapSolverParameters& p) { p.backtracking_alpha_max = a; }), "") << a;
    EXPECT_NE(refused([&](SapSolverParameters& p) { p.exact_alpha_max = a; }), "") << a;
  }
  // Inside the ranges, close to their ends: accepted.
  EXPECT_EQ(refused([](SapSolverParameters& p) {
              p.backtracking_rho = 0.01;
              p.armijo_c = 0.99;
              p.backtracking_alpha_max = 1e-3;
              p.exact_alpha_max = 1e-3;
            }),
            "");
}

TEST(ParameterTablesTest, ParametersOutsideTheTablesAreChecked) {
  // Island thread threshold and CANAL's dense-size switch are not scene
  // keys; a negative count is meaningless.
  SapSolverParameters sap;
  sap.islands.parallel_min_velocities = -1;
  EXPECT_THROW(ValidateSapParameters(sap), InputError);
  CanalSolverParameters canal;
  canal.islands.parallel_min_velocities = -1;
  EXPECT_THROW(ValidateCanalParameters(canal), InputError);
  canal = {};
  canal.dense_max_size = -1;
  EXPECT_THROW(ValidateCanalParameters(canal), InputError);
  SubAdmmSolverParameters subadmm;
  subadmm.islands.parallel_min_velocities = -1;
  EXPECT_THROW(ValidateSubAdmmParameters(subadmm), InputError);
  // Zero is a valid threshold (always split onto two threads).
  sap.islands.parallel_min_velocities = 0;
  EXPECT_NO_THROW(ValidateSapParameters(sap));
}

TEST(ParameterTablesTest, ValidateSolverSettingsChecksEverySolverNotOnlyTheChosenOne) {
  // The viewer switches solvers live: a bad value kept for a solver not in
  // use would otherwise surface only at the switch, far from where it was set.
  for (const SolverTypeInfo& chosen : SolverTypes()) {
    SolverSettings s;
    s.type = chosen.type;
    EXPECT_NO_THROW(ValidateSolverSettings(s)) << chosen.name;
    for (const SolverTypeInfo& bad : SolverTypes()) {
      SCOPED_TRACE("chosen " + std::string(chosen.name) + ", bad " + std::string(bad.name));
      SolverSettings t = s;
      // A negative tolerance is outside every solver's tolerance range
      // (SAP's relative tolerance in [0, 1], the AL tolerances positive).
      switch (bad.type) {
        case SolverType::kSap:
          t.sap.relative_tolerance = -1;
          break;
        case SolverType::kCanal:
          t.canal.tolerance = -1;
          break;
        case SolverType::kSubAdmm:
          t.subadmm.tolerance = -1;
          break;
        case SolverType::kPgs:
          t.pgs.tolerance = -1;
          break;
      }
      const std::string m = Message([&] { ValidateSolverSettings(t); });
      EXPECT_EQ(m.rfind(std::string(bad.name) + ": ", 0), 0u) << m;
      EXPECT_NE(m.find("tolerance"), std::string::npos) << m;
    }
  }
}

TEST(ParameterTablesTest, NmdpValidatorNamesTheKeyAndItsRange) {
  // `nmdp:` is read through this table; the facade and the viewer validate
  // with it, so its messages name the map and the key as the loader does.
  NmdpParameters p;
  p.stiffness = 0;  // k scales the wrench polytope ([NMDP] Eq. 5): > 0.
  std::string m = Message([&] { ValidateNmdpParameters(p); });
  EXPECT_EQ(m.rfind("nmdp: stiffness must be positive", 0), 0u) << m;
  p = {};
  p.pyramid_edges = 2;  // A pyramid needs at least three edges.
  m = Message([&] { ValidateNmdpParameters(p); });
  EXPECT_EQ(m.rfind("nmdp: pyramid_edges must be in [3, 64]", 0), 0u) << m;
  p = {};
  p.max_subdivisions = 31;
  m = Message([&] { ValidateNmdpParameters(p); });
  EXPECT_EQ(m.rfind("nmdp: max_subdivisions must be in [0, 30]", 0), 0u) << m;
  p = {};
  p.activation_length = kNaN;
  EXPECT_THROW(ValidateNmdpParameters(p), InputError);
  // The ends of the closed ranges are valid.
  p = {};
  p.pyramid_edges = 3;
  p.max_subdivisions = 0;
  p.max_line_search_halvings = 60;
  EXPECT_NO_THROW(ValidateNmdpParameters(p));
}

TEST(ParameterTablesTest, ContactAndIntegratorValidatorsNameTheirOwner) {
  ContactMaterial rubber;
  rubber.friction = -0.1;
  const std::string m = Message([&] { ValidateContactMaterial("rubber", rubber); });
  EXPECT_EQ(m.rfind("material 'rubber': friction must be >= 0", 0), 0u) << m;

  ContactModelParameters contact;
  contact.stiction_tolerance = 0;  // sigma of [SAP] Eq. (30) must be > 0.
  const std::string c = Message([&] { ValidateContactModelParameters(contact); });
  EXPECT_EQ(c.rfind("contact: stiction_tolerance must be positive", 0), 0u) << c;

  IntegratorSettings integrator;
  integrator.theta_vq = 1.5;  // Eq. (6) weighs two velocities: in [0, 1].
  const std::string i = Message([&] { ValidateIntegratorSettings(integrator); });
  EXPECT_EQ(i.rfind("integrator: theta_vq must be in [0, 1]", 0), 0u) << i;
}

}  // namespace
}  // namespace stiction
