#version 330 core
// Pressure patches: world positions and each vertex's place on the colour
// map (pressure / top of the scale), interpolated across the triangle.
layout(location = 0) in vec3 a_position_W;
layout(location = 1) in float a_fraction;
uniform mat4 u_view_proj;
out float v_fraction;
void main() {
  v_fraction = a_fraction;
  gl_Position = u_view_proj * vec4(a_position_W, 1.0);
}
