#pragma once
// A GLSL program built from a vertex and a fragment file in the shader
// directory. Failures throw ShaderError with one line naming the file and the
// driver's log, which main() prints before exiting with status 1.
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "app/render/gl.h"
#include "app/render/gl_math.h"

namespace stiction::app {

class ShaderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The shader directory to use: `flag` if non-empty, else $STICTION_SHADERS,
/// else the source tree's shaders/ (compiled in).
std::string ResolveShaderDir(const std::string& flag);

class ShaderProgram {
 public:
  /// Reads `dir/vert_file` and `dir/frag_file`, compiles and links them.
  /// `defines` (e.g. "#define SHADOWS\n") is inserted after each file's
  /// #version line, for variants of one source.
  ShaderProgram(const std::string& dir, const std::string& vert_file,
                const std::string& frag_file, const std::string& defines = "");
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void Use() const { glUseProgram(id_); }
  GLint Location(const char* name);
  void Set(const char* name, int value);
  void Set(const char* name, float value);
  void Set(const char* name, const Vec3f& value);
  void Set(const char* name, const Vec4f& value);
  void Set(const char* name, const Mat3f& value);
  void Set(const char* name, const Mat4f& value);

 private:
  GLuint id_ = 0;
  std::unordered_map<std::string, GLint> locations_;
};

}  // namespace stiction::app
