#include "app/record/dataset_images.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "app/app.h"
#include "cli/progress_bar.h"
#include "engine/common/error.h"
#include "engine/dataset/demo_file.h"

namespace stiction::app {
namespace {

// The demo's images, rendered by `app` (on the demo's scene).
DemoImages RenderDemo(App& app, const Demo& demo, int width, int height, cli::ProgressBar* progress) {
  DemoImages images;
  images.width = width;
  images.height = height;
  const std::size_t row_bytes = 3 * static_cast<std::size_t>(width);
  images.pixels.reserve(row_bytes * height * static_cast<std::size_t>(demo.num_samples()));
  const double duration = static_cast<double>(demo.num_samples()) * demo.time_step;
  for (std::int64_t k = 0; k < demo.num_samples(); ++k) {
    const double* row = demo.states.row(k);
    const VectorX q = Eigen::Map<const VectorX>(row + 1, demo.nq);
    const VectorX v = Eigen::Map<const VectorX>(row + 1 + demo.nq, demo.nv);
    app.ShowState(q, v, row[0]);
    const std::vector<std::uint8_t> rgb = app.RenderImage(width, height);
    // Bottom row first from OpenGL; top row first in the dataset.
    for (int y = height - 1; y >= 0; --y) {
      const auto* line = rgb.data() + static_cast<std::size_t>(y) * row_bytes;
      images.pixels.insert(images.pixels.end(), line, line + row_bytes);
    }
    progress->Update(static_cast<double>(k + 1) * demo.time_step, duration, k + 1);
  }
  progress->Clear();
  return images;
}

}  // namespace

int RunDatasetImages(const AppOptions& options) {
  const std::string& path = options.dataset_images_path;
  try {
    const std::vector<DemoFileEntry> demos = SelectDemos(path, options.dataset_demo, "--demo");
    std::unique_ptr<App> app;  // One per scene: demos of one scene share it.
    std::string app_scene;
    for (const DemoFileEntry& entry : demos) {
      const Demo demo = ReadDemo(path, entry.index);
      if (!app || app_scene != demo.scene_path) {
        AppOptions o = HiddenWindowOptions(options);
        o.scene_path = demo.scene_path;
        o.paused = true;
        o.timeline = false;
        app.reset();
        app = std::make_unique<App>(o);
        app->ui().viz.contact_points = false;  // The scene as a camera sees it.
        app_scene = demo.scene_path;
      }
      if (app->simulation().positions().size() != demo.nq || app->simulation().velocities().size() != demo.nv) {
        throw InputError(demo.scene_path + ": its state does not have the demo's layout (nq = " +
                         std::to_string(demo.nq) + ", nv = " + std::to_string(demo.nv) + ")");
      }
      cli::ProgressBar progress(std::cerr, cli::StderrCanShowProgress(), STDERR_FILENO);
      const DemoImages images = RenderDemo(*app, demo, options.width, options.height, &progress);
      WriteDemoImages(path, entry.index, images);
      std::printf("stiction: %s: %lld images of %dx%d written to %s (%.3g MB uncompressed)\n", entry.name.c_str(),
                  static_cast<long long>(images.rows()), images.width, images.height, path.c_str(),
                  static_cast<double>(images.pixels.size()) / 1e6);
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "stiction: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace stiction::app
