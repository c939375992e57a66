#pragma once
// Where a value came from, for error messages raised after parsing (by the
// model builder, the facade): "file.yaml:12".
#include <string>

namespace stiction {

struct SourceLocation {
  std::string file;
  int line = 0;  ///< 1-based; 0 when unknown.
  /// "file:line", or just "file" when the line is unknown.
  std::string ToString() const;
};

}  // namespace stiction
