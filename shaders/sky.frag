#version 330 core
// Vertical gradient: the horizon colour at and below the horizon (where the
// ground's fog ends in the same colour), the zenith colour straight up.
in vec3 v_ray_W;
uniform vec3 u_horizon_color;
uniform vec3 u_zenith_color;
out vec4 frag_color;
void main() {
  float up = max(normalize(v_ray_W).z, 0.0);
  // sqrt: the colour leaves the horizon quickly, like a clear sky's haze band.
  frag_color = vec4(mix(u_horizon_color, u_zenith_color, sqrt(up)), 1.0);
}
