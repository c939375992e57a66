// The registries of engine/parameters/ (solver types, contact models,
// integrator presets, line searches, stepping schemes) and the lookups of
// engine/common/named_choice.h. A registry is the one place a choice's name
// is written; scenes, the CLI, the viewer and the docs all go through it, so
// a missing or doubled entry, a name that does not parse back, or a solver
// entry whose accessors point at another solver's parameters would show up
// everywhere at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <regex>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "engine/common/error.h"
#include "engine/common/named_choice.h"
#include "engine/parameters/contact_parameters.h"
#include "engine/parameters/integrator_settings.h"
#include "engine/parameters/nmdp_parameters.h"
#include "engine/parameters/sap_parameters.h"
#include "engine/parameters/solver_settings.h"

namespace stiction {
namespace {

// Every enumerator, written out (C++ cannot list an enum's values). An
// enumerator added to an enum and its registry but not here fails the size
// comparisons below. One added to the enum alone is not seen here (for
// SolverType, -Wswitch -Werror stops the switches below from compiling).
constexpr SolverType kAllSolverTypes[] = {SolverType::kSap, SolverType::kCanal, SolverType::kSubAdmm,
                                          SolverType::kPgs};
constexpr ContactModel kAllContactModels[] = {ContactModel::kSap, ContactModel::kLagged, ContactModel::kSimilar,
                                              ContactModel::kRegularizedLagged};
constexpr LineSearchKind kAllLineSearches[] = {LineSearchKind::kExact, LineSearchKind::kBacktracking};
constexpr SteppingScheme kAllSteppingSchemes[] = {SteppingScheme::kThetaMethod, SteppingScheme::kNmdpPgm,
                                                  SteppingScheme::kNmdpZopgm, SteppingScheme::kNeMdp};

// Scene keys and values are snake_case: lower-case words joined by '_'.
bool IsSnakeCase(std::string_view name) {
  static const std::regex kSnake("[a-z][a-z0-9]*(_[a-z0-9]+)*");
  return std::regex_match(std::string(name), kSnake);
}

// Names non-empty snake_case and unique; descriptions non-empty, one line
// (they are table cells in `--list` and tooltips in the viewer).
template <typename Entry>
void ExpectWellFormedRegistry(std::span<const Entry> entries) {
  std::set<std::string_view> names;
  for (const Entry& e : entries) {
    EXPECT_TRUE(IsSnakeCase(e.name)) << "'" << e.name << "'";
    EXPECT_TRUE(names.insert(e.name).second) << "duplicate name " << e.name;
    EXPECT_FALSE(e.description.empty()) << e.name;
    EXPECT_EQ(e.description.find('\n'), std::string_view::npos) << e.name;
    EXPECT_EQ(e.description.find('\r'), std::string_view::npos) << e.name;
    // FindChoice finds each entry by its own name, and that entry.
    EXPECT_EQ(FindChoice(entries, e.name), &e) << e.name;
  }
}

// Names that are no registry's: empty, case and whitespace variants, a
// prefix. Scenes are case-sensitive; a lookup that trimmed or folded case
// would accept what the docs do not.
template <typename Entry>
void ExpectUnknownNamesRefused(std::span<const Entry> entries, std::string_view one_name) {
  std::string upper(one_name);
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const std::string& bad : {std::string(), upper, std::string(one_name) + " ", " " + std::string(one_name),
                                 std::string(one_name.substr(0, one_name.size() - 1)), std::string("no_such")}) {
    EXPECT_EQ(FindChoice(entries, bad), nullptr) << "'" << bad << "'";
  }
}

// A registry of the enumerators `all`: exactly one entry each (told apart
// by the entries' member `key`), get(e) is e's entry, and parses_back(e)
// checks that e's name leads back to e; then ExpectWellFormedRegistry and
// ExpectUnknownNamesRefused (variants of `one_name`).
template <typename Entry, typename Enum, std::size_t N, typename Get, typename ParsesBack>
void ExpectOneEntryPerEnumerator(std::span<const Entry> entries, const Enum (&all)[N], Enum Entry::*key, Get get,
                                 ParsesBack parses_back, std::string_view one_name) {
  EXPECT_EQ(entries.size(), N);
  for (const Enum e : all) {
    EXPECT_EQ(std::count_if(entries.begin(), entries.end(), [&](const Entry& i) { return i.*key == e; }), 1);
    EXPECT_EQ(get(e).*key, e);
    parses_back(e);
  }
  ExpectWellFormedRegistry(entries);
  ExpectUnknownNamesRefused(entries, one_name);
}

// ---------------------------------------------------------------------------
// Solver types.
// ---------------------------------------------------------------------------

TEST(SolverRegistryTest, EveryTypeHasExactlyOneEntryAndItsNameParsesBack) {
  ExpectOneEntryPerEnumerator(
      SolverTypes(), kAllSolverTypes, &SolverTypeInfo::type, GetSolverTypeInfo,
      [](SolverType type) { EXPECT_EQ(ParseSolverType(SolverTypeName(type)), type) << SolverTypeName(type); }, "canal");
  EXPECT_EQ(ParseSolverType(""), std::nullopt);
  EXPECT_EQ(ParseSolverType("Sap"), std::nullopt);
  EXPECT_EQ(ParseSolverType("PGS"), std::nullopt);
}

TEST(SolverRegistryTest, PropertiesMatchTheSolvers) {
  // [SAP] solves a compliant, regularized model with Newton on a convex
  // cost: not the exact NCP, no augmented Lagrangian; its keys sit at
  // `solver:`'s top level. CANAL and SubADMM ([CANAL] Alg. 1 and 2) solve the
  // exact Signorini-Coulomb NCP by augmented-Lagrangian iterations and read
  // their keys from `solver.canal:` and `solver.subadmm:` (docs/scene-format.md).
  const SolverSettings defaults;
  const SolverTypeInfo& sap = GetSolverTypeInfo(SolverType::kSap);
  EXPECT_EQ(sap.name, "sap");
  EXPECT_FALSE(sap.exact_contact(defaults));
  EXPECT_FALSE(sap.augmented_lagrangian);
  EXPECT_FALSE(sap.own_map);
  const SolverTypeInfo& canal = GetSolverTypeInfo(SolverType::kCanal);
  EXPECT_EQ(canal.name, "canal");
  EXPECT_TRUE(canal.exact_contact(defaults));
  EXPECT_TRUE(canal.augmented_lagrangian);
  EXPECT_TRUE(canal.own_map);
  const SolverTypeInfo& subadmm = GetSolverTypeInfo(SolverType::kSubAdmm);
  EXPECT_EQ(subadmm.name, "subadmm");
  EXPECT_TRUE(subadmm.exact_contact(defaults));
  EXPECT_TRUE(subadmm.augmented_lagrangian);
  EXPECT_TRUE(subadmm.own_map);
  // PGS ([CANAL] Sec. VII's baseline) solves the exact NCP by default and
  // SAP's regularized dual when `regularized` is set; it is no AL solver.
  const SolverTypeInfo& pgs = GetSolverTypeInfo(SolverType::kPgs);
  EXPECT_EQ(pgs.name, "pgs");
  EXPECT_TRUE(pgs.exact_contact(defaults));
  SolverSettings regularized;
  regularized.pgs.regularized = true;
  EXPECT_FALSE(pgs.exact_contact(regularized));
  EXPECT_FALSE(pgs.augmented_lagrangian);
  EXPECT_TRUE(pgs.own_map);
  // The NCP residual's error term: each exact solver's own recovery, CANAL's
  // for SAP.
  SolverSettings recovery;
  recovery.canal.penetration_recovery = 0.11;
  recovery.subadmm.penetration_recovery = 0.22;
  recovery.pgs.penetration_recovery = 0.33;
  EXPECT_EQ(sap.penetration_recovery(recovery), 0.11);
  EXPECT_EQ(canal.penetration_recovery(recovery), 0.11);
  EXPECT_EQ(subadmm.penetration_recovery(recovery), 0.22);
  EXPECT_EQ(pgs.penetration_recovery(recovery), 0.33);
  for (const SolverTypeInfo& info : SolverTypes()) EXPECT_EQ(info.position_recovery(recovery), 0) << info.name;
  // split_recovery moves each exact solver's r from the velocity problem to
  // the position correction (position_recovery.h); SAP has none, and PGS
  // regularized solves SAP's problem, where it does not apply.
  SolverSettings split = recovery;
  split.canal.split_recovery = split.subadmm.split_recovery = split.pgs.split_recovery = true;
  EXPECT_EQ(sap.position_recovery(split), 0);
  EXPECT_EQ(canal.penetration_recovery(split), 0);
  EXPECT_EQ(canal.position_recovery(split), 0.11);
  EXPECT_EQ(subadmm.penetration_recovery(split), 0);
  EXPECT_EQ(subadmm.position_recovery(split), 0.22);
  EXPECT_EQ(pgs.penetration_recovery(split), 0);
  EXPECT_EQ(pgs.position_recovery(split), 0.33);
  split.pgs.regularized = true;
  EXPECT_EQ(pgs.penetration_recovery(split), 0.33);
  EXPECT_EQ(pgs.position_recovery(split), 0);
  for (const SolverTypeInfo& info : SolverTypes()) {
    EXPECT_NE(info.bind, nullptr) << info.name;
    EXPECT_NE(info.validate, nullptr) << info.name;
    EXPECT_NE(info.exact_contact, nullptr) << info.name;
    EXPECT_NE(info.penetration_recovery, nullptr) << info.name;
    EXPECT_NE(info.position_recovery, nullptr) << info.name;
    EXPECT_NE(info.islands, nullptr) << info.name;
  }
}

// The parameters struct of `type` within `s`, as a byte range, written
// independently of the registry.
struct Span {
  const std::byte* begin;
  const std::byte* end;
  bool Holds(const void* p) const {
    const std::byte* b = static_cast<const std::byte*>(p);
    return b >= begin && b < end;
  }
};
template <typename T>
Span SpanOf(const T& t) {
  const std::byte* b = reinterpret_cast<const std::byte*>(&t);
  return {b, b + sizeof(T)};
}
Span ParametersOf(const SolverSettings& s, SolverType type) {
  switch (type) {
    case SolverType::kSap:
      return SpanOf(s.sap);
    case SolverType::kCanal:
      return SpanOf(s.canal);
    case SolverType::kSubAdmm:
      return SpanOf(s.subadmm);
    case SolverType::kPgs:
      return SpanOf(s.pgs);
  }
  return {nullptr, nullptr};
}
IslandParameters& IslandsOf(SolverSettings& s, SolverType type) {
  switch (type) {
    case SolverType::kSap:
      return s.sap.islands;
    case SolverType::kCanal:
      return s.canal.islands;
    case SolverType::kSubAdmm:
      return s.subadmm.islands;
    case SolverType::kPgs:
      return s.pgs.islands;
  }
  return s.sap.islands;
}

const void* Address(const ParameterBinding& p) {
  return std::visit([](auto* member) -> const void* { return member; }, p.value);
}

TEST(SolverRegistryTest, IslandsAccessorReturnsThatSolversIslandSettings) {
  // The island solver reads a solver's island settings through this
  // accessor: one pointing at another solver's would split (or not) by the
  // wrong settings, silently.
  for (const SolverTypeInfo& info : SolverTypes()) {
    SCOPED_TRACE(std::string(info.name));
    SolverSettings s;
    EXPECT_EQ(&info.islands(s), &IslandsOf(s, info.type));
    // Written through the settings, read back through the accessor, with a
    // value no other solver's island settings hold.
    s.sap.islands.parallel_min_velocities = 1;
    s.canal.islands.parallel_min_velocities = 2;
    s.subadmm.islands.parallel_min_velocities = 3;
    s.pgs.islands.parallel_min_velocities = 4;
    IslandParameters& own = IslandsOf(s, info.type);
    own.parallel_min_velocities = 77;
    own.enabled = !own.enabled;
    EXPECT_EQ(info.islands(s).parallel_min_velocities, 77);
    EXPECT_EQ(info.islands(s).enabled, own.enabled);
  }
}

TEST(SolverRegistryTest, BindBindsIntoThatSolversParameters) {
  for (const SolverTypeInfo& info : SolverTypes()) {
    SCOPED_TRACE(std::string(info.name));
    SolverSettings s;
    const ParameterTable table = info.bind(s);
    ASSERT_FALSE(table.empty());
    const Span own = ParametersOf(s, info.type);
    for (const ParameterBinding& p : table) {
      EXPECT_TRUE(own.Holds(Address(p))) << p.key << " is bound outside " << info.name << "'s parameters";
    }
    // Every solver has an iteration cap: set through the binding, it must be
    // that solver's and no other's.
    const auto cap = std::find_if(table.begin(), table.end(),
                                  [](const ParameterBinding& p) { return p.key == "max_iterations"; });
    ASSERT_NE(cap, table.end());
    ASSERT_TRUE(std::holds_alternative<int*>(cap->value));
    *std::get<int*>(cap->value) = 4321;
    const SolverSettings defaults;
    EXPECT_EQ(s.sap.max_iterations, info.type == SolverType::kSap ? 4321 : defaults.sap.max_iterations);
    EXPECT_EQ(s.canal.max_iterations, info.type == SolverType::kCanal ? 4321 : defaults.canal.max_iterations);
    EXPECT_EQ(s.subadmm.max_iterations,
              info.type == SolverType::kSubAdmm ? 4321 : defaults.subadmm.max_iterations);
    EXPECT_EQ(s.pgs.max_iterations, info.type == SolverType::kPgs ? 4321 : defaults.pgs.max_iterations);
  }
}

TEST(SolverRegistryTest, BindOfTheAlSolversSetsTheirNamedMembers) {
  // Keys named like the members they set: a binding swapped between two
  // members of the same type would pass the checks above.
  SolverSettings s;
  for (ParameterBinding& p : GetSolverTypeInfo(SolverType::kCanal).bind(s)) {
    if (p.key == "initial_penalty_ratio") *std::get<double*>(p.value) = 123;
    if (p.key == "max_penalty_ratio") *std::get<double*>(p.value) = 456;
    if (p.key == "warm_start") *std::get<bool*>(p.value) = false;
    if (p.key == "max_newton_iterations") *std::get<int*>(p.value) = 9;
  }
  EXPECT_EQ(s.canal.initial_penalty_ratio, 123);
  EXPECT_EQ(s.canal.max_penalty_ratio, 456);
  EXPECT_FALSE(s.canal.warm_start);
  EXPECT_EQ(s.canal.max_newton_iterations, 9);
  for (ParameterBinding& p : GetSolverTypeInfo(SolverType::kSubAdmm).bind(s)) {
    if (p.key == "penalty_balance") *std::get<double*>(p.value) = 3;
    if (p.key == "num_threads") *std::get<int*>(p.value) = 2;
    if (p.key == "tolerance") *std::get<double*>(p.value) = 1e-9;
  }
  EXPECT_EQ(s.subadmm.penalty_balance, 3);
  EXPECT_EQ(s.subadmm.num_threads, 2);
  EXPECT_EQ(s.subadmm.tolerance, 1e-9);
  EXPECT_EQ(s.canal.tolerance, CanalSolverParameters{}.tolerance);
  for (ParameterBinding& p : GetSolverTypeInfo(SolverType::kPgs).bind(s)) {
    if (p.key == "regularized") *std::get<bool*>(p.value) = true;
    if (p.key == "relaxation") *std::get<double*>(p.value) = 1.3;
    if (p.key == "tolerance") *std::get<double*>(p.value) = 1e-7;
    if (p.key == "penetration_recovery") *std::get<double*>(p.value) = 0.5;
  }
  EXPECT_TRUE(s.pgs.regularized);
  EXPECT_EQ(s.pgs.relaxation, 1.3);
  EXPECT_EQ(s.pgs.tolerance, 1e-7);
  EXPECT_EQ(s.pgs.penetration_recovery, 0.5);
  EXPECT_EQ(s.subadmm.tolerance, 1e-9);
}

TEST(SolverRegistryTest, ValidateChecksThatSolverOnly) {
  for (const SolverTypeInfo& bad : SolverTypes()) {
    SCOPED_TRACE("bad value in " + std::string(bad.name));
    SolverSettings s;
    // An iteration cap of 0 is outside every solver's range ([1, 1e9]).
    switch (bad.type) {
      case SolverType::kSap:
        s.sap.max_iterations = 0;
        break;
      case SolverType::kCanal:
        s.canal.max_iterations = 0;
        break;
      case SolverType::kSubAdmm:
        s.subadmm.max_iterations = 0;
        break;
      case SolverType::kPgs:
        s.pgs.max_iterations = 0;
        break;
    }
    for (const SolverTypeInfo& info : SolverTypes()) {
      if (info.type != bad.type) {
        EXPECT_NO_THROW(info.validate(s)) << info.name;
        continue;
      }
      try {
        info.validate(s);
        ADD_FAILURE() << info.name << " accepted max_iterations = 0";
      } catch (const InputError& e) {
        // Named by solver and key, as ValidateSolverSettings promises.
        const std::string m = e.what();
        EXPECT_EQ(m.rfind(std::string(info.name) + ": max_iterations", 0), 0u) << m;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Contact models.
// ---------------------------------------------------------------------------

TEST(ContactModelRegistryTest, EveryModelHasExactlyOneEntryAndItsNameParsesBack) {
  ExpectOneEntryPerEnumerator(
      ContactModels(), kAllContactModels, &ContactModelInfo::model, GetContactModelInfo,
      [](ContactModel model) {
        EXPECT_EQ(ParseContactModel(ContactModelName(model)), model) << ContactModelName(model);
      },
      "lagged");
  EXPECT_EQ(ParseContactModel(""), std::nullopt);
  EXPECT_EQ(ParseContactModel("hunt_crossley"), std::nullopt);
}

TEST(ContactModelRegistryTest, HuntCrossleyFlagFollowsTheModels) {
  // [SAP] Eqs. 27-30 use the linear dissipation tau_d; the [ICF] models
  // (Lagged, Similar and regularized Lagged, Sec. VI and Eq. 44) use Hunt &
  // Crossley's d and v_s: the flag selects which material keys apply.
  EXPECT_FALSE(GetContactModelInfo(ContactModel::kSap).hunt_crossley);
  EXPECT_TRUE(GetContactModelInfo(ContactModel::kLagged).hunt_crossley);
  EXPECT_TRUE(GetContactModelInfo(ContactModel::kSimilar).hunt_crossley);
  EXPECT_TRUE(GetContactModelInfo(ContactModel::kRegularizedLagged).hunt_crossley);
}

// ---------------------------------------------------------------------------
// Line searches.
// ---------------------------------------------------------------------------

TEST(LineSearchRegistryTest, EveryKindHasExactlyOneEntryAndItsNameParsesBack) {
  // The loader parses line searches with FindChoice (there is no Parse…).
  ExpectOneEntryPerEnumerator(LineSearches(), kAllLineSearches, &LineSearchInfo::kind, GetLineSearchInfo,
                              [](LineSearchKind kind) {
                                const LineSearchInfo& info = GetLineSearchInfo(kind);
                                const LineSearchInfo* found = FindChoice(LineSearches(), info.name);
                                ASSERT_NE(found, nullptr) << info.name;
                                EXPECT_EQ(found->kind, kind);
                              },
                              "exact");
  EXPECT_EQ(FindChoice(LineSearches(), "wolfe"), nullptr);
}

// ---------------------------------------------------------------------------
// Integrator presets.
// ---------------------------------------------------------------------------

TEST(IntegratorPresetRegistryTest, NamesAreWellFormedAndEachPresetLoadsItsValues) {
  ExpectWellFormedRegistry(IntegratorPresets());
  ExpectUnknownNamesRefused(IntegratorPresets(), "midpoint");
  for (const IntegratorPresetInfo& p : IntegratorPresets()) {
    const IntegratorSettings s = IntegratorPreset(p.name);
    EXPECT_EQ(s.name, p.name);
    EXPECT_EQ(s.theta, p.theta) << p.name;
    EXPECT_EQ(s.theta_vq, p.theta_vq) << p.name;
    EXPECT_NO_THROW(ValidateIntegratorSettings(s)) << p.name;
  }
  // "custom" names raw theta values; a preset of that name would make a
  // custom integrator indistinguishable from it.
  EXPECT_EQ(FindChoice(IntegratorPresets(), kCustomIntegrator), nullptr);
  // The default integrator is a preset, with that preset's values.
  const IntegratorSettings defaults;
  const IntegratorPresetInfo* d = FindChoice(IntegratorPresets(), defaults.name);
  ASSERT_NE(d, nullptr) << defaults.name;
  EXPECT_EQ(defaults.theta, d->theta);
  EXPECT_EQ(defaults.theta_vq, d->theta_vq);
}

TEST(IntegratorPresetRegistryTest, PresetsAreTheThetaMethodsOfTheSapPaper) {
  // [SAP] Sec. II-C, Eq. (6): theta weighs where the dynamics are evaluated,
  // theta_vq which velocity advances q. Explicit Euler (0, 0), symplectic
  // Euler (0, 1), implicit Euler (1, 1), midpoint (1/2, 1/2).
  struct Expected {
    const char* name;
    double theta, theta_vq;
  };
  const Expected expected[] = {
      {"explicit_euler", 0, 0}, {"symplectic_euler", 0, 1}, {"implicit_euler", 1, 1}, {"midpoint", 0.5, 0.5}};
  EXPECT_EQ(IntegratorPresets().size(), std::size(expected));
  for (const Expected& e : expected) {
    const IntegratorPresetInfo* p = FindChoice(IntegratorPresets(), e.name);
    ASSERT_NE(p, nullptr) << e.name;
    EXPECT_EQ(p->theta, e.theta) << e.name;
    EXPECT_EQ(p->theta_vq, e.theta_vq) << e.name;
  }
}

TEST(IntegratorPresetRegistryTest, UnknownPresetThrowsNamingTheValidOnes) {
  try {
    IntegratorPreset("runge_kutta");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'runge_kutta'"), std::string::npos) << m;
    for (const IntegratorPresetInfo& p : IntegratorPresets()) {
      EXPECT_NE(m.find(std::string(p.name)), std::string::npos) << m;
    }
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  EXPECT_THROW(IntegratorPreset(""), InputError);
  EXPECT_THROW(IntegratorPreset(kCustomIntegrator), InputError);  // Not a preset: a map.
}

// ---------------------------------------------------------------------------
// Stepping schemes.
// ---------------------------------------------------------------------------

TEST(SteppingSchemeRegistryTest, EverySchemeHasExactlyOneEntryAndItsNameParsesBack) {
  ExpectOneEntryPerEnumerator(
      SteppingSchemes(), kAllSteppingSchemes, &SteppingSchemeInfo::scheme, GetSteppingSchemeInfo,
      [](SteppingScheme scheme) {
        EXPECT_EQ(ParseSteppingScheme(SteppingSchemeName(scheme)), scheme) << SteppingSchemeName(scheme);
      },
      "nmdp_zopgm");
  EXPECT_EQ(ParseSteppingScheme(""), std::nullopt);
  EXPECT_EQ(ParseSteppingScheme("nmdp"), std::nullopt);
  EXPECT_EQ(ParseSteppingScheme("NE_MDP"), std::nullopt);
  EXPECT_EQ(ParseSteppingScheme("theta"), std::nullopt);
}

TEST(SteppingSchemeRegistryTest, NamesTitlesAndContactSolverUseAreTheDocumentedOnes) {
  // docs/scene-format.md and docs/nmdp.md spell the scenes' `stepping:`
  // values so; a scene written with them must keep loading.
  EXPECT_EQ(SteppingSchemeName(SteppingScheme::kThetaMethod), "theta_method");
  EXPECT_EQ(SteppingSchemeName(SteppingScheme::kNmdpPgm), "nmdp_pgm");
  EXPECT_EQ(SteppingSchemeName(SteppingScheme::kNmdpZopgm), "nmdp_zopgm");
  EXPECT_EQ(SteppingSchemeName(SteppingScheme::kNeMdp), "ne_mdp");
  // Only the theta-method solves a contact problem with the chosen contact
  // solver; the viewer and the CLI mark `solver:` unused otherwise.
  for (const SteppingSchemeInfo& info : SteppingSchemes()) {
    EXPECT_EQ(info.uses_contact_solver, info.scheme == SteppingScheme::kThetaMethod) << info.name;
  }
  // Titles name the schemes in messages and the viewer: present, distinct.
  std::set<std::string_view> titles;
  for (const SteppingSchemeInfo& info : SteppingSchemes()) {
    EXPECT_FALSE(info.title.empty()) << info.name;
    EXPECT_TRUE(titles.insert(info.title).second) << info.title;
  }
  // The default scheme, the theta-method, is listed first (help texts, the
  // viewer's combo).
  EXPECT_EQ(SteppingSchemes().front().scheme, SteppingScheme::kThetaMethod);
}

// ---------------------------------------------------------------------------
// The lookups themselves.
// ---------------------------------------------------------------------------

TEST(NamedChoiceTest, ChoiceNamesListsEveryNameInRegistryOrder) {
  // Messages and help texts say "expected one of: …" from this.
  std::string expected;
  for (const SolverTypeInfo& info : SolverTypes()) {
    if (!expected.empty()) expected += ", ";
    expected += info.name;
  }
  EXPECT_EQ(ChoiceNames(SolverTypes()), expected);
  EXPECT_EQ(ChoiceNames(LineSearches(), " | "),
            std::string(LineSearches()[0].name) + " | " + std::string(LineSearches()[1].name));
  EXPECT_EQ(ChoiceNames(std::span<const LineSearchInfo>()), "");
}

}  // namespace
}  // namespace stiction
