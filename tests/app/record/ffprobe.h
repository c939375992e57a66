#pragma once
// What the real ffprobe says about a video's first video stream (the tests
// check our MP4s with the same tool a user would), and the decoded pixels of
// one frame through the real ffmpeg.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/app/run_command.h"

namespace stiction::test {

struct VideoProbe {
  bool ok = false;
  std::string codec;         ///< e.g. "h264".
  int width = 0, height = 0;
  long long frames = 0;      ///< Decoded frames (ffprobe -count_frames).
  std::string frame_rate;    ///< r_frame_rate, e.g. "30/1".
  std::string pixel_format;  ///< e.g. "yuv420p".
  std::string output;        ///< ffprobe's output, for failure messages.
};

inline VideoProbe ProbeVideo(const std::string& path) {
  VideoProbe p;
  const int code = RunCommand(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,nb_read_frames,r_frame_rate,pix_fmt -of default=noprint_wrappers=1 '" +
          path + "'",
      &p.output);
  std::map<std::string, std::string> kv;
  std::istringstream lines(p.output);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  p.ok = code == 0 && kv.count("codec_name") == 1;
  if (!p.ok) return p;
  p.codec = kv["codec_name"];
  p.width = std::stoi(kv["width"]);
  p.height = std::stoi(kv["height"]);
  p.frames = std::stoll(kv["nb_read_frames"]);
  p.frame_rate = kv["r_frame_rate"];
  p.pixel_format = kv["pix_fmt"];
  return p;
}

/// Frame `index` of a video decoded to RGB, top row first; empty on failure.
inline std::vector<std::uint8_t> DecodeFrame(const std::string& path, int index) {
  const std::string raw = path + ".frame.rgb";
  std::string out;
  const int code = RunCommand("ffmpeg -v error -y -i '" + path + "' -vf 'select=eq(n\\," + std::to_string(index) +
                                  ")' -frames:v 1 -f rawvideo -pix_fmt rgb24 '" + raw + "'",
                              &out);
  std::vector<std::uint8_t> rgb;
  if (code != 0) return rgb;
  if (FILE* f = std::fopen(raw.c_str(), "rb")) {
    std::uint8_t buffer[65536];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) rgb.insert(rgb.end(), buffer, buffer + n);
    std::fclose(f);
  }
  std::remove(raw.c_str());
  return rgb;
}

}  // namespace stiction::test
