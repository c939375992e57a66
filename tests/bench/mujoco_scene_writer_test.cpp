#include <gtest/gtest.h>

TEST(Placeholder, mujoco_scene_writer_test) { SUCCEED(); }
