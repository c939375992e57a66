// The module stiction._glrender (wrapped by python/stiction/_render.py): the
// viewer's renderer in a hidden window, for images and videos of the states
// a stiction.Simulation computes (docs/python.md, "Images and video"). A
// module of its own so that `import stiction` never loads OpenGL, GLFW or
// Dear ImGui; it links the viewer's library (app/).
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "app/render/camera.h"
#include "engine/common/error.h"
#include "python/py_renderer.h"

namespace py = pybind11;
using stiction::VectorX;
using stiction::python::PyRenderer;
using stiction::python::RendererOptions;
using stiction::python::VideoRequest;

namespace {

// A (height, width, 3) uint8 array that owns its pixels.
py::array_t<std::uint8_t> ImageArray(std::vector<std::uint8_t> rgb, int width, int height) {
  auto* data = new std::vector<std::uint8_t>(std::move(rgb));
  py::capsule owner(data, [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); });
  return py::array_t<std::uint8_t>({height, width, 3}, data->data(), owner);
}

py::dict CameraDict(PyRenderer& r) {
  const stiction::app::Camera& c = r.camera();
  py::dict d;
  d["lookat"] = py::make_tuple(c.lookat.x(), c.lookat.y(), c.lookat.z());
  d["distance"] = c.distance;
  d["azimuth"] = c.azimuth_deg;
  d["elevation"] = c.elevation_deg;
  d["fovy"] = c.fovy_deg;
  d["track"] = r.tracked();
  return d;
}

float Checked(const char* name, double value, double lo, double hi) {
  if (!std::isfinite(value) || value < lo || value > hi) {
    throw stiction::InputError(std::string("camera ") + name + ": expected a number in [" + std::to_string(lo) +
                               ", " + std::to_string(hi) + "], got " + std::to_string(value));
  }
  return static_cast<float>(value);
}

void SetCamera(PyRenderer& r, py::object lookat, py::object distance, py::object azimuth, py::object elevation,
               py::object fovy) {
  stiction::app::Camera c = r.camera();
  if (!lookat.is_none()) {
    const auto p = lookat.cast<std::vector<double>>();
    if (p.size() != 3) throw stiction::InputError("camera lookat: expected (x, y, z) [m]");
    for (int i = 0; i < 3; ++i) c.lookat[i] = Checked("lookat", p[i], -1e6, 1e6);
  }
  if (!distance.is_none()) c.distance = Checked("distance", distance.cast<double>(), 1e-3, 1e6);
  if (!azimuth.is_none()) c.azimuth_deg = Checked("azimuth", azimuth.cast<double>(), -1e4, 1e4);
  if (!elevation.is_none()) c.elevation_deg = Checked("elevation", elevation.cast<double>(), -90, 90);
  if (!fovy.is_none()) c.fovy_deg = Checked("fovy", fovy.cast<double>(), 1, 170);
  r.TakeOverCamera();  // A camera set by hand is not overridden by the scene's script.
  r.camera() = c;
}

}  // namespace

PYBIND11_MODULE(_glrender, m) {
  m.doc() = "The viewer's renderer for stiction.Renderer and stiction.VideoWriter (docs/python.md)";
  // The engine's InputError raises stiction.InputError, the class that
  // stiction._stiction made (this module's engine is a copy of its own, so
  // that module's translator does not see these).
  static py::handle input_error = py::module_::import("stiction._stiction").attr("InputError").cast<py::object>().release();
  // stiction.RenderError is a Python class (stiction/_display.py), so that
  // `import stiction` names it without loading this module.
  static py::handle render_error = py::module_::import("stiction._display").attr("RenderError").cast<py::object>().release();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const stiction::python::RenderError& e) {
      PyErr_SetString(render_error.ptr(), e.what());
    } catch (const stiction::InputError& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    }
  });
  py::class_<PyRenderer>(m, "Renderer")
      .def(py::init([](const std::string& scene, std::vector<std::string> overrides, const std::string& base_dir,
                       int width, int height, bool contact_points) {
             RendererOptions o;
             o.scene = scene;
             o.overrides = std::move(overrides);
             o.base_dir = base_dir;
             o.width = width;
             o.height = height;
             o.contact_points = contact_points;
             return new PyRenderer(o);
           }),
           py::arg("scene"), py::arg("overrides"), py::arg("base_dir"), py::arg("width"), py::arg("height"),
           py::arg("contact_points"))
      .def_property_readonly("width", &PyRenderer::width)
      .def_property_readonly("height", &PyRenderer::height)
      .def("render",
           [](PyRenderer& r, const VectorX& q, const VectorX& v, double t) {
             return ImageArray(r.Render(q, v, t), r.width(), r.height());
           })
      .def("camera", &CameraDict)
      .def("set_camera", &SetCamera, py::arg("lookat") = py::none(), py::arg("distance") = py::none(),
           py::arg("azimuth") = py::none(), py::arg("elevation") = py::none(), py::arg("fovy") = py::none())
      .def("track", &PyRenderer::Track)
      .def("start_video",
           [](PyRenderer& r, const std::string& path, double fps, int width, int height, const std::string& overlay,
              const std::string& caption, const VectorX& q, const VectorX& v, double t) {
             VideoRequest req;
             req.path = path;
             req.fps = fps;
             req.width = width;
             req.height = height;
             req.overlay = overlay;
             req.caption = caption;
             r.StartVideo(req, q, v, t);
           })
      .def("capture_video", &PyRenderer::CaptureVideo)
      .def("stop_video", &PyRenderer::StopVideo)
      .def_property_readonly("recording", &PyRenderer::recording)
      .def_property_readonly("frames_written", &PyRenderer::frames_written)
      .def_property_readonly("video_path", &PyRenderer::video_path);
}
