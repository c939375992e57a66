#pragma once
// Text helpers for user-facing messages.
#include <string>
#include <string_view>

namespace stiction {

/// Makes `s` safe to embed in a one-line message: newlines, carriage returns
/// and tabs become \n, \r, \t; other control characters become '?'.
std::string OneLine(std::string_view s);

/// A number as messages show it: up to 10 significant digits.
std::string FormatNumber(double value);

/// 's': the text in single quotes, as messages name a value or key.
std::string SingleQuoted(std::string_view s);

}  // namespace stiction
