/* Preloaded by scripts/sanitize.sh asan into every process the tests start
 * (docs/sanitizers.md, "Leaks in unloaded modules").
 *
 * LeakSanitizer runs at exit and names each leaked block by the module that
 * allocated it. GLFW dlopens libGL at glfwInit and dlcloses it at
 * glfwTerminate, and with it the Mesa driver (swrast_dri.so, llvmpipe): a
 * block the driver leaked then has a stack of "<unknown module>" frames,
 * which no suppression can match. This dlclose leaves every module loaded,
 * so the report names the driver and lsan.supp can suppress it by module
 * while every leak in Stiction's own code is still reported.
 *
 * Built by the script with the plain system compiler, without sanitizers:
 * it is preloaded into uninstrumented programs too (ctest, xvfb-run, Xvfb,
 * ffmpeg), where it changes nothing but module unloading.
 */
int dlclose(void *handle) {
  (void)handle;
  return 0;
}
