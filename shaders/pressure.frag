#version 330 core
// The colour map per fragment: the stops of app/render/pressure_scale.h
// (uploaded as u_colormap), linear in between, as PressureColor does, so
// the patches and the legend agree.
const int kStops = 11;
uniform vec3 u_colormap[kStops];
in float v_fraction;
out vec4 frag_color;
void main() {
  float x = clamp(v_fraction, 0.0, 1.0) * float(kStops - 1);
  int i = min(int(x), kStops - 2);
  frag_color = vec4(mix(u_colormap[i], u_colormap[i + 1], x - float(i)), 1.0);
}
