#version 330 core
// Post-process antialiasing in the spirit of FXAA (T. Lottes, "FXAA",
// NVIDIA white paper, 2009): find pixels on a luma edge and replace them by
// an average taken along the edge, so a staircase becomes a ramp. Written for
// this viewer; the compact variant (4 diagonal neighbours, a search of at
// most 4 pixels) keeps llvmpipe's cost at a few ms at 1280x720.
//   1. Local contrast from the centre and its 4 diagonal neighbours; flat
//      regions (most of the image) return the centre pixel unchanged.
//   2. The edge direction is perpendicular to the luma gradient estimated
//      from the diagonals. It is scaled so that its smaller component is
//      about one pixel: a nearly horizontal edge is sampled up to 4 pixels
//      to each side, which is what a long staircase needs.
//   3. Two bilinear taps close to the centre along that direction, and two
//      further out. The wide average is used unless its luma leaves the
//      neighbourhood's range (then it crossed another edge: keep the narrow).
in vec2 v_uv;
uniform sampler2D u_image;  // The single-sample scene colour, bilinear.
uniform vec2 u_texel;       // 1 / size
out vec4 frag_color;

float Luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

// The neighbourhood with unfiltered fetches (cheaper than bilinear taps on
// llvmpipe), clamped at the image border.
vec3 Texel(ivec2 p) { return texelFetch(u_image, clamp(p, ivec2(0), textureSize(u_image, 0) - 1), 0).rgb; }

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 centre = texelFetch(u_image, p, 0).rgb;
  float l_c = Luma(centre);
  float l_nw = Luma(Texel(p + ivec2(-1, 1)));
  float l_ne = Luma(Texel(p + ivec2(1, 1)));
  float l_sw = Luma(Texel(p + ivec2(-1, -1)));
  float l_se = Luma(Texel(p + ivec2(1, -1)));
  float l_min = min(l_c, min(min(l_nw, l_ne), min(l_sw, l_se)));
  float l_max = max(l_c, max(max(l_nw, l_ne), max(l_sw, l_se)));
  // Thresholds: ignore contrast below 1/8 of the local maximum (and below
  // 1/24 absolute, for dark areas): texture detail and noise stay sharp.
  if (l_max - l_min < max(1.0 / 24.0, l_max / 8.0)) {
    frag_color = vec4(centre, 1.0);
    return;
  }
  float top = l_nw + l_ne, bottom = l_sw + l_se;
  float left = l_nw + l_sw, right = l_ne + l_se;
  // The luma gradient is (right - left, top - bottom) (y up); along the edge
  // is perpendicular to it.
  vec2 along = vec2(bottom - top, right - left);
  // Dividing by the smaller component makes that component ~1 pixel; the
  // small term keeps a vanishing gradient from blowing the step up.
  float damping = max(0.03125 * (top + bottom), 1.0 / 128.0);
  along /= min(abs(along.x), abs(along.y)) + damping;
  along = clamp(along, -4.0, 4.0) * u_texel;
  vec3 narrow = 0.5 * (texture(u_image, v_uv - along / 6.0).rgb + texture(u_image, v_uv + along / 6.0).rgb);
  vec3 wide = 0.5 * narrow +
              0.25 * (texture(u_image, v_uv - along / 2.0).rgb + texture(u_image, v_uv + along / 2.0).rgb);
  float l_wide = Luma(wide);
  frag_color = vec4((l_wide < l_min || l_wide > l_max) ? narrow : wide, 1.0);
}
