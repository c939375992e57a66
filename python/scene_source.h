#pragma once
// How the module's scene arguments read (docs/python.md): a path to a scene
// or robot file, or YAML text. Shared by stiction._stiction and
// stiction._glrender (which loads the same scene the simulation did).
#include <string>

namespace stiction::python {

/// Whether `scene` names a file rather than holding YAML text: no newline,
/// and an existing file or a name that does not read as a one-line YAML
/// mapping (a missing file is still a path; the loader then says so).
bool LooksLikeScenePath(const std::string& scene);

}  // namespace stiction::python
