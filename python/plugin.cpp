// The Python module `iosim`, its SimGrid plugin face (include/iosim/plugin.h, docs/library.md "Python"): a Python s4u
// program (python3-simgrid) initialises the plugin once its platform is loaded, declares its applications, and its
// actors post their I/O operations through them. The calls that block an actor release the GIL while they wait, as
// python3-simgrid's own blocking calls do: SimGrid runs Python actors on threads of their own, and the engine's step
// (in SimGrid's maestro) may call a sharing policy written in Python, which takes the GIL.
#include "iosim/plugin.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace {

py::object error_type; // iosim.Error when module.cpp defined it, else RuntimeError

[[noreturn]] void raise() {
  PyErr_SetString(error_type.ptr(), iosim_plugin_error());
  throw py::error_already_set();
}

// Runs a plugin call that may block the calling actor without the GIL; raises iosim.Error on failure.
template <typename F> void blocking(F call) {
  int rc;
  {
    py::gil_scoped_release nogil;
    rc = call();
  }
  if (rc != IOSIM_PLUGIN_OK) raise();
}

// An application declared to the plugin (the plugin owns it for the life of the process).
struct App {
  iosim_app_t *app;
  std::string name;
  int nodes;

  void begin(const std::vector<std::string> &hosts) {
    if ((int)hosts.size() != nodes) {
      PyErr_SetString(error_type.ptr(), (name + ": " + std::to_string(hosts.size()) + " hosts given for its " +
                                         std::to_string(nodes) + " nodes: give one compute host per node")
                                            .c_str());
      throw py::error_already_set();
    }
    std::vector<const char *> names;
    for (const auto &h : hosts)
      names.push_back(h.c_str());
    names.push_back(nullptr);
    blocking([&] { return iosim_app_begin(app, names.data()); });
  }
  void write(double bytes) {
    blocking([&] { return iosim_app_write(app, bytes); });
  }
  void read(double bytes) {
    blocking([&] { return iosim_app_read(app, bytes); });
  }
  void end() {
    blocking([&] { return iosim_app_end(app); });
  }
  double metric(const std::string &metric_name) const {
    double v;
    if (iosim_app_metric(app, metric_name.c_str(), &v) != IOSIM_PLUGIN_OK) raise();
    return v;
  }
};

void plugin_init(const py::object &config) {
  std::string text;
  if (config.is_none())
    text = "{}";
  else if (py::isinstance<py::str>(config))
    text = config.cast<std::string>();
  else
    text = py::module_::import("json").attr("dumps")(config).cast<std::string>();
  if (iosim_plugin_init(text.c_str()) != IOSIM_PLUGIN_OK) raise();
}

App app_declare(const std::string &name, int nodes, double volume, double work) {
  iosim_app_t *a = iosim_app_declare(name.c_str(), nodes, volume, work);
  if (a == nullptr) raise();
  return App{a, name, nodes};
}

void plugin_finish() {
  if (iosim_plugin_finish() != IOSIM_PLUGIN_OK) raise();
}

double plugin_metric(const std::string &name) {
  double v;
  if (iosim_plugin_metric(name.c_str(), &v) != IOSIM_PLUGIN_OK) raise();
  return v;
}

} // namespace

void iosim_py_add_plugin(py::module_ &m) {
  error_type =
      py::hasattr(m, "Error") ? py::object(m.attr("Error")) : py::reinterpret_borrow<py::object>(PyExc_RuntimeError);
  py::class_<App>(m, "App", "An application declared to the SimGrid plugin (iosim.app_declare).")
      .def_readonly("name", &App::name)
      .def("begin", &App::begin, py::arg("hosts"),
           "From an actor: the application begins now on these compute hosts (names), one per node.")
      .def("write", &App::write, py::arg("bytes"),
           "From an actor: one I/O operation writing `bytes`, over the application's I/O resources; blocks the "
           "actor until it completes.")
      .def("read", &App::read, py::arg("bytes"), "From an actor: one I/O operation reading `bytes` (see write).")
      .def("end", &App::end, "From an actor: the application ends now; its resources go back to the pool.")
      .def("metric", &App::metric, py::arg("name"),
           "Once the simulation has ended (results are collected then; plugin_finish is optional): one of its results "
           "by its apps.csv name (start_s, end_s, io_time_s, ...).");
  m.def("plugin_init", &plugin_init, py::arg("config") = py::none(),
        "iosim's I/O controller in this Python SimGrid simulation: call it once the platform is loaded, before "
        "running. `config`: a dict or JSON text written as a scenario without platform and workload (policies, "
        "seed, knowledge, platform_roles, output.dir).");
  m.def("app_declare", &app_declare, py::arg("name"), py::arg("nodes"), py::arg("volume") = 0.0, py::arg("work") = 0.0,
        "Declares an application before the simulation runs: its node count, and the total I/O volume (bytes) and "
        "compute time (s) the allocation policies know of it (0: unknown).");
  m.def("plugin_finish", &plugin_finish,
        "Optional, after the simulation: the run's status (results are collected when the simulation ends; outputs "
        "written).");
  m.def(
      "plugin_metric", &plugin_metric, py::arg("name"),
      "Once the simulation has ended: one global metric by its results.json name (makespan_s, total_io_time_s, ...).");
}
