#version 330 core
// Shadow pass, instanced like mesh.vert: depth from the directional light only.
layout(location = 0) in vec3 a_position_G;
layout(location = 2) in mat4 i_model;  // X_WG (locations 2-5)
uniform mat4 u_light_view_proj;
void main() { gl_Position = u_light_view_proj * i_model * vec4(a_position_G, 1.0); }
