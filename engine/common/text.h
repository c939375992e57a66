#pragma once
// Text helpers for user-facing messages, and the one place numbers are
// written as text and read back from it:
//  * FormatNumber: a number for people to read (messages, summaries, tables),
//    `significant_digits` digits as printf's %g writes them;
//  * FormatRoundTrip / AppendRoundTrip: the shortest text that reads back as
//    the same double (reports, CSV traces);
//  * StringPrintf: printf into a string, for tables with fixed columns;
//  * ParseDouble / ParseInteger: a whole string as a number, and
//    ParseNumberOrThrow / ParseIntegerOrThrow: the same with the InputError
//    that names the option or key whose value was bad.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace stiction {

/// Makes `s` safe to embed in a one-line message: newlines, carriage returns
/// and tabs become \n, \r, \t; other control characters become '?'.
std::string OneLine(std::string_view s);

/// 's': the text in single quotes, as messages name a value or key.
std::string SingleQuoted(std::string_view s);

/// A number as people read it: `significant_digits` significant digits,
/// trailing zeros dropped, exponent form for very large or small values
/// (printf's %.Ng: 0.1 -> "0.1", 1e-7 -> "1e-07", "nan", "inf"). Messages
/// use the default 10; summaries fewer; kRoundTripDigits reads back as the
/// same double in every case (saved command files, generated scene files).
std::string FormatNumber(double value, int significant_digits = 10);
/// Significant digits that make every double read back as itself.
inline constexpr int kRoundTripDigits = 17;

/// The shortest text that reads back as the same double (std::to_chars:
/// 0.1 -> "0.1"); "nan", "inf" and "-inf" for non-finite values (a NaN's
/// sign is not written). What reports and CSV traces hold.
std::string FormatRoundTrip(double value);
/// FormatRoundTrip(value) appended to `*text`, without a temporary string
/// (a CSV row is built this way once per step).
void AppendRoundTrip(std::string* text, double value);

/// printf into a string (no length limit).
std::string StringPrintf(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// The whole of `text` as a double, read as strtod reads it ("1e-3", "inf"
/// and "nan" included, leading white space allowed); nullopt when `text` is
/// empty, anything follows the number, or it is beyond double's range
/// (ERANGE, which includes underflow to a subnormal).
std::optional<double> ParseDouble(const std::string& text);
/// The whole of `text` as a base-10 integer, read as strtoll reads it;
/// nullopt when `text` is empty, anything follows the number, or it does not
/// fit in 64 bits.
std::optional<std::int64_t> ParseInteger(const std::string& text);

/// `text`, the value given for `name` (a command-line option or a key), as
/// a double that `accept` takes. Throws InputError
/// "NAME: REQUIREMENT, got 'TEXT'" when ParseDouble refuses it or `accept`
/// does, e.g. "--duration: must be a positive finite number of seconds, got
/// 'abc'" (`text` as given: the caller's printer makes it one line).
double ParseNumberOrThrow(std::string_view name, const std::string& text, std::string_view requirement,
                          const std::function<bool(double)>& accept);
/// `text`, the value given for `name`, as an integer in [lo, hi]. Throws
/// InputError "NAME: expected an integer in [LO, HI], got 'TEXT'" otherwise.
std::int64_t ParseIntegerOrThrow(std::string_view name, const std::string& text, std::int64_t lo,
                                 std::int64_t hi);

}  // namespace stiction
