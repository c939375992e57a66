#pragma once
// The documented shape of the stiction-sim JSON report (docs/cli.md), shared by
// the report writer's unit test and the end-to-end CLI test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

namespace stiction::cli::test {

/// Asserts every documented key with its type.
inline void ExpectReportShape(const nlohmann::json& j) {
  for (const char* key : {"scene", "description", "stepping", "solver", "contact_model", "status", "error"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j[key].is_string()) << key;
  }
  for (const char* key : {"dt", "sim_time_s", "wall_time_s", "realtime_factor"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j[key].is_number()) << key;
  }
  ASSERT_TRUE(j.contains("contact_models_used"));
  ASSERT_TRUE(j["contact_models_used"].is_array());
  for (const auto& m : j["contact_models_used"]) EXPECT_TRUE(m.is_string());
  ASSERT_TRUE(j.contains("steps"));
  EXPECT_TRUE(j["steps"].is_number_integer());
  ASSERT_TRUE(j.contains("finite"));
  EXPECT_TRUE(j["finite"].is_boolean());
  ASSERT_TRUE(j.contains("integrator"));
  ASSERT_TRUE(j["integrator"].is_object());
  EXPECT_TRUE(j["integrator"]["name"].is_string());
  EXPECT_TRUE(j["integrator"]["theta"].is_number());
  EXPECT_TRUE(j["integrator"]["theta_vq"].is_number());
  ASSERT_TRUE(j.contains("stats"));
  ASSERT_TRUE(j["stats"].is_object());
  for (const char* key : {"mean_iterations", "mean_contacts", "max_momentum_error",
                          "max_complementarity_error", "max_penetration_m", "mean_penetration_m",
                          "mean_step_wall_time_s", "mean_qp_iterations", "smallest_dt_s", "mean_sleeping_bodies"}) {
    ASSERT_TRUE(j["stats"].contains(key)) << key;
    EXPECT_TRUE(j["stats"][key].is_number()) << key;
  }
  for (const char* key : {"max_iterations", "max_contacts", "max_qp_iterations", "subdivided_steps",
                          "max_subdivisions", "max_sleeping_bodies"}) {
    ASSERT_TRUE(j["stats"].contains(key)) << key;
    EXPECT_TRUE(j["stats"][key].is_number_integer()) << key;
  }
  ASSERT_TRUE(j.contains("energy"));
  ASSERT_TRUE(j["energy"].is_object());
  for (const char* key :
       {"initial_kinetic_J", "initial_potential_J", "final_kinetic_J", "final_potential_J"}) {
    ASSERT_TRUE(j["energy"].contains(key)) << key;
    EXPECT_TRUE(j["energy"][key].is_number()) << key;
  }
  ASSERT_TRUE(j.contains("bodies"));
  ASSERT_TRUE(j["bodies"].is_array());
  for (const nlohmann::json& body : j["bodies"]) {
    ASSERT_TRUE(body.is_object());
    EXPECT_TRUE(body["name"].is_string());
    const std::vector<std::pair<const char*, std::size_t>> arrays = {
        {"position", 3}, {"quaternion", 4}, {"linear_velocity", 3}, {"angular_velocity", 3}};
    for (const auto& [key, size] : arrays) {
      ASSERT_TRUE(body.contains(key)) << key;
      ASSERT_TRUE(body[key].is_array()) << key;
      ASSERT_EQ(body[key].size(), size) << key;
      for (const nlohmann::json& x : body[key]) EXPECT_TRUE(x.is_number()) << key;
    }
  }
}

}  // namespace stiction::cli::test
