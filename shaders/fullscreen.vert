#version 330 core
// One triangle that covers the screen; texture coordinates 0..1 on it.
out vec2 v_uv;
void main() {
  vec2 ndc = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  v_uv = 0.5 * ndc + 0.5;
  gl_Position = vec4(ndc, 0.0, 1.0);
}
