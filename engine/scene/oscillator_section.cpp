// Oscillators (docs/scene-format.md, "Oscillators"): a periodic target on
// an actuator, e.g. a gait or a shaker; at most one per actuator.
#include <array>
#include <string_view>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 5> kOscillatorKeys = {"actuator", "amplitude", "period", "phase", "start"};

/// Amplitude, period, phase and start.
void ParseWaveform(const YamlReader& reader, const MapView& map, OscillatorDescription* o) {
  o->amplitude = reader.ReadNumber(map.CtxOf("amplitude"), map.Get("amplitude"));
  o->period = reader.ReadPositive(map.CtxOf("period"), map.Get("period"));
  if (map.Has("phase")) {
    o->phase = reader.ReadNumber(map.CtxOf("phase"), map.Get("phase"));
    if (o->phase < 0 || o->phase >= 1) Fail(map.CtxOf("phase"), map.Get("phase"), "must be in [0, 1) periods");
  }
  if (map.Has("start")) o->start = reader.ReadNonNegative(map.CtxOf("start"), map.Get("start"));
}

}  // namespace

void SceneParser::ParseOscillators() {
  for (const auto& [node, ctx] : merged_.ListElements("oscillators")) {
    const MapView map(reader_, ctx, node);
    map.AllowOnly(kOscillatorKeys, "for an oscillator");
    for (const char* key : {"actuator", "amplitude", "period"}) map.Require(key, "for an oscillator");
    OscillatorDescription o;
    o.where = WhereOf(ctx, node);
    o.actuator = reader_.ReadName(map.CtxOf("actuator"), map.Get("actuator"));
    if (!actuator_names_.Has(o.actuator)) {
      Fail(map.CtxOf("actuator"), map.Get("actuator"),
           "unknown actuator " + Quote(o.actuator) + " (actuators: " + ShortList(NamesOf(scene_.actuators)) + ")");
    }
    for (const OscillatorDescription& other : scene_.oscillators) {
      if (other.actuator == o.actuator) {
        Fail(map.CtxOf("actuator"), map.Get("actuator"),
             "actuator " + Quote(o.actuator) + " already has an oscillator (at " + other.where.ToString() + ")");
      }
    }
    ParseWaveform(reader_, map, &o);
    scene_.oscillators.push_back(std::move(o));
  }
}

}  // namespace stiction
