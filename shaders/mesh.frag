#version 330 core
// Blinn-Phong under a sun and a sky. Compiled in variants (the Renderer
// inserts the #defines after the #version line) because llvmpipe pays for
// both sides of a branch on a uniform:
//   SHADOWS      the shadow map (sampler2DShadow: each tap is a hardware
//                depth comparison with bilinear filtering = 2x2 PCF);
//                SHADOW_TAPS (1 or 4) taps: 1 on llvmpipe, where each
//                tap costs ~3 ms per 1280x720 frame (docs/viewer.md)
//   GROUND       the half-space: 0.1 m and 1 m grid lines (optional) and
//                distance fog that fades the plane into the horizon colour.
// Lighting is done on squared colours (a cheap gamma-2 linearization), with
// a hemisphere ambient (sky from above, ground bounce from below) and a
// soft-shouldered tone curve, then back with sqrt: lit faces keep their
// saturation and highlights roll off instead of clipping.
in vec3 v_position_W;
in vec3 v_normal_W;
in vec4 v_position_L;
in vec2 v_grid_xy;
flat in vec4 v_color;     // RGBA in [0, 1]
flat in vec3 v_material;  // emissive (selection, 0..1), specular strength, shininess

uniform vec3 u_light_dir_W;       // Direction the light travels (unit).
uniform vec3 u_eye_W;
uniform vec3 u_sun_color;         // Linear, includes the intensity.
uniform vec3 u_sky_ambient;       // Linear ambient from above...
uniform vec3 u_ground_ambient;    // ...and bounced from below.
#ifdef SHADOWS
uniform sampler2DShadow u_shadow_map;
uniform vec2 u_shadow_texel;      // 1 / map size
#endif
#ifdef GROUND
uniform int u_grid;               // 1: draw grid lines
uniform vec3 u_fog_color;         // The sky's horizon colour (display space).
uniform vec2 u_fog_range;         // Start and end distance [m]
#endif

out vec4 frag_color;

#ifdef SHADOWS
float ShadowFactor(vec3 n) {
  vec3 p = v_position_L.xyz / v_position_L.w * 0.5 + 0.5;
  // The light frustum is fitted to the shadow casters only: a receiver
  // beyond its far plane is behind every caster, so clamping its depth to 1
  // compares it against whatever the map holds (cleared 1 = lit).
  p.z = min(p.z, 1.0);
  float cos_theta = clamp(dot(n, -u_light_dir_W), 0.0, 1.0);
  float bias = mix(0.002, 0.0005, cos_theta);
  vec3 q = vec3(p.xy, p.z - bias);
#if SHADOW_TAPS == 4
  // Four bilinear-PCF taps half a texel apart diagonally: a 3x3-texel tent,
  // the penumbra twice as wide and without the 2x2 filter's blockiness.
  vec2 d = 0.5 * u_shadow_texel;
  return 0.25 * (texture(u_shadow_map, q + vec3(-d.x, -d.y, 0.0)) + texture(u_shadow_map, q + vec3(d.x, -d.y, 0.0)) +
                 texture(u_shadow_map, q + vec3(-d.x, d.y, 0.0)) + texture(u_shadow_map, q + vec3(d.x, d.y, 0.0)));
#else
  return texture(u_shadow_map, q);
#endif
}
#endif

#ifdef GROUND
// 1 on a grid line of unit spacing in `coord`, 0 elsewhere, antialiased.
float GridLine(vec2 coord) {
  vec2 w = max(fwidth(coord), vec2(1e-6));
  vec2 g = abs(fract(coord - 0.5) - 0.5) / w;
  float line = 1.0 - min(min(g.x, g.y), 1.0);
  // Fade lines once cells get smaller than a few pixels (no moire).
  return line * clamp(1.5 - 4.0 * max(w.x, w.y), 0.0, 1.0);
}
#endif

void main() {
  vec3 n = normalize(v_normal_W);
  if (!gl_FrontFacing) n = -n;
  vec3 base = v_color.rgb;
#ifdef GROUND
  if (u_grid == 1) {
    base = mix(base, base * 0.8, GridLine(v_grid_xy * 10.0));
    base = mix(base, base * 0.55, GridLine(v_grid_xy));
  }
#endif
  vec3 albedo = base * base;
#ifdef GROUND
  // The floor 15 % darker than its nominal colour: it faces the sun more
  // squarely than most body faces do, and bodies must stand out against it.
  albedo *= 0.72;
#endif
  vec3 l = -u_light_dir_W;
  vec3 v = normalize(u_eye_W - v_position_W);
  vec3 h = normalize(l + v);
  float diffuse = max(dot(n, l), 0.0);
  float specular = diffuse > 0.0 ? v_material.y * pow(max(dot(n, h), 0.0), v_material.z) : 0.0;
#ifdef SHADOWS
  float shadow = ShadowFactor(n);
#else
  float shadow = 1.0;
#endif
  vec3 ambient = mix(u_ground_ambient, u_sky_ambient, 0.5 * n.z + 0.5);
  vec3 c = albedo * ambient + shadow * u_sun_color * (diffuse * albedo + specular);
  // Extended Reinhard with white point 3: dark and mid tones nearly linear,
  // 3 maps to 1.
  c = c * (1.0 + c / 9.0) / (1.0 + c);
  vec3 color = sqrt(c) + v_material.x * vec3(0.30, 0.25, 0.05);
#ifdef GROUND
  float fog = smoothstep(u_fog_range.x, u_fog_range.y, length(u_eye_W - v_position_W));
  color = mix(color, u_fog_color, fog);
#endif
  frag_color = vec4(color, v_color.a);
}
