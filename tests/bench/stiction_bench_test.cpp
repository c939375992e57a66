#include <gtest/gtest.h>

TEST(Placeholder, stiction_bench_test) { SUCCEED(); }
