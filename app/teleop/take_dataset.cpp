#include "app/teleop/take_dataset.h"

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/dataset/demo_file.h"

namespace stiction::app {

void TakeDataset::Begin(const Simulation& sim, const SceneGripper& grippers, const std::string& scene_path,
                        const SceneParameters& loaded) {
  if (held_) {
    ui_.Info(StringPrintf("the last take (%.2f s) was neither kept nor discarded: dropped",
                          static_cast<double>(held_->num_samples()) * held_->time_step));
    held_.reset();
  }
  try {
    sampler_.Begin(sim, grippers, scene_path, {}, loaded);
  } catch (const InputError& e) {
    ui_.Error(std::string("this take cannot become a demo: ") + e.what());
  }
}

void TakeDataset::End() {
  if (!sampler_.active()) return;
  held_ = sampler_.Finish(false);
  if (held_->num_samples() == 0) held_.reset();
}

bool TakeDataset::Keep(const std::string& path, bool success) {
  if (!held_) {
    ui_.Error("no take to keep (Record, teleoperate, Stop)");
    return false;
  }
  if (path.empty()) {
    ui_.Error("dataset: give the file to keep the take in");
    return false;
  }
  Demo& demo = *held_;
  SetDemoOutcome(&demo, success);
  const std::int64_t n = demo.num_samples();
  int index = 0;
  try {
    index = AppendDemo(path, demo);
  } catch (const InputError& e) {
    ui_.Error(std::string(e.what()) + " (the take is still held: Keep again with another file)");
    return false;
  }
  ++kept_;
  last_file_ = path;
  ui_.Info(StringPrintf("kept the take as demo_%d of %s (%.2f s, %s%s)", index, path.c_str(),
                        static_cast<double>(n) * demo.time_step, success ? "success" : "failure",
                        demo.not_reproducible.empty() ? "" : "; not reproducible from its actions"));
  held_.reset();
  return true;
}

void TakeDataset::Discard() {
  if (!held_) return;
  ui_.Info(StringPrintf("discarded the take (%.2f s)", static_cast<double>(held_->num_samples()) * held_->time_step));
  held_.reset();
}

}  // namespace stiction::app
