#version 330 core
// Blinn-Phong with one directional light. Compiled in variants (the Renderer
// inserts the #defines after the #version line) because llvmpipe pays for
// both sides of a branch on a uniform:
//   SHADOWS  one lookup in the shadow map (sampler2DShadow: hardware depth
//            comparison with bilinear filtering = 2x2 PCF; more taps cost
//            llvmpipe several ms per frame at 1280x720)
//   GROUND   the half-space: 0.1 m and 1 m grid lines (optional) and distance
//            fog that fades the plane into the sky colour.
in vec3 v_position_W;
in vec3 v_normal_W;
in vec4 v_position_L;
in vec2 v_grid_xy;

uniform vec4 u_color;             // RGBA in [0, 1]
uniform vec3 u_light_dir_W;       // Direction the light travels (unit).
uniform vec3 u_eye_W;
uniform float u_emissive;         // Selection highlight, 0..1
#ifdef SHADOWS
uniform sampler2DShadow u_shadow_map;
#endif
#ifdef GROUND
uniform int u_grid;               // 1: draw grid lines
uniform vec3 u_fog_color;
uniform vec2 u_fog_range;         // Start and end distance [m]
#endif

out vec4 frag_color;

#ifdef SHADOWS
float ShadowFactor(vec3 n) {
  vec3 p = v_position_L.xyz / v_position_L.w * 0.5 + 0.5;
  if (p.z > 1.0) return 1.0;
  float cos_theta = clamp(dot(n, -u_light_dir_W), 0.0, 1.0);
  float bias = mix(0.002, 0.0005, cos_theta);
  return texture(u_shadow_map, vec3(p.xy, p.z - bias));
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
  vec3 base = u_color.rgb;
#ifdef GROUND
  if (u_grid == 1) {
    base = mix(base, base * 0.8, GridLine(v_grid_xy * 10.0));
    base = mix(base, base * 0.55, GridLine(v_grid_xy));
  }
#endif
  vec3 l = -u_light_dir_W;
  vec3 v = normalize(u_eye_W - v_position_W);
  vec3 h = normalize(l + v);
  float diffuse = max(dot(n, l), 0.0);
  float specular = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), 48.0) : 0.0;
#ifdef SHADOWS
  float shadow = ShadowFactor(n);
#else
  float shadow = 1.0;
#endif
  vec3 ambient = base * mix(0.22, 0.38, 0.5 * n.z + 0.5);
  vec3 color = ambient + shadow * (0.75 * diffuse * base + 0.25 * specular * vec3(1.0));
  color += u_emissive * vec3(0.30, 0.25, 0.05);
#ifdef GROUND
  float fog = smoothstep(u_fog_range.x, u_fog_range.y, length(u_eye_W - v_position_W));
  color = mix(color, u_fog_color, fog);
#endif
  frag_color = vec4(color, u_color.a);
}
