// The precompiled header of every test executable (tests/CMakeLists.txt):
// the third-party and standard headers that most test files include, parsed
// once per build instead of once per file. Only headers that do not change
// with Stiction's code belong here; each test file still includes what it
// uses, so it compiles the same without this header.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <gtest/gtest.h>
