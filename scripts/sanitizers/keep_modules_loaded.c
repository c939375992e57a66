/* Preloaded by scripts/sanitize.sh asan into every process the tests start
 * (docs/sanitizers.md, "Leaks in unloaded modules").
 *
 * LeakSanitizer runs at exit and names each leaked block by the module that
 * allocated it. GLFW dlopens libGL at glfwInit and dlcloses it at
 * glfwTerminate, and with it the Mesa driver (swrast_dri.so, llvmpipe): the
 * blocks the driver still held were then reported as leaks with stacks of
 * "<unknown module>" frames, which no suppression can match. This dlclose
 * leaves every module loaded: the driver's globals still point at its
 * blocks, LSan finds them reachable, and every leak in Stiction's own code
 * is still reported.
 *
 * Built by the script with the plain system compiler, without sanitizers:
 * it is preloaded into uninstrumented programs too (ctest, xvfb-run, Xvfb,
 * ffmpeg), where it changes nothing but module unloading.
 */
int dlclose(void *handle) {
  (void)handle;
  return 0;
}
