// Scripted cameras: the command file's `camera:` keyframes (parsing, errors
// as "FILE:LINE: KEY: reason", exact round trip) and their smoothstep
// interpolation (engine/control/camera_keyframes.h).
#include "engine/control/camera_keyframes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/control/command_log.h"

namespace stiction {
namespace {

CameraKeyframe Key(double t, Vector3 lookat, double distance, double azimuth, double elevation, double fovy = 45) {
  CameraKeyframe k;
  k.time_s = t;
  k.pose = CameraPose{lookat, distance, azimuth, elevation, fovy};
  return k;
}

void ExpectSamePose(const CameraPose& a, const CameraPose& b) {
  EXPECT_EQ(a.lookat, b.lookat);
  EXPECT_EQ(a.distance, b.distance);
  EXPECT_EQ(a.azimuth_deg, b.azimuth_deg);
  EXPECT_EQ(a.elevation_deg, b.elevation_deg);
  EXPECT_EQ(a.fovy_deg, b.fovy_deg);
}

const std::string kHeader = "commands: []\n";

std::string ErrorOf(const std::string& camera) {
  try {
    ParseCommandText(kHeader + camera, "cam.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CameraKeyframesTest, EndpointsAndOutsideAreExact) {
  const std::vector<CameraKeyframe> keys = {Key(1.0, Vector3(0, 0, 0.1), 1.2, 90, -20, 45),
                                            Key(3.0, Vector3(0.2, 0, 0.1), 0.8, 150, -35, 40),
                                            Key(4.5, Vector3(0.3, 0.1, 0.2), 2.0, 360, -10, 60)};
  ExpectSamePose(InterpolateCameraKeyframes(keys, -5.0), keys[0].pose);
  ExpectSamePose(InterpolateCameraKeyframes(keys, 1.0), keys[0].pose);
  ExpectSamePose(InterpolateCameraKeyframes(keys, 3.0), keys[1].pose);
  ExpectSamePose(InterpolateCameraKeyframes(keys, 4.5), keys[2].pose);
  ExpectSamePose(InterpolateCameraKeyframes(keys, 100.0), keys[2].pose);
  ExpectSamePose(InterpolateCameraKeyframes({keys[1]}, 0.0), keys[1].pose);
  ExpectSamePose(InterpolateCameraKeyframes({}, 1.0), CameraPose{});
}

TEST(CameraKeyframesTest, MidpointIsTheAverageAndDistanceTheGeometricMean) {
  // Values chosen so that every midpoint is exact in binary (s = w = 1/2).
  const std::vector<CameraKeyframe> keys = {Key(0.0, Vector3(0, 1, 0.5), 0.5, 90, -20, 40),
                                            Key(3.0, Vector3(0.5, -1, 1.5), 2.0, 150, -40, 60)};
  const CameraPose mid = InterpolateCameraKeyframes(keys, 1.5);
  EXPECT_EQ(mid.lookat, Vector3(0.25, 0, 1.0));
  EXPECT_EQ(mid.azimuth_deg, 120);
  EXPECT_EQ(mid.elevation_deg, -30);
  EXPECT_EQ(mid.fovy_deg, 50);
  // exp((log 0.5 + log 2) / 2) = exp(0) = 1; the logs cancel only up to
  // their rounding, so allow a few ulps.
  EXPECT_NEAR(mid.distance, 1.0, 4e-16);
  // Smoothstep at s = 1/4: w = 3/16 − 2/64 = 5/32 (exact in binary).
  const CameraPose quarter = InterpolateCameraKeyframes(keys, 0.75);
  EXPECT_EQ(quarter.azimuth_deg, 90 + 60 * 5.0 / 32.0);
}

TEST(CameraKeyframesTest, MonotoneAndContinuousBetweenKeyframes) {
  // Azimuth 0 -> 360 is a full turn, not no turn: interpolated as written.
  const std::vector<CameraKeyframe> keys = {Key(0.0, Vector3(0, 0, 0), 0.5, 0, -60, 20),
                                            Key(2.0, Vector3(1, 0, 0), 4.0, 360, 30, 90),
                                            Key(3.0, Vector3(1, 2, 0), 1.0, 350, 30, 90)};
  CameraPose previous = InterpolateCameraKeyframes(keys, 0.0);
  double max_step = 0;
  for (int i = 1; i <= 2000; ++i) {
    const double t = 2.0 * i / 2000;
    const CameraPose p = InterpolateCameraKeyframes(keys, t);
    EXPECT_GE(p.lookat.x(), previous.lookat.x()) << t;
    EXPECT_GE(p.distance, previous.distance) << t;
    EXPECT_GE(p.azimuth_deg, previous.azimuth_deg) << t;
    EXPECT_GE(p.elevation_deg, previous.elevation_deg) << t;
    EXPECT_GE(p.fovy_deg, previous.fovy_deg) << t;
    max_step = std::max(max_step, p.azimuth_deg - previous.azimuth_deg);
    previous = p;
  }
  EXPECT_EQ(previous.azimuth_deg, 360);  // A full turn.
  // C1: the largest step is the peak rate 1.5 · 360° / 2 s times the 1 ms
  // sample, and the rate is zero at the keyframes: the first step is tiny.
  EXPECT_LT(max_step, 1.5 * 180 * 1e-3 * 1.0001);
  EXPECT_LT(InterpolateCameraKeyframes(keys, 1e-3).azimuth_deg, 1e-3);
  // Second segment decreases monotonically (350 < 360; the lookat y rises).
  previous = InterpolateCameraKeyframes(keys, 2.0);
  for (int i = 1; i <= 100; ++i) {
    const CameraPose p = InterpolateCameraKeyframes(keys, 2.0 + i / 100.0);
    EXPECT_LE(p.azimuth_deg, previous.azimuth_deg);
    EXPECT_LE(p.distance, previous.distance);
    EXPECT_GE(p.lookat.y(), previous.lookat.y());
    previous = p;
  }
}

TEST(CameraKeyframesTest, ParsesKeyframesWithFovyDefaults) {
  const CommandLog log = ParseCommandText(kHeader +
                                              "camera:\n"
                                              "  - {time: 0.0, lookat: [0, 0, 0.1], distance: 1.2, azimuth: 90, elevation: -20}\n"
                                              "  - {time: 3.0, lookat: [0.2, 0, 0.1], distance: 0.8, azimuth: 150, elevation: -35, fovy: 40}\n"
                                              "  - {time: 4, lookat: [0.2, 0, 0.1], distance: 0.8, azimuth: 150, elevation: 10}\n",
                                          "cam.yaml");
  ASSERT_EQ(log.camera.size(), 3u);
  EXPECT_EQ(log.camera[0].pose.fovy_deg, 45);  // The default.
  EXPECT_EQ(log.camera[1].pose.fovy_deg, 40);
  EXPECT_EQ(log.camera[2].pose.fovy_deg, 40);  // The previous keyframe's.
  EXPECT_EQ(log.camera[1].pose.lookat, Vector3(0.2, 0, 0.1));
  EXPECT_EQ(log.camera[1].time_s, 3.0);
  EXPECT_EQ(log.camera[1].line, 4);
  EXPECT_TRUE(ParseCommandText(kHeader, "cam.yaml").camera.empty());
}

TEST(CameraKeyframesTest, ErrorsNameFileLineAndKey) {
  const std::string k0 = "  - {time: 1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0}\n";
  EXPECT_EQ(ErrorOf("camera:\n" + k0 +
                    "  - {time: 1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:4: camera[1].time: keyframe times must increase strictly, got 1 s after 1 s (line 3)");
  EXPECT_EQ(ErrorOf("camera:\n" + k0 +
                    "  - {time: 0.5, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:4: camera[1].time: keyframe times must increase strictly, got 0.5 s after 1 s (line 3)");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0]: missing required key 'distance' (every keyframe gives time, lookat, distance, "
            "azimuth and elevation)");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, .nan], distance: 1, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0].lookat[2]: expected a finite number, got '.nan'");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], distance: nan, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0].distance: expected a finite number, got 'nan'");
  EXPECT_EQ(ErrorOf("camera:\n" + k0 +
                    "  - {time: 2, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0, track: box}\n"),
            "cam.yaml:4: camera[1].track: a scripted camera does not follow a body (track is a key of the "
            "scene's camera:); give lookat at each keyframe");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], distance: 0, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0].distance: must be > 0 m, got 0");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: -90}\n"),
            "cam.yaml:3: camera[0].elevation: must be in (-90, 90) degrees, got -90");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0, fovy: 151}\n"),
            "cam.yaml:3: camera[0].fovy: must be in [5, 150] degrees, got 151");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0], distance: 1, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0].lookat: expected [x, y, z] in m");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: 1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0, zoom: 2}\n"),
            "cam.yaml:3: camera[0].zoom: unknown key (expected one of: time, lookat, distance, azimuth, elevation, "
            "fovy)");
  EXPECT_EQ(ErrorOf("camera: {time: 1}\n"), "cam.yaml:2: camera: expected a list of keyframes");
  EXPECT_EQ(ErrorOf("camera:\n  - {time: -1, lookat: [0, 0, 0], distance: 1, azimuth: 0, elevation: 0}\n"),
            "cam.yaml:3: camera[0].time: must be >= 0 s");
}

TEST(CameraKeyframesTest, RoundTripIsBitIdentical) {
  CommandLog log;
  log.file = "take.yaml";
  log.time_step = 0.01;
  CommandEntry e;
  e.step = 0;
  e.grip = GripState::kOpen;
  log.entries.push_back(e);
  // Values that need all 17 digits.
  log.camera.push_back(Key(0.1, Vector3(0.1, 1.0 / 3.0, -2.0 / 7.0), std::sqrt(2.0), 1e-17, -25.000000000000004,
                           std::nextafter(45.0, 50.0)));
  log.camera.push_back(Key(1.0 / 3.0, Vector3(1e-300, -0.0, 12345.678901234567), 3.0e5, 720.0000000000001,
                           89.99999999999999, 5));
  const std::string text = FormatCommandLog(log);
  const CommandLog back = ParseCommandText(text, "take.yaml");
  ASSERT_EQ(back.camera.size(), log.camera.size());
  for (std::size_t i = 0; i < log.camera.size(); ++i) {
    EXPECT_EQ(back.camera[i].time_s, log.camera[i].time_s);
    ExpectSamePose(back.camera[i].pose, log.camera[i].pose);
    EXPECT_EQ(std::signbit(back.camera[i].pose.lookat.y()), std::signbit(log.camera[i].pose.lookat.y()));
  }
  EXPECT_EQ(FormatCommandLog(back), text);
  // A log without keyframes writes no camera key (older files stay as they were).
  log.camera.clear();
  EXPECT_EQ(FormatCommandLog(log).find("camera"), std::string::npos);
}

}  // namespace
}  // namespace stiction
