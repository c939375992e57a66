#pragma once
// What a (fragmented) MP4 file holds at its top level, read the way a
// player would: the boxes in order, the complete moof + mdat fragments and
// the frames they carry (trun sample counts). The fault tests use it to see
// how much video a file held before a kill and where its fragments end.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace stiction::test {

struct Mp4Box {
  std::string type;
  std::int64_t offset = 0, size = 0;
};

struct Mp4Layout {
  std::vector<Mp4Box> boxes;          ///< Complete top-level boxes, in order.
  std::int64_t file_size = 0;
  std::int64_t fragments = 0;         ///< Complete moof + mdat pairs.
  std::int64_t fragment_frames = 0;   ///< Frames in those fragments.
  std::vector<std::int64_t> frames_per_fragment;
  std::int64_t end_of_last_fragment = 0;  ///< Byte offset just after the last complete mdat.
};

inline std::uint64_t BigEndian(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

inline Mp4Layout ReadMp4Layout(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<unsigned char> d((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Mp4Layout layout;
  layout.file_size = static_cast<std::int64_t>(d.size());
  std::size_t o = 0;
  std::int64_t moof_frames = -1;  // Samples of the moof waiting for its mdat.
  while (o + 8 <= d.size()) {
    std::uint64_t size = BigEndian(&d[o], 4);
    const std::string type(reinterpret_cast<const char*>(&d[o + 4]), 4);
    if (size == 1 && o + 16 <= d.size()) size = BigEndian(&d[o + 8], 8);
    if (size < 8 || size > d.size() - o) break;  // Cut off (or not a box).
    layout.boxes.push_back({type, static_cast<std::int64_t>(o), static_cast<std::int64_t>(size)});
    if (type == "moof") {
      moof_frames = 0;
      // Every trun in the moof: version/flags (4 bytes), then sample_count.
      for (std::size_t i = o + 8; i + 12 <= o + size; ++i) {
        if (std::memcmp(&d[i], "trun", 4) == 0) moof_frames += static_cast<std::int64_t>(BigEndian(&d[i + 8], 4));
      }
    } else if (type == "mdat" && moof_frames >= 0) {
      ++layout.fragments;
      layout.fragment_frames += moof_frames;
      layout.frames_per_fragment.push_back(moof_frames);
      layout.end_of_last_fragment = static_cast<std::int64_t>(o + size);
      moof_frames = -1;
    }
    o += size;
  }
  return layout;
}

}  // namespace stiction::test
