#include "engine/scene/scene_loader.h"

// Loading a scene in three passes, each in its own file:
//   1. every file is parsed and its top-level keys checked, includes are
//      followed and merged into one tree whose list entries remember the
//      file they came from (merged_scene.h; the text: scene_source.h);
//   2. the --set overrides edit that tree (scene_overrides.h), and the nodes
//      they placed are remembered so errors can name the override;
//   3. the tree is read section by section into a SceneDescription
//      (scene_parser.h, one *_section.cpp per section) through the typed,
//      located reads of yaml_reader.h.
// Every error is an InputError with a one-line "FILE:LINE: KEY.PATH: reason"
// message. docs/scene-format.md documents the format.

#include "engine/scene/merged_scene.h"
#include "engine/scene/scene_parser.h"
#include "engine/scene/scene_source.h"

namespace stiction {
namespace {

/// Pass 3: the sections in dependency order (a section may name what the
/// ones before it defined).
SceneDescription ParseSections(const MergedScene& merged) {
  SceneParser parser(merged);
  parser.ParseSettings();
  parser.ParseMaterials();
  parser.ParseWorldGeometry();
  parser.ParseBodies();
  parser.ParseJoints();
  parser.CheckJointLoops();
  parser.AddFreeJoints();
  parser.ParseRobots();
  parser.ParseActuators();
  parser.ParseMotors();
  parser.ParseOscillators();
  parser.ParseConstraints();
  parser.ParseCouplers();
  parser.ParseGripper();
  parser.ParseCommands();
  parser.ParseCamera();
  return parser.TakeScene();
}

SceneDescription LoadScene(const SceneSource& source, const std::vector<std::string>& overrides) {
  const MergedScene merged(source, overrides);
  return ParseSections(merged);
}

}  // namespace

SceneDescription LoadSceneFile(const std::string& path, const std::vector<std::string>& overrides) {
  return GuardInputErrors(path, [&] { return LoadScene(ReadSceneSource(path), overrides); });
}

SceneDescription LoadSceneString(const std::string& yaml_text, const std::string& file_label,
                                 const std::string& base_dir, const std::vector<std::string>& overrides) {
  return GuardInputErrors(file_label,
                          [&] { return LoadScene(SceneSource{yaml_text, file_label, base_dir, ""}, overrides); });
}

}  // namespace stiction
