// The scene's initial camera (docs/scene-format.md, "Camera"): what it looks
// at, from how far and which direction, its field of view, and the body it
// tracks. Parsed last, so that `track` may name any body, a robot's included.
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "engine/common/text.h"
#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 6> kCameraKeys = {"lookat", "distance", "azimuth",
                                                          "elevation", "fovy", "track"};

/// Lookat, distance, azimuth, elevation and field of view.
void ParseView(const YamlReader& reader, const MapView& map, CameraDescription* out) {
  if (map.Has("lookat")) out->lookat = reader.ReadVector3(map.CtxOf("lookat"), map.Get("lookat"));
  if (map.Has("distance")) out->distance = reader.ReadPositive(map.CtxOf("distance"), map.Get("distance"));
  if (map.Has("azimuth")) out->azimuth_deg = reader.ReadNumber(map.CtxOf("azimuth"), map.Get("azimuth"));
  if (map.Has("elevation")) {
    const Ctx elevation_ctx = map.CtxOf("elevation");
    out->elevation_deg = reader.ReadNumber(elevation_ctx, map.Get("elevation"));
    // ±90° would look along z, parallel to the camera's up vector.
    if (!(std::abs(out->elevation_deg) < kMaxCameraElevationDeg)) {
      Fail(elevation_ctx, map.Get("elevation"),
           "must be in (-90, 90) degrees, got " + OneLine(map.Get("elevation").Scalar()));
    }
  }
  if (map.Has("fovy")) {
    out->fovy_deg = reader.ReadInRange(map.CtxOf("fovy"), map.Get("fovy"), kMinCameraFovyDeg, kMaxCameraFovyDeg);
  }
}

}  // namespace

void SceneParser::ParseCamera() {
  if (!Has("camera")) return;
  const Ctx ctx = KeyCtx("camera");
  const YAML::Node& node = Get("camera");
  CameraDescription out;
  out.where = WhereOf(ctx, node);
  if (!node.IsNull()) {  // "camera:" alone, as "camera: {}": fit the bodies.
    const MapView map(reader_, ctx, node);
    map.AllowOnly(kCameraKeys, "for the camera");
    ParseView(reader_, map, &out);
    if (map.Has("track")) {
      const Ctx track_ctx = map.CtxOf("track");
      out.track = reader_.ReadName(track_ctx, map.Get("track"));
      if (std::none_of(scene_.bodies.begin(), scene_.bodies.end(),
                       [&](const BodyDescription& b) { return b.name == out.track; })) {
        Fail(track_ctx, map.Get("track"),
             "unknown body " + Quote(out.track) + " (bodies: " + ShortList(NamesOf(scene_.bodies)) + ")");
      }
    }
  }
  scene_.camera = out;
}

}  // namespace stiction
