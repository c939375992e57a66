#include "engine/common/text.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "engine/common/error.h"

namespace stiction {

std::string OneLine(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out;
}

std::string SingleQuoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '\'';
  out += s;
  out += '\'';
  return out;
}

std::string FormatNumber(double value, int significant_digits) {
  // The stream's default notation with a precision is printf's %.Ng, in the
  // "C" locale whatever the process's C locale is.
  std::ostringstream out;
  out.precision(significant_digits);
  out << value;
  return out.str();
}

std::string FormatRoundTrip(double value) {
  std::string text;
  AppendRoundTrip(&text, value);
  return text;
}

void AppendRoundTrip(std::string* text, double value) {
  if (std::isnan(value)) {
    *text += "nan";
    return;
  }
  if (std::isinf(value)) {
    *text += value > 0 ? "inf" : "-inf";
    return;
  }
  std::array<char, 32> buffer;
  const std::to_chars_result r = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  text->append(buffer.data(), r.ptr);
}

std::string StringPrintf(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::va_list again;
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text;
  if (length > 0) {
    text.resize(static_cast<std::size_t>(length) + 1);
    std::vsnprintf(text.data(), text.size(), format, again);
    text.resize(static_cast<std::size_t>(length));
  }
  va_end(again);
  return text;
}

std::optional<double> ParseDouble(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE) return std::nullopt;
  return value;
}

std::optional<std::int64_t> ParseInteger(const std::string& text) {
  if (text.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size() || errno == ERANGE) return std::nullopt;
  return static_cast<std::int64_t>(value);
}

double ParseNumberOrThrow(std::string_view name, const std::string& text, std::string_view requirement,
                          const std::function<bool(double)>& accept) {
  const std::optional<double> value = ParseDouble(text);
  if (!value || !accept(*value)) {
    throw InputError(std::string(name) + ": " + std::string(requirement) + ", got '" + text + "'");
  }
  return *value;
}

std::int64_t ParseIntegerOrThrow(std::string_view name, const std::string& text, std::int64_t lo,
                                 std::int64_t hi) {
  const std::optional<std::int64_t> value = ParseInteger(text);
  if (!value || *value < lo || *value > hi) {
    throw InputError(std::string(name) + ": expected an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  }
  return *value;
}

}  // namespace stiction
