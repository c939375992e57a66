// The text helpers of engine/common/text.h: numbers written for people and
// for round trips, printf into strings, numbers read back with the error
// that names what was bad.
#include "engine/common/text.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/common/error.h"

namespace stiction {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(FormatRoundTripTest, ShortestRoundTrip) {
  EXPECT_EQ(FormatRoundTrip(0.1), "0.1");
  EXPECT_EQ(FormatRoundTrip(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(FormatRoundTrip(kNaN), "nan");
  EXPECT_EQ(FormatRoundTrip(-kNaN), "nan");
  EXPECT_EQ(FormatRoundTrip(-kInf), "-inf");
  const double third = 1.0 / 3.0;
  EXPECT_EQ(std::stod(FormatRoundTrip(third)), third);
  std::string row = "t=";
  AppendRoundTrip(&row, 0.25);
  EXPECT_EQ(row, "t=0.25");
}

TEST(FormatNumberTest, SignificantDigitsAsPrintfG) {
  EXPECT_EQ(FormatNumber(0.1), "0.1");
  EXPECT_EQ(FormatNumber(1.0 / 3.0), "0.3333333333");
  EXPECT_EQ(FormatNumber(1.0 / 3.0, 4), "0.3333");
  EXPECT_EQ(FormatNumber(1e-7, 6), "1e-07");
  EXPECT_EQ(FormatNumber(123456789.0, 6), "1.23457e+08");
  EXPECT_EQ(FormatNumber(kInf, 6), "inf");
  for (const double x : {0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 6.02214076e23}) {
    EXPECT_EQ(FormatNumber(x, 9), StringPrintf("%.9g", x));
    EXPECT_EQ(std::stod(FormatNumber(x, kRoundTripDigits)), x);
    EXPECT_EQ(FormatNumber(x, kRoundTripDigits), StringPrintf("%.17g", x));
  }
}

TEST(StringPrintfTest, FormatsWithoutALengthLimit) {
  EXPECT_EQ(StringPrintf("%d/%zu %.2f mm", 3, std::size_t{4}, 1.005), "3/4 1.00 mm");
  const std::string long_text(500, 'x');
  EXPECT_EQ(StringPrintf("[%s]", long_text.c_str()), "[" + long_text + "]");
  EXPECT_EQ(StringPrintf("%s", ""), "");
}

TEST(ParseDoubleTest, WholeStringsOnly) {
  EXPECT_EQ(ParseDouble("1e-3"), 1e-3);
  EXPECT_EQ(ParseDouble(" 2.5"), 2.5);
  EXPECT_EQ(ParseDouble("inf"), kInf);
  EXPECT_TRUE(std::isnan(*ParseDouble("nan")));
  EXPECT_FALSE(ParseDouble(""));
  EXPECT_FALSE(ParseDouble("1.5s"));
  EXPECT_FALSE(ParseDouble("abc"));
  EXPECT_FALSE(ParseDouble("1e999"));
}

TEST(ParseIntegerTest, WholeStringsOnly) {
  EXPECT_EQ(ParseInteger("42"), 42);
  EXPECT_EQ(ParseInteger("-7"), -7);
  EXPECT_FALSE(ParseInteger(""));
  EXPECT_FALSE(ParseInteger("2.5"));
  EXPECT_FALSE(ParseInteger("99999999999999999999"));
}

TEST(ParseOrThrowTest, TheErrorNamesTheOptionAndTheText) {
  const auto positive = [](double x) { return std::isfinite(x) && x > 0; };
  EXPECT_EQ(ParseNumberOrThrow("--duration", "2.5", "must be positive", positive), 2.5);
  try {
    ParseNumberOrThrow("--duration", "-1", "must be a positive finite number of seconds", positive);
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--duration: must be a positive finite number of seconds, got '-1'");
  }
  EXPECT_THROW(ParseNumberOrThrow("--x", "abc", "a number", positive), InputError);
  EXPECT_EQ(ParseIntegerOrThrow("--states", "10", 1, 1000), 10);
  try {
    ParseIntegerOrThrow("--states", "0", 1, 1000);
    ADD_FAILURE() << "no throw";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--states: expected an integer in [1, 1000], got '0'");
  }
  EXPECT_THROW(ParseIntegerOrThrow("--states", "1.5", 1, 1000), InputError);
}

}  // namespace
}  // namespace stiction
