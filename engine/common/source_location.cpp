#include "engine/common/source_location.h"

namespace stiction {

std::string SourceLocation::ToString() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line);
}

}  // namespace stiction
