#version 330 core
// The sky: one triangle that covers the screen, at the far plane (depth 1),
// drawn after the opaque geometry with GL_LEQUAL so that only pixels nothing
// covered are shaded. Each corner carries its world-space view ray; rays
// interpolate linearly across the screen, the fragment shader normalizes.
uniform mat4 u_inv_view_proj;
uniform vec3 u_eye_W;
out vec3 v_ray_W;
void main() {
  vec2 ndc = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  vec4 far_W = u_inv_view_proj * vec4(ndc, 1.0, 1.0);
  v_ray_W = far_W.xyz / far_W.w - u_eye_W;
  gl_Position = vec4(ndc, 1.0, 1.0);
}
