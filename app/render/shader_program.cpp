#include "app/render/shader_program.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace stiction::app {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ShaderError("shader '" + path + "': cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Driver logs are multi-line; the user gets one line.
std::string OneLine(std::string log) {
  while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == ' ' || log.back() == '\0')) {
    log.pop_back();
  }
  for (char& c : log) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return log.empty() ? "(no log)" : log;
}

// The driver's log of shader or program `id`, on one line, when its
// `status` (GL_COMPILE_STATUS, GL_LINK_STATUS) is not GL_TRUE; nothing when
// it is. get_iv: glGetShaderiv or glGetProgramiv; get_log: the matching
// glGet*InfoLog.
template <typename GetIv, typename GetLog>
std::optional<std::string> FailureLog(GLuint id, GLenum status, GetIv get_iv, GetLog get_log) {
  GLint ok = GL_FALSE;
  get_iv(id, status, &ok);
  if (ok == GL_TRUE) return std::nullopt;
  GLint len = 0;
  get_iv(id, GL_INFO_LOG_LENGTH, &len);
  std::vector<char> log(static_cast<size_t>(std::max(len, 1)), '\0');
  get_log(id, len, nullptr, log.data());
  return OneLine(log.data());
}

GLuint Compile(GLenum type, const std::string& path, const std::string& defines) {
  std::string source = ReadFile(path);
  if (!defines.empty()) {
    // After the #version line, which must come first. Line numbers in the
    // driver's log shift by the number of inserted lines.
    const size_t eol = source.find('\n');
    source.insert(eol == std::string::npos ? source.size() : eol + 1, defines);
  }
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  if (const std::optional<std::string> log =
          FailureLog(shader, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog)) {
    glDeleteShader(shader);
    throw ShaderError("shader '" + path + "': compile failed: " + *log);
  }
  return shader;
}

}  // namespace

std::string ResolveShaderDir(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("STICTION_SHADERS"); env != nullptr && *env != '\0') return env;
  return STICTION_DEFAULT_SHADER_DIR;
}

ShaderProgram::ShaderProgram(const std::string& dir, const std::string& vert_file,
                             const std::string& frag_file, const std::string& defines) {
  const std::string vpath = dir + "/" + vert_file, fpath = dir + "/" + frag_file;
  const GLuint vs = Compile(GL_VERTEX_SHADER, vpath, defines);
  GLuint fs = 0;
  try {
    fs = Compile(GL_FRAGMENT_SHADER, fpath, defines);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  id_ = glCreateProgram();
  glAttachShader(id_, vs);
  glAttachShader(id_, fs);
  glLinkProgram(id_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  if (const std::optional<std::string> log = FailureLog(id_, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog)) {
    glDeleteProgram(id_);
    id_ = 0;
    throw ShaderError("shader program '" + vpath + "' + '" + fpath + "': link failed: " + *log);
  }
}

ShaderProgram::~ShaderProgram() {
  if (id_ != 0) glDeleteProgram(id_);
}

GLint ShaderProgram::Location(const char* name) {
  auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  const GLint loc = glGetUniformLocation(id_, name);
  locations_.emplace(name, loc);
  return loc;
}

void ShaderProgram::Set(const char* name, int value) { glUniform1i(Location(name), value); }
void ShaderProgram::Set(const char* name, float value) { glUniform1f(Location(name), value); }
void ShaderProgram::Set(const char* name, const Vec3f& v) { glUniform3fv(Location(name), 1, v.data()); }
void ShaderProgram::Set(const char* name, const Vec4f& v) { glUniform4fv(Location(name), 1, v.data()); }
void ShaderProgram::Set(const char* name, const Mat3f& m) {
  glUniformMatrix3fv(Location(name), 1, GL_FALSE, m.data());
}
void ShaderProgram::Set(const char* name, const Mat4f& m) {
  glUniformMatrix4fv(Location(name), 1, GL_FALSE, m.data());
}

}  // namespace stiction::app
