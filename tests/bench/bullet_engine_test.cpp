#include <gtest/gtest.h>

TEST(Placeholder, bullet_engine_test) { SUCCEED(); }
