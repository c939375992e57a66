#version 330 core
// Shadow pass: depth from the directional light only.
layout(location = 0) in vec3 a_position_G;
uniform mat4 u_model;
uniform mat4 u_light_view_proj;
void main() { gl_Position = u_light_view_proj * u_model * vec4(a_position_G, 1.0); }
