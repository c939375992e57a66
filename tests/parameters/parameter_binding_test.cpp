// ParameterRange, FormatParameterValue and CheckParameters
// (engine/parameters/parameter_binding.h): the ranges every scene key, CLI
// option and viewer field is checked against, the texts users read in
// "must be …" messages, and the value texts `--list` prints as defaults.
#include "engine/parameters/parameter_binding.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <string>

#include "engine/common/error.h"

namespace stiction {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The neighbouring doubles of x: the closest values a bound check can get
// wrong by using < for <= or the reverse.
double Below(double x) { return std::nextafter(x, -kInf); }
double After(double x) { return std::nextafter(x, kInf); }

TEST(ParameterRangeTest, ClosedEndsContainTheirBoundsAndNothingBeyond) {
  const ParameterRange r = ClosedRange(0, 1);
  EXPECT_TRUE(r.Contains(0));
  EXPECT_TRUE(r.Contains(1));
  EXPECT_TRUE(r.Contains(0.5));
  EXPECT_TRUE(r.Contains(After(0)));
  EXPECT_TRUE(r.Contains(Below(1)));
  EXPECT_FALSE(r.Contains(Below(0)));  // -denorm_min
  EXPECT_FALSE(r.Contains(After(1)));
  EXPECT_FALSE(r.Contains(-1));
  EXPECT_FALSE(r.Contains(2));
}

TEST(ParameterRangeTest, OpenEndsExcludeTheirBoundsButNotTheirNeighbours) {
  const ParameterRange r = OpenRange(0, 1);
  EXPECT_FALSE(r.Contains(0));
  EXPECT_FALSE(r.Contains(1));
  EXPECT_TRUE(r.Contains(After(0)));
  EXPECT_TRUE(r.Contains(Below(1)));
  EXPECT_TRUE(r.Contains(0.5));
  EXPECT_FALSE(r.Contains(Below(0)));
  EXPECT_FALSE(r.Contains(After(1)));
}

TEST(ParameterRangeTest, HalfOpenRangesTreatEachEndOnItsOwn) {
  // (0, 1], as penetration_recovery: 0 would never recover an overlap.
  const ParameterRange lo_open{0, 1, true, false};
  EXPECT_FALSE(lo_open.Contains(0));
  EXPECT_TRUE(lo_open.Contains(After(0)));
  EXPECT_TRUE(lo_open.Contains(1));
  EXPECT_FALSE(lo_open.Contains(After(1)));
  // [0, 1), as newton_tolerance: 1 would accept the first Newton iterate.
  const ParameterRange hi_open{0, 1, false, true};
  EXPECT_TRUE(hi_open.Contains(0));
  EXPECT_FALSE(hi_open.Contains(Below(0)));
  EXPECT_FALSE(hi_open.Contains(1));
  EXPECT_TRUE(hi_open.Contains(Below(1)));
}

TEST(ParameterRangeTest, RangesWithAnInfiniteEndBoundOnlyTheFiniteOne) {
  EXPECT_FALSE(kPositive.Contains(0));
  EXPECT_FALSE(kPositive.Contains(-0.0));  // -0 == 0: not positive either.
  EXPECT_TRUE(kPositive.Contains(std::numeric_limits<double>::denorm_min()));
  EXPECT_TRUE(kPositive.Contains(std::numeric_limits<double>::max()));
  EXPECT_FALSE(kPositive.Contains(-1));

  EXPECT_TRUE(kNonNegative.Contains(0));
  EXPECT_TRUE(kNonNegative.Contains(-0.0));
  EXPECT_FALSE(kNonNegative.Contains(-std::numeric_limits<double>::denorm_min()));
  EXPECT_TRUE(kNonNegative.Contains(std::numeric_limits<double>::max()));

  EXPECT_FALSE(Above(1).Contains(1));
  EXPECT_TRUE(Above(1).Contains(After(1)));
  EXPECT_TRUE(AtLeast(1).Contains(1));
  EXPECT_FALSE(AtLeast(1).Contains(Below(1)));

  // No end at all: every finite number.
  EXPECT_TRUE(kAnyNumber.Contains(-std::numeric_limits<double>::max()));
  EXPECT_TRUE(kAnyNumber.Contains(0));
  EXPECT_TRUE(kAnyNumber.Contains(std::numeric_limits<double>::max()));
}

TEST(ParameterRangeTest, NaNIsInNoRangeAndNoInfinityPassesAFiniteEnd) {
  // NaN compares false with everything; a range test written as
  // !(x < lo) would let it through, hence the explicit check.
  for (const ParameterRange& r : {kAnyNumber, kPositive, kNonNegative, ClosedRange(0, 1), OpenRange(0, 1),
                                  Above(1), AtLeast(-1)}) {
    EXPECT_FALSE(r.Contains(kNaN)) << r.Describe();
    EXPECT_FALSE(r.Contains(-kNaN)) << r.Describe();
  }
  // An infinity is outside every range whose end on its side is finite.
  EXPECT_FALSE(ClosedRange(0, 1).Contains(kInf));
  EXPECT_FALSE(ClosedRange(0, 1).Contains(-kInf));
  EXPECT_FALSE(ClosedRange(1, 1e9).Contains(kInf));
  EXPECT_FALSE(kPositive.Contains(-kInf));
  EXPECT_FALSE(kNonNegative.Contains(-kInf));
  EXPECT_FALSE(Above(1).Contains(-kInf));
  // (Whether +inf is inside (lo, inf) is not relied on: CheckParameters and
  // the loader reject non-finite values before asking; see below.)
}

TEST(ParameterRangeTest, DescribeGivesTheTextsOfTheMessages) {
  // These complete "must be …" in messages users read (scene errors, API
  // errors, the viewer's tooltips, `--list`): tests of the loader and the
  // documentation quote them, so they are pinned here character by character.
  EXPECT_EQ(kPositive.Describe(), "positive");
  EXPECT_EQ(kNonNegative.Describe(), ">= 0");
  EXPECT_EQ(Above(1).Describe(), "> 1");
  EXPECT_EQ(AtLeast(1).Describe(), ">= 1");
  EXPECT_EQ(AtLeast(-0.5).Describe(), ">= -0.5");
  EXPECT_EQ(ClosedRange(0, 1).Describe(), "in [0, 1]");
  EXPECT_EQ(OpenRange(0, 1).Describe(), "in (0, 1)");
  EXPECT_EQ((ParameterRange{0, 1, true, false}).Describe(), "in (0, 1]");
  EXPECT_EQ((ParameterRange{0, 1, false, true}).Describe(), "in [0, 1)");
  EXPECT_EQ(ClosedRange(1, 256).Describe(), "in [1, 256]");
  // The iteration caps' bound is written out in full, not as "1e+09".
  EXPECT_EQ(ClosedRange(1, 1e9).Describe(), "in [1, 1000000000]");
  // Bounds print with ten significant digits, as the loader's own messages
  // print them: 0.1 reads as written, not as its binary expansion.
  EXPECT_EQ(Above(0.1).Describe(), "> 0.1");
  EXPECT_EQ(kAnyNumber.Describe(), "a number");
}

// A binding of one double, for FormatParameterValue.
std::string FormatDouble(double value) {
  double member = value;
  return FormatParameterValue({"x", "", "", &member, kAnyNumber});
}

TEST(FormatParameterValueTest, DoublesRoundTripExactly) {
  // `--list` and docs print defaults with it, and the scene loader test feeds
  // its text back as a scene value: strtod must give back the same double.
  for (const double x : {0.0, 1.0, -1.0, 0.1, 0.2, 1e-14, 1e-30, 1e4, 1e6, 1e9, 1.0 / 3.0, std::numbers::pi,
                         -2.5e-7, std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                         std::numeric_limits<double>::denorm_min(), std::nextafter(1.0, 2.0)}) {
    const std::string text = FormatDouble(x);
    char* end = nullptr;
    const double back = std::strtod(text.c_str(), &end);
    EXPECT_EQ(*end, '\0') << text;
    EXPECT_EQ(back, x) << text;
  }
}

TEST(FormatParameterValueTest, DoublesUseTheShortestText) {
  // Shortest round-trip: 0.1 is "0.1", not the 17-digit expansion of its
  // binary value, so that defaults read as they are written in the structs.
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(0.9), "0.9");
  EXPECT_EQ(FormatDouble(1e-10), "1e-10");
  EXPECT_EQ(FormatDouble(10), "10");
  EXPECT_EQ(FormatDouble(-0.5), "-0.5");
}

TEST(FormatParameterValueTest, IntegersAndFlags) {
  for (const int n : {0, 1, -5, 300, INT_MAX, INT_MIN}) {
    int member = n;
    const std::string text = FormatParameterValue({"n", "", "", &member, kAnyNumber});
    EXPECT_EQ(text, std::to_string(n));
    EXPECT_EQ(std::strtol(text.c_str(), nullptr, 10), n);
  }
  // The scene format's spelling of booleans (ReadBool accepts these).
  bool flag = true;
  EXPECT_EQ(FormatParameterValue({"f", "", "", &flag, {}}), "true");
  flag = false;
  EXPECT_EQ(FormatParameterValue({"f", "", "", &flag, {}}), "false");
}

// Members of a made-up settings struct, bound as a table.
struct Sample {
  double stiffness = 1e6;
  double ratio = 0.5;
  int iterations = 10;
  bool enabled = true;
};

ParameterTable Bind(Sample& s) {
  return {
      {"stiffness", "N/m", "k", &s.stiffness, kPositive},
      {"ratio", "", "r", &s.ratio, OpenRange(0, 1)},
      {"iterations", "", "n", &s.iterations, ClosedRange(1, 100)},
      {"enabled", "", "e", &s.enabled, {}},
  };
}

// The InputError message of CheckParameters("owner", Bind(s)), or "" when
// it does not throw.
std::string CheckMessage(Sample s) {
  try {
    CheckParameters("owner", Bind(s));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckParametersTest, AcceptsInRangeValuesIncludingClosedBounds) {
  EXPECT_EQ(CheckMessage(Sample{}), "");
  EXPECT_EQ(CheckMessage(Sample{.stiffness = 1e-300, .ratio = 1e-9, .iterations = 1}), "");
  EXPECT_EQ(CheckMessage(Sample{.ratio = Below(1), .iterations = 100, .enabled = false}), "");
}

TEST(CheckParametersTest, OutOfRangeNamesOwnerKeyValueAndUnit) {
  const std::string m = CheckMessage(Sample{.stiffness = -2.5});
  // The documented shape, "<owner>: <key> must be <range> …, got <value> [<unit>]".
  EXPECT_EQ(m.rfind("owner: stiffness must be positive", 0), 0u) << m;
  EXPECT_NE(m.find("got -2.5"), std::string::npos) << m;
  EXPECT_NE(m.find("[N/m]"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;

  // An open bound itself is refused; a dimensionless key shows no unit.
  const std::string r = CheckMessage(Sample{.ratio = 1});
  EXPECT_EQ(r.rfind("owner: ratio must be in (0, 1)", 0), 0u) << r;
  EXPECT_NE(r.find("got 1"), std::string::npos) << r;
  EXPECT_EQ(r.find('['), std::string::npos) << r;

  // Integers are checked against their range too.
  const std::string n = CheckMessage(Sample{.iterations = 0});
  EXPECT_EQ(n.rfind("owner: iterations must be in [1, 100]", 0), 0u) << n;
  EXPECT_NE(n.find("got 0"), std::string::npos) << n;
}

TEST(CheckParametersTest, NonFiniteValuesAreRefusedEvenWhereTheRangeIsUnbounded) {
  // +inf lies beyond kPositive's infinite end: only the finiteness check
  // stops it (an infinite stiffness would make every contact rigid).
  const std::string inf = CheckMessage(Sample{.stiffness = kInf});
  EXPECT_EQ(inf.rfind("owner: stiffness must be", 0), 0u) << inf;
  EXPECT_NE(inf.find("finite"), std::string::npos) << inf;
  EXPECT_NE(inf.find("got inf"), std::string::npos) << inf;
  EXPECT_NE(inf.find("[N/m]"), std::string::npos) << inf;

  const std::string nan = CheckMessage(Sample{.ratio = kNaN});
  EXPECT_EQ(nan.rfind("owner: ratio must be", 0), 0u) << nan;
  EXPECT_NE(nan.find("got nan"), std::string::npos) << nan;

  // Even a table entry that admits any number refuses NaN and infinities.
  for (const double bad : {kNaN, kInf, -kInf}) {
    double x = bad;
    const ParameterTable table = {{"x", "", "", &x, kAnyNumber}};
    EXPECT_THROW(CheckParameters("owner", table), InputError) << bad;
  }
}

TEST(CheckParametersTest, NamesTheFirstBadParameter) {
  // Two bad values: the message is about the first in table order (one
  // message per error, as everywhere at the API edges).
  const std::string m = CheckMessage(Sample{.ratio = 2, .iterations = -1});
  EXPECT_EQ(m.rfind("owner: ratio ", 0), 0u) << m;
  EXPECT_EQ(m.find("iterations"), std::string::npos) << m;
}

}  // namespace
}  // namespace stiction
