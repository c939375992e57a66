// The precompiled header of the engine's layers, the CLI, the viewer and the
// benchmarks (engine/CMakeLists.txt, stiction_engine_pch): the standard and
// Eigen headers that nearly every engine file includes, parsed once per build
// instead of once per file (docs/sanitizers.md, "Build cost"). Only headers
// that do not change with Stiction's code belong here; every file still
// includes what it uses, so it compiles the same without this header (the
// layering test compiles each engine header on its own, without it).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/LU>
