#version 330 core
// Geometry pass: world-space position and normal for Blinn-Phong, the
// position in the light's clip space for the shadow map, and the local xy
// coordinates that the ground grid is drawn in.
layout(location = 0) in vec3 a_position_G;
layout(location = 1) in vec3 a_normal_G;

uniform mat4 u_model;          // X_WG
uniform mat3 u_normal_matrix;  // R_WG (rigid transforms: no inverse transpose needed)
uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;

out vec3 v_position_W;
out vec3 v_normal_W;
out vec4 v_position_L;
out vec2 v_grid_xy;

void main() {
  vec4 p_W = u_model * vec4(a_position_G, 1.0);
  v_position_W = p_W.xyz;
  v_normal_W = u_normal_matrix * a_normal_G;
  v_position_L = u_light_view_proj * p_W;
  v_grid_xy = a_position_G.xy;
  gl_Position = u_view_proj * p_W;
}
