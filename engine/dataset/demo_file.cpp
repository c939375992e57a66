#include "engine/dataset/demo_file.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/dataset/hdf5_io.h"

#ifndef STICTION_VERSION
#define STICTION_VERSION "unknown"
#endif

namespace stiction {
namespace {

namespace fs = std::filesystem;
using hdf5::Id;
using hdf5::Location;

std::optional<int> DemoIndex(const std::string& name) {
  if (name.rfind("demo_", 0) != 0 || name.size() == 5) return std::nullopt;
  int n = 0;
  for (std::size_t i = 5; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || n > 100000000) return std::nullopt;
    n = 10 * n + (name[i] - '0');
  }
  return n;
}

Id OpenFile(const std::string& path, bool write) {
  hdf5::Quiet();
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path + ": no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw InputError(path + ": not an HDF5 file (or it is truncated or corrupt)");
  }
  const hid_t file = H5Fopen(path.c_str(), write ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) {
    throw InputError(path + ": cannot open it" + (write ? " for writing" : "") +
                     ": the HDF5 file is truncated or corrupt" + (write ? ", or not writable" : ""));
  }
  Id id(file, H5Fclose);
  const Location root{id.get(), path + ":/"};
  if (!hdf5::HasAttribute(root, "format") || hdf5::ReadStringAttribute(root, "format") != kDemoFileFormat) {
    throw InputError(path + ": not a Stiction demonstration dataset (root attribute 'format' is not '" +
                     std::string(kDemoFileFormat) + "')");
  }
  if (!hdf5::HasLink(root, "data")) throw InputError(path + ":/data: missing group (the file is corrupt)");
  return id;
}

Id CreateFile(const std::string& path, const Demo& first) {
  hdf5::Quiet();
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw InputError(path + ": cannot create the file (does its directory exist, is it writable?)");
  Id id(file, H5Fclose);
  const Location root{id.get(), path + ":/"};
  hdf5::WriteAttribute(root, "format", std::string(kDemoFileFormat));
  hdf5::WriteAttribute(root, "stiction_version", std::string(STICTION_VERSION));
  Id data = hdf5::CreateGroup(root, "data");
  const Location d{data.get(), path + ":/data"};
  hdf5::WriteAttribute(d, "total", std::int64_t{0});
  const nlohmann::json env = {{"env_name", fs::path(first.scene_path).stem().string()},
                              {"type", "stiction"},
                              {"env_kwargs", {{"scene", first.scene_path}, {"time_step", first.time_step}}}};
  hdf5::WriteAttribute(d, "env_args", env.dump());
  return id;
}

// An open dataset file and its group /data.
struct DataFile {
  Id file, data;
  Location at;  // /data
};

DataFile OpenData(Id file, const std::string& path) {
  DataFile f;
  f.data = hdf5::OpenGroup(Location{file.get(), path + ":/"}, "data");
  f.at = Location{f.data.get(), path + ":/data"};
  f.file = std::move(file);
  return f;
}

std::vector<hsize_t> Shape2(const DemoTable& t, std::int64_t rows) {
  return {static_cast<hsize_t>(rows), static_cast<hsize_t>(t.cols)};
}

std::vector<std::string> ActionLayout(const Demo& demo) {
  std::vector<std::string> names;
  for (const std::string& g : demo.grippers) {
    for (const char* c : {"x [m]", "y [m]", "z [m]", "yaw [rad]", "tilt [rad]", "grip (-1 open, +1 closed)",
                          "grip_force [N]"}) {
      names.push_back(g + "." + c);
    }
  }
  return names;
}

void WriteDemoGroup(const Location& group, const Demo& demo) {
  const std::int64_t n = demo.num_samples();
  hdf5::WriteAttribute(group, "num_samples", n);
  hdf5::WriteAttribute(group, "model_file", demo.scene_text);
  hdf5::WriteAttribute(group, "scene", demo.scene_path);
  hdf5::WriteAttribute(group, "stiction_version", std::string(STICTION_VERSION));
  hdf5::WriteAttribute(group, "time_step", demo.time_step);
  hdf5::WriteAttribute(group, "nq", std::int64_t{demo.nq});
  hdf5::WriteAttribute(group, "nv", std::int64_t{demo.nv});
  hdf5::WriteAttribute(group, "state_layout",
                       "t [s], q (nq, free joints: x, y, z [m], quaternion w, x, y, z), v (nv) [m/s, rad/s]");
  hdf5::WriteAttribute(group, "grippers", demo.grippers);
  hdf5::WriteAttribute(group, "action_layout", ActionLayout(demo));
  hdf5::WriteAttribute(group, "objects", demo.objects);
  hdf5::WriteAttribute(group, "load_overrides", demo.load_overrides);
  hdf5::WriteAttribute(group, "parameters", demo.parameters);
  hdf5::WriteAttribute(group, "success", std::int64_t{demo.success ? 1 : 0});
  hdf5::WriteAttribute(group, "reproducible", std::int64_t{demo.not_reproducible.empty() ? 1 : 0});
  hdf5::WriteAttribute(group, "not_reproducible", demo.not_reproducible);
  hdf5::WriteAttribute(group, "final_state", demo.final_state);
  hdf5::WriteDoubles(group, "states", Shape2(demo.states, n), demo.states.data.data());
  hdf5::WriteDoubles(group, "actions", Shape2(demo.actions, n), demo.actions.data.data());
  hdf5::WriteDoubles(group, "action_rates", Shape2(demo.action_rates, n), demo.action_rates.data.data());
  hdf5::WriteDoubles(group, "rewards", {static_cast<hsize_t>(n)}, demo.rewards.data.data());
  hdf5::WriteDoubles(group, "dones", {static_cast<hsize_t>(n)}, demo.dones.data.data());
  Id obs = hdf5::CreateGroup(group, "obs");
  const Location o{obs.get(), group.where + "/obs"};
  for (const DemoObservation& ob : demo.obs) hdf5::WriteDoubles(o, ob.key, Shape2(ob.table, n), ob.table.data.data());
  if (demo.images.rows() > 0) {
    const DemoImages& im = demo.images;
    hdf5::WriteBytes(o, im.key,
                     {static_cast<hsize_t>(im.rows()), static_cast<hsize_t>(im.height),
                      static_cast<hsize_t>(im.width), 3},
                     im.pixels.data());
  }
}

void CheckDemo(const std::string& path, const Demo& demo) {
  const std::int64_t n = demo.num_samples();
  auto check = [&](const DemoTable& t, const char* name) {
    if (t.rows() != n && !(t.cols == 0 && t.data.empty())) {
      throw InputError(path + ": the demo's " + name + " has " + std::to_string(t.rows()) + " rows for " +
                       std::to_string(n) + " samples");
    }
  };
  check(demo.actions, "actions");
  check(demo.action_rates, "action_rates");
  check(demo.rewards, "rewards");
  check(demo.dones, "dones");
  for (const DemoObservation& o : demo.obs) check(o.table, o.key.c_str());
  if (demo.images.rows() != 0 && demo.images.rows() != n) {
    throw InputError(path + ": the demo has " + std::to_string(demo.images.rows()) + " images for " +
                     std::to_string(n) + " samples");
  }
}

// "FILE:/data/demo_N/KEY: expected ..." unless dataset `key` has `shape`.
void ExpectShape(const Location& at, const std::string& key, const std::vector<hsize_t>& shape) {
  const std::vector<hsize_t> got = hdf5::DatasetShape(at, key);
  if (got == shape) return;
  auto text = [](const std::vector<hsize_t>& s) {
    std::string t = "(";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + ")";
  };
  throw InputError(at.where + "/" + key + ": expected shape " + text(shape) + " (from the demo's attributes), got " +
                   text(got));
}

DemoTable ReadTable(const Location& at, const std::string& key, std::int64_t rows, int cols) {
  ExpectShape(at, key, {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)});
  return DemoTable{cols, hdf5::ReadDoubles(at, key)};
}

}  // namespace

std::uint64_t DemoBytes(const Demo& demo) {
  std::uint64_t doubles = demo.states.data.size() + demo.actions.data.size() + demo.action_rates.data.size() +
                          demo.rewards.data.size() + demo.dones.data.size() + demo.final_state.size();
  for (const DemoObservation& o : demo.obs) doubles += o.table.data.size();
  return 8 * doubles + demo.images.pixels.size() + demo.scene_text.size();
}

int AppendDemo(const std::string& path, const Demo& demo) {
  CheckDemo(path, demo);
  // Refuse before writing anything rather than fail midway.
  std::error_code ec;
  const fs::path dir = fs::absolute(path).parent_path();
  fs::path existing = dir;
  while (!existing.empty() && !fs::exists(existing, ec)) existing = existing.parent_path();
  const fs::space_info space = fs::space(existing.empty() ? fs::path(".") : existing, ec);
  const std::uint64_t need = DemoBytes(demo) + DemoBytes(demo) / 5 + (1u << 20);
  if (!ec && space.available < need) {
    throw InputError(path + ": not enough disk space: the demo needs about " +
                     FormatNumber(static_cast<double>(need) / 1e6, 3) + " MB, " +
                     FormatNumber(static_cast<double>(space.available) / 1e6, 3) + " MB are free");
  }
  DataFile f = OpenData(fs::exists(path, ec) ? OpenFile(path, true) : CreateFile(path, demo), path);
  const Location& d = f.at;
  int index = 0;
  for (const std::string& name : hdf5::LinkNames(d)) {
    if (std::optional<int> i = DemoIndex(name)) index = std::max(index, *i + 1);
  }
  const std::string name = "demo_" + std::to_string(index);
  try {
    Id group = hdf5::CreateGroup(d, name);
    WriteDemoGroup(Location{group.get(), d.where + "/" + name}, demo);
    group.Reset();
    const std::int64_t total = hdf5::HasAttribute(d, "total") ? hdf5::ReadIntAttribute(d, "total") : 0;
    hdf5::WriteAttribute(d, "total", total + demo.num_samples());
    if (H5Fflush(f.file.get(), H5F_SCOPE_GLOBAL) < 0) throw InputError(path + ": cannot write it (is the disk full?)");
  } catch (const InputError&) {
    // Leave the demos that were there readable.
    H5Ldelete(f.data.get(), name.c_str(), H5P_DEFAULT);
    H5Fflush(f.file.get(), H5F_SCOPE_GLOBAL);
    throw;
  }
  return index;
}

std::vector<DemoFileEntry> ListDemos(const std::string& path) {
  const DataFile f = OpenData(OpenFile(path, false), path);
  const Location& d = f.at;
  std::vector<DemoFileEntry> entries;
  for (const std::string& name : hdf5::LinkNames(d)) {
    const std::optional<int> index = DemoIndex(name);
    if (!index) continue;
    Id group = hdf5::OpenGroup(d, name);
    const Location g{group.get(), d.where + "/" + name};
    DemoFileEntry e;
    e.name = name;
    e.index = *index;
    e.num_samples = hdf5::ReadIntAttribute(g, "num_samples");
    e.success = hdf5::ReadIntAttribute(g, "success") != 0;
    e.reproducible = hdf5::ReadIntAttribute(g, "reproducible") != 0;
    Id obs = hdf5::OpenGroup(g, "obs");
    e.has_images = hdf5::HasLink(Location{obs.get(), g.where + "/obs"}, "agentview_image");
    entries.push_back(e);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  return entries;
}

void WriteDemoImages(const std::string& path, int index, const DemoImages& images) {
  const DataFile f = OpenData(OpenFile(path, true), path);
  const Location& d = f.at;
  const std::string name = "demo_" + std::to_string(index);
  if (!hdf5::HasLink(d, name)) throw InputError(path + ": no " + name);
  Id group = hdf5::OpenGroup(d, name);
  const Location g{group.get(), d.where + "/" + name};
  const std::int64_t n = hdf5::ReadIntAttribute(g, "num_samples");
  if (images.rows() != n || images.pixels.size() != static_cast<std::size_t>(3LL * n * images.width * images.height)) {
    throw InputError(g.where + ": " + std::to_string(images.rows()) + " images for " + std::to_string(n) + " samples");
  }
  Id obs = hdf5::OpenGroup(g, "obs");
  const Location o{obs.get(), g.where + "/obs"};
  if (hdf5::HasLink(o, images.key)) H5Ldelete(obs.get(), images.key.c_str(), H5P_DEFAULT);
  try {
    hdf5::WriteBytes(o, images.key,
                     {static_cast<hsize_t>(n), static_cast<hsize_t>(images.height), static_cast<hsize_t>(images.width), 3},
                     images.pixels.data());
    if (H5Fflush(f.file.get(), H5F_SCOPE_GLOBAL) < 0) throw InputError(path + ": cannot write it (is the disk full?)");
  } catch (const InputError&) {
    H5Ldelete(obs.get(), images.key.c_str(), H5P_DEFAULT);
    throw;
  }
}

std::vector<DemoFileEntry> SelectDemos(const std::string& path, int index, const std::string& option) {
  std::vector<DemoFileEntry> demos = ListDemos(path);
  if (demos.empty()) throw InputError(path + ": the file holds no demos");
  if (index < 0) return demos;
  std::erase_if(demos, [&](const DemoFileEntry& e) { return e.index != index; });
  if (demos.empty()) throw InputError(path + ": no demo_" + std::to_string(index) + " (" + option + ")");
  return demos;
}

Demo ReadDemo(const std::string& path, int index) {
  const DataFile f = OpenData(OpenFile(path, false), path);
  const Location& d = f.at;
  const std::string name = "demo_" + std::to_string(index);
  if (!hdf5::HasLink(d, name)) {
    std::string there;
    for (const std::string& n : hdf5::LinkNames(d)) there += (there.empty() ? "" : ", ") + n;
    throw InputError(path + ": no " + name + " (the file has " + (there.empty() ? "no demos" : there) + ")");
  }
  Id group = hdf5::OpenGroup(d, name);
  const Location g{group.get(), d.where + "/" + name};
  Demo demo;
  const std::int64_t n = hdf5::ReadIntAttribute(g, "num_samples");
  demo.scene_text = hdf5::ReadStringAttribute(g, "model_file");
  demo.scene_path = hdf5::ReadStringAttribute(g, "scene");
  demo.time_step = hdf5::ReadDoubleAttribute(g, "time_step");
  demo.nq = static_cast<int>(hdf5::ReadIntAttribute(g, "nq"));
  demo.nv = static_cast<int>(hdf5::ReadIntAttribute(g, "nv"));
  demo.grippers = hdf5::ReadStringListAttribute(g, "grippers");
  demo.objects = hdf5::ReadStringListAttribute(g, "objects");
  demo.load_overrides = hdf5::ReadStringListAttribute(g, "load_overrides");
  demo.parameters = hdf5::ReadStringListAttribute(g, "parameters");
  demo.success = hdf5::ReadIntAttribute(g, "success") != 0;
  demo.not_reproducible = hdf5::ReadStringAttribute(g, "not_reproducible");
  demo.final_state = hdf5::ReadDoubleListAttribute(g, "final_state");
  if (n < 0 || demo.nq < 0 || demo.nv < 0) throw InputError(g.where + ": negative num_samples, nq or nv");
  const int S = 1 + demo.nq + demo.nv;
  if (demo.final_state.size() != static_cast<std::size_t>(S)) {
    throw InputError(g.where + "/final_state: expected " + std::to_string(S) + " numbers (1 + nq + nv), got " +
                     std::to_string(demo.final_state.size()));
  }
  const int G = static_cast<int>(demo.grippers.size());
  demo.states = ReadTable(g, "states", n, S);
  demo.actions = ReadTable(g, "actions", n, kActionColumnsPerGripper * G);
  demo.action_rates = ReadTable(g, "action_rates", n, kRateColumnsPerGripper * G);
  ExpectShape(g, "rewards", {static_cast<hsize_t>(n)});
  demo.rewards = DemoTable{1, hdf5::ReadDoubles(g, "rewards")};
  ExpectShape(g, "dones", {static_cast<hsize_t>(n)});
  demo.dones = DemoTable{1, hdf5::ReadDoubles(g, "dones")};
  Id obs = hdf5::OpenGroup(g, "obs");
  const Location o{obs.get(), g.where + "/obs"};
  for (const std::string& key : hdf5::LinkNames(o)) {
    const std::vector<hsize_t> shape = hdf5::DatasetShape(o, key);
    if (key == "agentview_image") {
      if (shape.size() != 4 || shape[0] != static_cast<hsize_t>(n) || shape[3] != 3) {
        throw InputError(o.where + "/" + key + ": expected shape (num_samples, height, width, 3)");
      }
      demo.images.height = static_cast<int>(shape[1]);
      demo.images.width = static_cast<int>(shape[2]);
      demo.images.pixels = hdf5::ReadBytes(o, key);
      continue;
    }
    if (shape.size() != 2) throw InputError(o.where + "/" + key + ": expected a table (num_samples, columns)");
    demo.obs.push_back({key, ReadTable(o, key, n, static_cast<int>(shape[1]))});
  }
  return demo;
}

}  // namespace stiction
