#version 330 core
// Geometry pass, instanced: every instance brings its own pose X_WG, colour
// and material (instance attributes, glVertexAttribDivisor 1), so all items
// that share a mesh are one glDrawElementsInstanced. Outputs: world-space
// position and normal for the lighting, the position in the light's clip
// space for the shadow map, and the local xy coordinates that the ground grid
// is drawn in.
layout(location = 0) in vec3 a_position_G;
layout(location = 1) in vec3 a_normal_G;
layout(location = 2) in mat4 i_model;     // X_WG (locations 2-5)
layout(location = 6) in vec4 i_color;     // RGBA in [0, 1]
layout(location = 7) in vec4 i_material;  // emissive, specular strength, shininess, unused

uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;

out vec3 v_position_W;
out vec3 v_normal_W;
out vec4 v_position_L;
out vec2 v_grid_xy;
flat out vec4 v_color;
flat out vec3 v_material;

void main() {
  vec4 p_W = i_model * vec4(a_position_G, 1.0);
  v_position_W = p_W.xyz;
  // Rigid transforms: the rotation block is its own inverse transpose.
  v_normal_W = mat3(i_model) * a_normal_G;
  v_position_L = u_light_view_proj * p_W;
  v_grid_xy = a_position_G.xy;
  v_color = i_color;
  v_material = i_material.xyz;
  gl_Position = u_view_proj * p_W;
}
