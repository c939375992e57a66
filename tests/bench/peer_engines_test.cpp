#include <gtest/gtest.h>

TEST(Placeholder, peer_engines_test) { SUCCEED(); }
