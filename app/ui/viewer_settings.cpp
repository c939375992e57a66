#include "app/ui/viewer_settings.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "engine/common/text.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSectionPrefix = "section.";
constexpr int kMaxWindowPixels = 16384;
constexpr float kMaxColumnPixels = 4000;

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// A finite number in [lo, hi]; false otherwise.
bool ParseNumber(const std::string& text, double lo, double hi, double* out) {
  const std::optional<double> v = ParseDouble(text);
  if (!v || !std::isfinite(*v) || *v < lo || *v > hi) return false;
  *out = *v;
  return true;
}

bool ParseBool(const std::string& text, bool* out) {
  if (text == "1" || text == "true") {
    *out = true;
    return true;
  }
  if (text == "0" || text == "false") {
    *out = false;
    return true;
  }
  return false;
}

}  // namespace

std::string DefaultViewerSettingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return (fs::path(xdg) / "stiction" / "viewer.ini").string();
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return (fs::path(home) / ".config" / "stiction" / "viewer.ini").string();
  return "";
}

namespace {

// Sets `key` of the settings file to `value`; returns why it cannot ("" when
// it was set).
std::string ApplySetting(const std::string& key, const std::string& value, ViewerSettings* s) {
  double v = 0;
  bool b = false;
  if (key == "window_width" || key == "window_height") {
    if (!ParseNumber(value, 100, kMaxWindowPixels, &v)) {
      return "expected a width in [100, " + std::to_string(kMaxWindowPixels) + "] pixels, got '" + value + "'";
    }
    (key == "window_width" ? s->window_width : s->window_height) = static_cast<int>(v);
  } else if (key == "ui_scale") {
    if (!ParseNumber(value, 0, kMaxUiScale, &v) || (v != 0 && v < kMinUiScale)) {
      return StringPrintf("expected 0 (automatic) or a scale in [%.2f, %.1f], got '", kMinUiScale, kMaxUiScale) +
             value + "'";
    }
    s->ui_scale = static_cast<float>(v);
  } else if (key == "left_width" || key == "right_width") {
    if (!ParseNumber(value, kMinColumnWidth, kMaxColumnPixels, &v)) {
      return "expected a width in [" + std::to_string(static_cast<int>(kMinColumnWidth)) + ", " +
             std::to_string(static_cast<int>(kMaxColumnPixels)) + "] pixels, got '" + value + "'";
    }
    (key == "left_width" ? s->layout.left_width : s->layout.right_width) = static_cast<float>(v);
  } else if (key == "show_left" || key == "show_right") {
    if (!ParseBool(value, &b)) return "expected 0 or 1, got '" + value + "'";
    (key == "show_left" ? s->layout.show_left : s->layout.show_right) = b;
  } else if (key.rfind(kSectionPrefix, 0) == 0 && key.size() > std::strlen(kSectionPrefix)) {
    if (!ParseBool(value, &b)) return "expected 0 or 1, got '" + value + "'";
    s->sections[key.substr(std::strlen(kSectionPrefix))] = b;
  } else {
    return "unknown key";
  }
  return "";
}

// The first problem, how many more, and that the rest was used ("" if none).
std::string SummarizeProblems(const std::vector<std::string>& problems) {
  if (problems.empty()) return "";
  std::string warning = problems.front();
  if (problems.size() > 1) warning += " (and " + std::to_string(problems.size() - 1) + " more)";
  return warning + "; the rest of the viewer settings were used";
}

}  // namespace

ViewerSettings LoadViewerSettings(const std::string& path, std::string* warning) {
  ViewerSettings s;
  warning->clear();
  std::ifstream in(path);
  if (!in) return s;  // First run: nothing remembered yet.
  std::vector<std::string> problems;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    const std::string key = Trim(line.substr(0, eq));
    const std::string reason = eq == std::string::npos ? "expected KEY = VALUE"
                                                       : ApplySetting(key, Trim(line.substr(eq + 1)), &s);
    if (!reason.empty()) {
      problems.push_back(path + ":" + std::to_string(number) + ": " + (key.empty() ? line : key) + ": " + reason);
    }
  }
  *warning = SummarizeProblems(problems);
  return s;
}

std::string FormatViewerSettings(const ViewerSettings& s) {
  std::ostringstream out;
  out << "# Stiction viewer settings, written when the viewer closes (docs/viewer.md).\n";
  if (s.window_width > 0 && s.window_height > 0) {
    out << "window_width = " << s.window_width << "\nwindow_height = " << s.window_height << "\n";
  }
  out << "ui_scale = " << s.ui_scale << "\n";
  out << "show_left = " << (s.layout.show_left ? 1 : 0) << "\nshow_right = " << (s.layout.show_right ? 1 : 0) << "\n";
  out << "left_width = " << s.layout.left_width << "\nright_width = " << s.layout.right_width << "\n";
  for (const auto& [name, open] : s.sections) out << kSectionPrefix << name << " = " << (open ? 1 : 0) << "\n";
  return out.str();
}

bool SaveViewerSettings(const ViewerSettings& settings, const std::string& path, std::string* error) {
  error->clear();
  const fs::path file(path);
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  if (ec) {
    *error = "cannot save viewer settings to " + path + ": " + ec.message();
    return false;
  }
  const fs::path temp = file.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc);
    out << FormatViewerSettings(settings);
    out.flush();
    if (!out) {
      *error = "cannot save viewer settings to " + path + ": " + std::strerror(errno);
      out.close();
      fs::remove(temp, ec);
      return false;
    }
  }
  fs::rename(temp, file, ec);
  if (ec) {
    *error = "cannot save viewer settings to " + path + ": " + ec.message();
    fs::remove(temp, ec);
    return false;
  }
  return true;
}

}  // namespace stiction::app
