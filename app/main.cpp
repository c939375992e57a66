// stiction: the interactive viewer. Parse the arguments, build the App, run
// it; everything else lives in stiction_app_lib (docs/viewer.md).
#include <cstdio>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/benchmark.h"
#include "app/headless_recording.h"
#include "app/record/dataset_images.h"
#include "app/record/termination_signals.h"
#include "engine/common/error.h"

int main(int argc, char** argv) {
  using namespace stiction::app;
  const ParsedOptions parsed = ParseAppOptions(std::vector<std::string>(argv + 1, argv + argc));
  if (parsed.help) {
    std::fputs(AppUsage().c_str(), stdout);
    return 0;
  }
  if (!parsed.error.empty()) {
    std::fprintf(stderr, "stiction: %s\n%s", parsed.error.c_str(), AppUsage().c_str());
    return 2;
  }
  try {
    if (parsed.options.benchmark) return RunBenchmark(parsed.options);
    // From here on SIGINT/SIGTERM finish the video and the command recording
    // before exiting 130/143 (docs/recording-faults.md); the benchmark keeps
    // the default (it records nothing).
    InstallTerminationHandlers();
    if (parsed.options.headless) return RunHeadlessRecording(parsed.options);
    if (!parsed.options.dataset_images_path.empty()) return RunDatasetImages(parsed.options);
    AppOptions options = parsed.options;
    // The interactive viewer remembers its layout; scripted runs
    // (--headless-frames) neither depend on nor change it.
    if (options.headless_frames == 0) options.settings_path = DefaultViewerSettingsPath();
    App app(options);
    return app.Run();
  } catch (const WindowError& e) {
    std::fprintf(stderr, "stiction: %s\n", e.what());
  } catch (const ShaderError& e) {
    std::fprintf(stderr, "stiction: %s\n", e.what());
  } catch (const stiction::InputError& e) {
    std::fprintf(stderr, "stiction: %s\n", e.what());
  }
  return 1;
}
