// The Python module `iosim` (docs/library.md, "Python"): libiosim's policy and scenario faces for Python, over the
// public C API only (include/iosim/*.h). Plain Python values in and out: lists, tuples, dicts, floats; numpy arrays
// for iosim.share_batch only (numpy imported when it is called).
// Another source file of python/ may add a face to the same module by defining iosim_py_add_plugin (the SimGrid plugin
// face): module.cpp calls it when it is linked in.
#include "iosim/iosim.h"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <pthread.h>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

// Defined by the plugin face's source file when there is one (python/plugin*.cpp).
void iosim_py_add_plugin(py::module_ &m) __attribute__((weak));

namespace {

struct Error {}; // the Python exception iosim.Error, registered below
py::object error_type;

[[noreturn]] void raise() {
  PyErr_SetString(error_type.ptr(), iosim_error());
  throw py::error_already_set();
}

int check(int rc) {
  if (rc < 0) raise();
  return rc;
}

template <typename T> T *check(T *p) {
  if (p == nullptr) raise();
  return p;
}

const iosim_policy_t *policy_of(const std::string &family, const std::string &name) {
  return check(iosim_policy_find(check(iosim_family_find(family.c_str())), name.c_str()));
}

// Parameter values of `policy` from a dict {name: number or text}.
struct Params {
  iosim_params_t *p;
  Params(const iosim_policy_t *policy, const py::dict &values) : p(check(iosim_params_new(policy))) {
    for (auto item : values) {
      std::string name = py::str(item.first);
      if (py::isinstance<py::str>(item.second)) {
        if (iosim_params_parse(p, name.c_str(), item.second.cast<std::string>().c_str()) < 0) fail();
      } else if (py::isinstance<py::bool_>(item.second) ||
                 !(py::isinstance<py::int_>(item.second) || py::isinstance<py::float_>(item.second))) {
        iosim_params_free(p);
        p = nullptr;
        PyErr_SetString(error_type.ptr(), ("parameter '" + name + "' = " + std::string(py::repr(item.second)) +
                                           " of policy '" + iosim_policy_name(policy) +
                                           "': give a number, or a text with its unit (e.g. \"5min\", \"1.2GiB/s\")")
                                              .c_str());
        throw py::error_already_set();
      } else if (iosim_params_set(p, name.c_str(), item.second.cast<double>()) < 0) {
        fail();
      }
    }
  }
  [[noreturn]] void fail() {
    iosim_params_free(p);
    p = nullptr;
    raise();
  }
  ~Params() { iosim_params_free(p); }
};

py::list policies(const std::string &family) {
  int f = check(iosim_family_find(family.c_str()));
  py::list out;
  for (int i = 0; i < check(iosim_policy_count(f)); i++) {
    const iosim_policy_t *p = iosim_policy_at(f, i);
    py::list params;
    for (int k = 0; k < iosim_policy_param_count(p); k++) {
      double lo, hi;
      int integer;
      iosim_policy_param_range(p, k, &lo, &hi, &integer);
      params.append(py::dict(py::arg("name") = iosim_policy_param_name(p, k),
                             py::arg("default") = iosim_policy_param_default(p, k),
                             py::arg("unit") = iosim_policy_param_unit(p, k),
                             py::arg("description") = iosim_policy_param_description(p, k), py::arg("lo") = lo,
                             py::arg("hi") = hi, py::arg("integer") = integer != 0));
    }
    const char *alias = iosim_policy_alias(p);
    out.append(py::dict(py::arg("name") = iosim_policy_name(p),
                        py::arg("alias") = alias != nullptr ? py::object(py::str(alias)) : py::object(py::none()),
                        py::arg("description") = iosim_policy_description(p),
                        py::arg("source") = iosim_policy_source(p), py::arg("params") = params));
  }
  return out;
}

[[noreturn]] void fail(const std::string &msg) {
  PyErr_SetString(error_type.ptr(), msg.c_str());
  throw py::error_already_set();
}

// An application's field read as a number (a Python int or float, not a bool), else iosim.Error naming the call, the
// application, the field, the value and the fix.
double app_number(const char *fn, size_t j, const py::handle &v, const char *field, const char *example) {
  if (py::isinstance<py::bool_>(v) || !(py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)))
    fail(std::string("iosim.") + fn + ": apps[" + std::to_string(j) + "]['" + field +
         "'] = " + std::string(py::repr(v)) + ": give a number, e.g. " + example);
  return v.cast<double>();
}

// Checks the application dicts of iosim.allocate and iosim.place: each a dict of the known keys, with nodes and
// profile; else iosim.Error naming the call, the application, the key and the fix.
void check_apps(const char *fn, const py::list &apps) {
  static const char *const keys[] = {"nodes", "volume", "work", "profile", "requested_n", "processes"};
  size_t j = 0;
  for (auto item : apps) {
    std::string where = std::string("iosim.") + fn + ": apps[" + std::to_string(j) + "]";
    if (!py::isinstance<py::dict>(item))
      fail(where + " = " + std::string(py::repr(item)) +
           ": give a dict {\"nodes\": Q_j, \"volume\": bytes, \"work\": s, \"profile\": {n: bytes/s}}");
    py::dict a = item.cast<py::dict>();
    for (auto kv : a) {
      std::string key = py::str(kv.first);
      if (std::find_if(std::begin(keys), std::end(keys), [&](const char *k) { return key == k; }) == std::end(keys))
        fail(where + ": unknown key '" + key +
             "': the keys are nodes, volume, work, profile (required: nodes, profile), requested_n, processes");
    }
    for (const char *need : {"nodes", "profile"})
      if (!a.contains(need))
        fail(where + ": no '" + need + "': give " +
             (std::string(need) == "nodes" ? "its compute node count Q_j, e.g. \"nodes\": 16"
                                           : "its bandwidth profile b_j(n) in bytes/s, e.g. \"profile\": {1: 4e8, 2: "
                                             "7.5e8, 4: 1.4e9} (RR-9549 §3.2.1)"));
    app_number(fn, j, a["nodes"], "nodes", "16");
    for (const char *k : {"volume", "work", "requested_n", "processes"})
      if (a.contains(k)) app_number(fn, j, a[k], k, "0");
    if (!py::isinstance<py::dict>(a["profile"]) || py::len(a["profile"]) == 0)
      fail(where + "['profile'] = " + std::string(py::repr(a["profile"])) +
           ": give a non-empty dict {n: bytes/s}, e.g. {1: 4e8, 2: 7.5e8, 4: 1.4e9}");
    for (auto pt : a["profile"].cast<py::dict>()) {
      std::string key = py::str(pt.first);
      bool integer = py::isinstance<py::int_>(pt.first) && !py::isinstance<py::bool_>(pt.first);
      if (py::isinstance<py::str>(pt.first)) // {"1": 4e8}, as json.load gives it
        integer = !key.empty() && key.size() < 10 && std::all_of(key.begin(), key.end(), ::isdigit);
      if (!integer)
        fail(where + "['profile']: key " + std::string(py::repr(pt.first)) +
             ": give resource counts n as ints (or their text), e.g. {1: 4e8, 2: 7.5e8}");
      app_number(fn, j, pt.second, "profile", "{1: 4e8}");
    }
    j++;
  }
}

// A pool from capacities, the machine's node count and applications given as dicts: nodes, volume (bytes), work (s),
// profile {n: bytes/s}, and optionally requested_n and processes (checked first by check_apps).
std::unique_ptr<iosim_pool_t, void (*)(iosim_pool_t *)> make_pool(const std::vector<double> &capacity, int total_nodes,
                                                                  const py::list &apps) {
  std::unique_ptr<iosim_pool_t, void (*)(iosim_pool_t *)> pool(
      check(iosim_pool_new((int)capacity.size(), capacity.data(), total_nodes)), iosim_pool_free);
  for (auto item : apps) {
    py::dict a = item.cast<py::dict>();
    std::vector<std::pair<int, double>> points;
    for (auto pt : a["profile"].cast<py::dict>())
      points.emplace_back(py::int_(py::str(pt.first)).cast<int>(), pt.second.cast<double>());
    std::sort(points.begin(), points.end());
    std::vector<int> n;
    std::vector<double> bw;
    for (auto &pt : points) {
      n.push_back(pt.first);
      bw.push_back(pt.second);
    }
    int j = check(
        iosim_pool_add_app(pool.get(), a["nodes"].cast<int>(), a.contains("volume") ? a["volume"].cast<double>() : 0,
                           a.contains("work") ? a["work"].cast<double>() : 0, (int)n.size(), n.data(), bw.data()));
    check(iosim_pool_set_app(pool.get(), j, a.contains("requested_n") ? a["requested_n"].cast<int>() : -1,
                             a.contains("processes") ? a["processes"].cast<int>() : 0));
  }
  return pool;
}

std::vector<int> allocate(const std::string &policy, const std::vector<double> &capacity, int total_nodes,
                          const py::list &apps, const py::dict &params, uint64_t seed) {
  const iosim_policy_t *p = policy_of("allocation", policy);
  Params v(p, params);
  check_apps("allocate", apps);
  auto pool = make_pool(capacity, total_nodes, apps);
  std::unique_ptr<iosim_rng_t, void (*)(iosim_rng_t *)> rng(check(iosim_rng_new(seed, IOSIM_STREAM_ALLOCATION)),
                                                            iosim_rng_free);
  std::vector<int> n(py::len(apps));
  check(iosim_allocate(p, v.p, pool.get(), rng.get(), n.data()));
  return n;
}

std::vector<std::vector<int>> place(const std::string &policy, const std::vector<double> &capacity, int total_nodes,
                                    const py::list &apps, const std::vector<int> &counts, const py::dict &params,
                                    uint64_t seed) {
  const iosim_policy_t *p = policy_of("placement", policy);
  Params v(p, params);
  check_apps("place", apps);
  auto pool = make_pool(capacity, total_nodes, apps);
  if (counts.size() != py::len(apps)) {
    PyErr_SetString(error_type.ptr(), "place: give one count per application");
    throw py::error_already_set();
  }
  std::unique_ptr<iosim_rng_t, void (*)(iosim_rng_t *)> rng(check(iosim_rng_new(seed, IOSIM_STREAM_PLACEMENT)),
                                                            iosim_rng_free);
  size_t total = 0;
  for (int c : counts)
    total += c > 0 ? (size_t)c : 0;
  std::vector<int> res(total + 1);
  check(iosim_place(p, v.p, pool.get(), counts.data(), rng.get(), res.data()));
  std::vector<std::vector<int>> out;
  size_t off = 0;
  for (int c : counts) {
    out.emplace_back(res.begin() + (long)off, res.begin() + (long)off + c);
    off += (size_t)c;
  }
  return out;
}

// The transfer view's fields (iosim/transfer_view.h, listed in id order): their names, comma-separated, and which
// are integers.
#define IOSIM_PY_NAME(ID, name, ctype, integer, lo, open, nan, def) ", " #name
const std::string field_list = std::string(IOSIM_TRANSFER_VIEW_FIELDS(IOSIM_PY_NAME)).substr(2);
#undef IOSIM_PY_NAME
#define IOSIM_PY_INTEGER(ID, name, ctype, integer, lo, open, nan, def) integer != 0,
const bool field_integer[IOSIM_T_NFIELDS] = {IOSIM_TRANSFER_VIEW_FIELDS(IOSIM_PY_INTEGER)};
#undef IOSIM_PY_INTEGER
const std::string share_doc = "One sharing decision on a resource of `capacity` bytes/s: the rate (bytes/s) of each "
                              "transfer (dicts with the fields " +
                              field_list +
                              "). A policy that leaves the share to SimGrid's max-min (maxmin) returns the "
                              "caps, which may sum above the capacity: iosim.UncappedWarning then says so, "
                              "with the max-min rates on this resource alone.";

// A share view from a list of transfer dicts (keys: iosim_transfer_field_name's; missing ones at their defaults).
std::unique_ptr<iosim_share_view_t, void (*)(iosim_share_view_t *)>
make_view(double capacity, const py::list &transfers, double now, py::object window) {
  std::unique_ptr<iosim_share_view_t, void (*)(iosim_share_view_t *)> view(
      check(iosim_share_view_new(now, capacity, (int)py::len(transfers))), iosim_share_view_free);
  int i = 0;
  for (auto item : transfers) {
    for (auto kv : item.cast<py::dict>()) {
      std::string key = py::str(kv.first);
      int f = 0;
      while (f < IOSIM_T_NFIELDS && key != iosim_transfer_field_name(f))
        f++;
      if (f == IOSIM_T_NFIELDS) {
        std::string msg =
            "transfer " + std::to_string(i) + ": unknown field '" + key + "': the fields are " + field_list;
        PyErr_SetString(error_type.ptr(), msg.c_str());
        throw py::error_already_set();
      }
      check(iosim_share_view_set(view.get(), i, f, kv.second.cast<double>()));
    }
    i++;
  }
  if (!window.is_none()) {
    auto w = window.cast<std::pair<double, double>>();
    check(iosim_share_view_set_window(view.get(), w.first, w.second));
  }
  return view;
}

std::vector<double> share(const std::string &policy, double capacity, const py::list &transfers, double now,
                          py::object window, const py::dict &params) {
  const iosim_policy_t *p = policy_of("sharing", policy);
  Params v(p, params);
  auto view = make_view(capacity, transfers, now, window);
  std::vector<double> rates(py::len(transfers));
  check(iosim_share(p, v.p, view.get(), rates.data()));
  return rates;
}

// One array argument of iosim.share_batch as a float64 array broadcast to `shape` (V, T): a scalar, [T] (a value
// per transfer, the same in every view), [V, 1] or [V, T]; `per_view` (capacity, parameters): a scalar or [V], a
// value per view. Read-only, possibly with zero strides (numpy.broadcast_to).
py::array_t<double> batch_array(const py::object &np, const std::string &what, const py::object &value,
                                const py::tuple &shape, bool per_view) {
  py::object a;
  try {
    a = np.attr("asarray")(value, py::arg("dtype") = np.attr("float64"));
    if (per_view && py::len(a.attr("shape")) == 1) a = a.attr("reshape")(-1, 1);
    a = np.attr("broadcast_to")(a, shape);
  } catch (py::error_already_set &e) {
    fail("iosim.share_batch: " + what + ": " + std::string(py::str(e.value())) +
         "; fix: give a number or an array of " + (per_view ? "one value per view [V]" : "shape [T] or [V, T]") +
         " (V views of T transfers)");
  }
  return a.cast<py::array_t<double>>();
}

// iosim.share_batch: iosim_share on V views of T transfers each (see the binding's doc below). The view is built once
// and refilled: a new one only when the capacity changes from one view to the next, a parameter set again only when
// its value changes, so a batch ordered by capacity and parameters pays for those once.
py::array_t<double> share_batch(const std::string &policy, py::object capacity, const py::dict &transfers,
                                const py::dict &params, double now, py::object window) {
  const iosim_policy_t *p = policy_of("sharing", policy);
  py::object np = py::module_::import("numpy");
  // the batch's shape: every array broadcast together, per-view ones as a column
  py::list shapes;
  auto shape_of = [&](const std::string &what, const py::object &v, bool per_view) {
    py::object a;
    try {
      a = np.attr("asarray")(v, py::arg("dtype") = np.attr("float64"));
    } catch (py::error_already_set &e) {
      fail("iosim.share_batch: " + what + " = " + std::string(py::repr(v)) + ": not numbers (" +
           std::string(py::str(e.value())) + "); fix: give a number or a numpy array");
    }
    size_t nd = py::len(a.attr("shape"));
    if (nd > 2 || (per_view && nd > 1))
      fail("iosim.share_batch: " + what + " has " + std::to_string(nd) + " dimensions; fix: give " +
           (per_view ? "a number or one value per view [V]" : "a number, [T] or [V, T]"));
    shapes.append(per_view && nd == 1 ? py::tuple(py::make_tuple(py::len(a), 1)) : py::tuple(a.attr("shape")));
  };
  shape_of("capacity", capacity, true);
  std::vector<std::pair<int, py::object>> fields;
  for (auto kv : transfers) {
    std::string key = py::str(kv.first);
    int f = 0;
    while (f < IOSIM_T_NFIELDS && key != iosim_transfer_field_name(f))
      f++;
    if (f == IOSIM_T_NFIELDS) fail("iosim.share_batch: unknown field '" + key + "': the fields are " + field_list);
    shape_of("transfers['" + key + "']", py::reinterpret_borrow<py::object>(kv.second), false);
    fields.emplace_back(f, py::reinterpret_borrow<py::object>(kv.second));
  }
  std::vector<std::pair<std::string, py::object>> pvals;
  for (auto kv : params) {
    std::string name = py::str(kv.first);
    check(iosim_policy_param_find(p, name.c_str())); // an unknown parameter: iosim.Error listing the policy's
    shape_of("params['" + name + "']", py::reinterpret_borrow<py::object>(kv.second), true);
    pvals.emplace_back(name, py::reinterpret_borrow<py::object>(kv.second));
  }
  py::tuple shape;
  try {
    shape = np.attr("broadcast_shapes")(*shapes);
  } catch (py::error_already_set &e) {
    fail("iosim.share_batch: the arrays do not broadcast together (" + std::string(py::str(e.value())) +
         "); fix: capacity and params [V], the transfers' fields [T] or [V, T]");
  }
  while (py::len(shape) < 2)
    shape = py::tuple(py::make_tuple(1) + shape);
  const py::ssize_t nv = shape[0].cast<py::ssize_t>(), nt = shape[1].cast<py::ssize_t>();
  if (nt < 1) fail("iosim.share_batch: views of 0 transfers; fix: give each field one value per transfer");
  if (!window.is_none()) window.cast<std::pair<double, double>>(); // a bad window: TypeError before any decision
  auto cap = batch_array(np, "capacity", capacity, shape, true);
  std::vector<std::pair<int, py::array_t<double>>> fa;
  for (auto &f : fields)
    fa.emplace_back(f.first, batch_array(np, "transfers['" + std::string(iosim_transfer_field_name(f.first)) + "']",
                                         f.second, shape, false));
  std::vector<std::pair<std::string, py::array_t<double>>> pa;
  for (auto &v : pvals)
    pa.emplace_back(v.first, batch_array(np, "params['" + v.first + "']", v.second, shape, true));
  py::array_t<double> out({nv, nt});
  auto o = out.mutable_unchecked<2>();
  auto c = cap.unchecked<2>();
  std::unique_ptr<iosim_params_t, void (*)(iosim_params_t *)> values(check(iosim_params_new(p)), iosim_params_free);
  std::unique_ptr<iosim_share_view_t, void (*)(iosim_share_view_t *)> view(nullptr, iosim_share_view_free);
  std::vector<double> last(pa.size(), NAN);
  std::vector<double> rates((size_t)nt);
  double last_cap = NAN;
  auto at = [&](py::ssize_t v, int rc) {
    if (rc < 0)
      fail("iosim.share_batch: view " + std::to_string(v) + ": " + iosim_error() +
           "; fix: give every view values the policy accepts (NaN rows can be left out with a mask)");
  };
  std::vector<py::detail::unchecked_reference<double, 2>> fr, pr; // the arrays' accessors, made once
  for (auto &f : fa)
    fr.push_back(f.second.unchecked<2>());
  for (auto &v : pa)
    pr.push_back(v.second.unchecked<2>());
  for (py::ssize_t v = 0; v < nv; v++) {
    if (!(c(v, 0) == last_cap)) { // a new capacity: a new view, its fields at their defaults
      view.reset(iosim_share_view_new(now, c(v, 0), (int)nt));
      at(v, view ? 0 : -1);
      if (!window.is_none()) {
        auto w = window.cast<std::pair<double, double>>();
        at(v, iosim_share_view_set_window(view.get(), w.first, w.second));
      }
      last_cap = c(v, 0);
    }
    for (size_t k = 0; k < fa.size(); k++)
      for (py::ssize_t t = 0; t < nt; t++)
        at(v, iosim_share_view_set(view.get(), (int)t, fa[k].first, fr[k](v, t)));
    for (size_t k = 0; k < pa.size(); k++) {
      double x = pr[k](v, 0);
      if (!(x == last[k])) {
        at(v, iosim_params_set(values.get(), pa[k].first.c_str(), x));
        last[k] = x;
      }
    }
    at(v, iosim_share(p, values.get(), view.get(), rates.data()));
    for (py::ssize_t t = 0; t < nt; t++)
      o(v, t) = rates[(size_t)t];
  }
  return out;
}

const char *const share_batch_doc =
    "iosim.share on V views of T transfers at once, over numpy arrays: the rates [V, T] (bytes/s), row v the policy's "
    "decision on view v (the same as iosim.share on it, without UncappedWarning: an uncapped policy's rates are its "
    "bounds, which SimGrid's max-min then shares). capacity (bytes/s): a number or [V]; transfers: {field: a number, "
    "[T] (per transfer, every view) or [V, T]}, fields not given at iosim.share's defaults; params: {name: a number "
    "or [V]}. Arrays broadcast together as numpy does. A value the policy refuses: iosim.Error naming the view.";

py::list stripe(const std::string &policy, int servers, int osts_per_server, int routers, int clients, int writers,
                double bytes_per_writer, int shared_files, const py::dict &params, uint64_t seed) {
  const iosim_policy_t *p = policy_of("striping", policy);
  Params v(p, params);
  std::unique_ptr<iosim_stripe_topo_t, void (*)(iosim_stripe_topo_t *)> topo(
      check(iosim_stripe_topo_regular(servers, osts_per_server, routers, clients)), iosim_stripe_topo_free);
  std::unique_ptr<iosim_rng_t, void (*)(iosim_rng_t *)> rng(check(iosim_rng_new(seed, IOSIM_STREAM_STRIPING)),
                                                            iosim_rng_free);
  std::unique_ptr<iosim_stripe_layout_t, void (*)(iosim_stripe_layout_t *)> layout(
      check(iosim_stripe_place(p, v.p, topo.get(), rng.get(), writers, bytes_per_writer, shared_files)),
      iosim_stripe_layout_free);
  py::list files;
  for (int f = 0; f < iosim_stripe_file_count(layout.get()); f++) {
    double size, stripe_size;
    int count;
    check(iosim_stripe_file(layout.get(), f, &size, &stripe_size, &count, nullptr));
    std::vector<int> osts((size_t)count);
    check(iosim_stripe_file(layout.get(), f, nullptr, nullptr, nullptr, osts.data()));
    files.append(py::dict(py::arg("size") = size, py::arg("stripe_size") = stripe_size, py::arg("stripe_count") = count,
                          py::arg("osts") = osts));
  }
  return files;
}

// ------------------------------------------------------------------------------ sharing policies written in Python
// The view a Python sharing policy receives: {"now", "capacity", "window": (begin, end), "transfers": [dict...],
// "params": {name: value}}; it returns a sequence of rates (bytes/s), one per transfer.
int py_share(const iosim_share_view_t *view, const iosim_params_t *params, double *rates, void *user) {
  py::gil_scoped_acquire gil;
  try {
    int n = iosim_share_view_count(view);
    py::list transfers;
    for (int i = 0; i < n; i++) {
      py::dict t;
      for (int f = 0; f < IOSIM_T_NFIELDS; f++) {
        double x = iosim_share_view_get(view, i, f);
        t[iosim_transfer_field_name(f)] =
            field_integer[f] ? py::object(py::int_((long long)x)) : py::object(py::float_(x));
      }
      transfers.append(t);
    }
    py::dict values;
    const iosim_policy_t *p = iosim_params_policy(params);
    for (int k = 0; k < iosim_policy_param_count(p); k++) {
      double x = 0;
      iosim_params_get(params, iosim_policy_param_name(p, k), &x);
      values[iosim_policy_param_name(p, k)] = x;
    }
    py::dict v(py::arg("now") = iosim_share_view_now(view), py::arg("capacity") = iosim_share_view_capacity(view),
               py::arg("window") =
                   py::make_tuple(iosim_share_view_window_begin(view), iosim_share_view_window_end(view)),
               py::arg("transfers") = transfers, py::arg("params") = values);
    py::object out = reinterpret_cast<PyObject *>(user) != nullptr
                         ? py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject *>(user))(v)
                         : py::none();
    std::vector<double> r = out.cast<std::vector<double>>();
    if ((int)r.size() != n)
      return iosim_share_fail(view, ("the Python function returned " + std::to_string(r.size()) + " rates for " +
                                     std::to_string(n) + " transfers: return one rate (bytes/s) per transfer")
                                        .c_str());
    for (int i = 0; i < n; i++)
      rates[i] = r[(size_t)i];
    return 0;
  } catch (py::error_already_set &e) {
    std::string type = py::str(e.type().attr("__name__")), value = py::str(e.value());
    return iosim_share_fail(view, ("the Python function raised " + type + ": " + value).c_str());
  } catch (const std::exception &e) {
    return iosim_share_fail(
        view, ("the Python function's result is not a sequence of numbers (" + std::string(e.what()) + ")").c_str());
  }
}

void register_sharing(const std::string &name, py::function fn, const std::string &description,
                      const std::string &source, const py::dict &params, bool uncapped) {
  std::vector<std::string> names;
  std::vector<double> defaults;
  for (auto kv : params) {
    names.push_back(py::str(kv.first));
    defaults.push_back(kv.second.cast<double>());
  }
  std::vector<const char *> cnames;
  for (auto &s : names)
    cnames.push_back(s.c_str());
  PyObject *keep = fn.ptr();
  Py_INCREF(keep); // registered for the life of the process, like the policy
  if (iosim_sharing_register(name.c_str(), description.empty() ? nullptr : description.c_str(),
                             source.empty() ? nullptr : source.c_str(), uncapped ? IOSIM_SHARING_UNCAPPED : 0,
                             (int)names.size(), cnames.data(), defaults.data(), py_share, keep) == nullptr) {
    Py_DECREF(keep);
    raise();
  }
}

// ------------------------------------------------------------------------------------------------------- scenarios
// The scenario face simulates in a child forked while this thread holds the GIL. In that child the GIL is released at
// once, so that a Python sharing policy can take it from whichever thread SimGrid runs the controller on (its thread
// contexts, which python3-simgrid selects, run actors on threads of their own). Only the forks of iosim's runs.
bool in_run = false;

void child_after_fork() {
  if (!in_run) return;
  PyOS_AfterFork_Child();
  PyEval_SaveThread();
}

struct Results {
  iosim_results_t *r;
  explicit Results(iosim_results_t *r) : r(r) {}
  ~Results() { iosim_results_free(r); }
  py::dict metrics() const {
    py::dict d;
    for (int i = 0; i < iosim_results_metric_count(r); i++) {
      double x;
      iosim_results_metric(r, iosim_results_metric_name(r, i), &x);
      d[iosim_results_metric_name(r, i)] = x;
    }
    return d;
  }
  double metric(const std::string &name) const {
    double x;
    check(iosim_results_metric(r, name.c_str(), &x));
    return x;
  }
  py::list apps() const {
    py::list out;
    for (int j = 0; j < iosim_results_app_count(r); j++) {
      py::dict row;
      for (int c = 0; c < iosim_results_app_column_count(r); c++) {
        const char *col = iosim_results_app_column(r, c);
        double x;
        if (iosim_results_app_value(r, j, col, &x) == IOSIM_OK)
          row[col] = x;
        else
          row[col] = iosim_results_app_text(r, j, col);
      }
      out.append(row);
    }
    return out;
  }
};

struct Scenario {
  iosim_scenario_t *s = nullptr;
  Scenario(py::object path, py::object json, const std::vector<std::string> &sets, py::object base_dir,
           const std::string &label) {
    std::vector<const char *> v;
    for (auto &x : sets)
      v.push_back(x.c_str());
    if (!path.is_none() == !json.is_none()) {
      PyErr_SetString(error_type.ptr(), "Scenario: give either a path or json (a scenario object as text or a dict)");
      throw py::error_already_set();
    }
    if (!path.is_none()) {
      check(iosim_scenario_load(py::str(path).cast<std::string>().c_str(), (int)v.size(), v.data(), &s));
    } else {
      std::string text = py::isinstance<py::str>(json)
                             ? json.cast<std::string>()
                             : py::module_::import("json").attr("dumps")(json).cast<std::string>();
      std::string dir = base_dir.is_none() ? "" : py::str(base_dir).cast<std::string>();
      check(iosim_scenario_parse(text.c_str(), label.c_str(), dir.c_str(), (int)v.size(), v.data(), &s));
    }
  }
  ~Scenario() { iosim_scenario_free(s); }
  static std::vector<const char *> sg_of(const std::vector<std::string> &sg) {
    std::vector<const char *> v;
    for (auto &x : sg)
      v.push_back(x.c_str());
    return v;
  }
  void check_it(const std::vector<std::string> &sg, bool print) const {
    auto v = sg_of(sg);
    py::module_::import("sys").attr("stdout").attr("flush")();
    in_run = true;
    int rc = iosim_scenario_check(s, print ? IOSIM_RUN_PRINT : 0, (int)v.size(), v.data());
    in_run = false;
    check(rc);
  }
  std::unique_ptr<Results> run(const std::vector<std::string> &sg, bool print) const {
    auto v = sg_of(sg);
    iosim_results_t *r = nullptr;
    py::module_::import("sys").attr("stdout").attr("flush")();
    in_run = true; // the child releases the GIL (child_after_fork)
    int rc = iosim_scenario_run(s, print ? IOSIM_RUN_PRINT : 0, (int)v.size(), v.data(), &r);
    in_run = false;
    check(rc);
    return std::make_unique<Results>(r);
  }
};

// ------------------------------------------------------------------------------- sharing above the capacity, said
// A sharing policy that leaves the share to SimGrid's max-min (maxmin, or one registered uncapped) gives every transfer
// its cap: its "rates" are caps on the transfers' flows, and in a simulation SimGrid's max-min divides the resource.
// The rates max-min gives on this one resource alone (water-filling: the smallest caps served in full, the rest of B
// in equal parts; RR-9549 §3.1's capacity sharing), for the warning below.
std::vector<double> maxmin_on_one_resource(double capacity, const std::vector<double> &caps) {
  std::vector<size_t> order(caps.size());
  for (size_t i = 0; i < order.size(); i++)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return caps[a] < caps[b]; });
  std::vector<double> rates(caps.size());
  double left = capacity;
  for (size_t k = 0; k < order.size(); k++) {
    double fair = left / (double)(order.size() - k);
    rates[order[k]] = std::min(caps[order[k]], fair);
    left -= rates[order[k]];
  }
  return rates;
}

py::object uncapped_warning;

// iosim.share, and a warning (iosim.UncappedWarning) when the rates sum above the capacity: iosim_share returns the
// policy's decision as it is, and only a policy that leaves the share to SimGrid's max-min may sum above B.
std::vector<double> share_said(const std::string &policy, double capacity, const py::list &transfers, double now,
                               py::object window, const py::dict &params) {
  size_t i = 0;
  for (auto item : transfers) { // the values' types here; their ranges by iosim_share_view_set
    std::string where = "iosim.share: transfers[" + std::to_string(i++) + "]";
    if (!py::isinstance<py::dict>(item))
      fail(where + " = " + std::string(py::repr(item)) +
           ": give a dict of its fields, e.g. {\"cap\": 8e8, \"posted\": 0}");
    for (auto kv : item.cast<py::dict>())
      if (py::isinstance<py::bool_>(kv.second) ||
          !(py::isinstance<py::int_>(kv.second) || py::isinstance<py::float_>(kv.second)))
        fail(where + "[" + std::string(py::repr(kv.first)) + "] = " + std::string(py::repr(kv.second)) +
             ": give a number (bytes, bytes/s, s or a count: docs/library.md, the IOSIM_T_* fields)");
  }
  if (!window.is_none()) {
    bool ok = py::isinstance<py::sequence>(window) && !py::isinstance<py::str>(window) && py::len(window) == 2;
    for (size_t k = 0; ok && k < 2; k++) {
      py::object x = window[py::int_(k)];
      ok = !py::isinstance<py::bool_>(x) && (py::isinstance<py::int_>(x) || py::isinstance<py::float_>(x));
    }
    if (!ok)
      fail("iosim.share: window = " + std::string(py::repr(window)) +
           ": give (t_begin, t_end) in s, e.g. (0, 1000) or (0, math.inf)");
  }
  std::vector<double> rates = share(policy, capacity, transfers, now, window, params);
  double sum = 0;
  for (double r : rates)
    sum += r;
  if (sum > capacity * (1 + 1e-9)) {
    char head[256];
    std::snprintf(head, sizeof head, "%.6g B/s in all on a resource of %.6g B/s", sum, capacity);
    std::string mm;
    for (double r : maxmin_on_one_resource(capacity, rates)) {
      char x[32];
      std::snprintf(x, sizeof x, "%s%.6g", mm.empty() ? "" : ", ", r);
      mm += x;
    }
    std::string msg = "iosim.share: policy '" + policy + "' gave " + head +
                      ": it leaves the share to SimGrid's max-min, so these are the transfers' caps (each its "
                      "application's cap), not their rates; in a simulation each transfer gets min(cap, its max-min "
                      "fair share) of the links it crosses, here on this resource alone [" +
                      mm + "] B/s (docs/library.md, \"Python\")";
    if (PyErr_WarnEx(uncapped_warning.ptr(), msg.c_str(), 1) < 0) throw py::error_already_set();
  }
  return rates;
}

// ---------------------------------------------------------------------------------------- every bad input typed
// Every function and method of the module raises iosim.Error on bad input: the TypeError of arguments of the wrong
// type (pybind11's "incompatible function arguments"), a KeyError, IndexError, ValueError or OverflowError of a value,
// and a failed conversion (pybind11's cast_error, a RuntimeError) become iosim.Error with the call's name, the
// original exception as its __cause__. Other exceptions (KeyboardInterrupt, MemoryError, iosim.Error) pass.
bool input_error(py::error_already_set &e) {
  if (e.matches(error_type)) return false;
  return e.matches(PyExc_TypeError) || e.matches(PyExc_ValueError) || e.matches(PyExc_LookupError) ||
         e.matches(PyExc_OverflowError) || e.type().ptr() == PyExc_RuntimeError;
}

std::deque<std::string> wrapped_strings; // names and docstrings of the wrappers, alive as long as the module

[[noreturn]] void reraise_typed(py::error_already_set &e, const std::string &call) {
  std::string msg =
      call + ": " + std::string(py::str(e.value())) + " (help(" + call + "); docs/library.md, \"Python\")";
  py::raise_from(e, error_type.ptr(), msg.c_str());
  throw py::error_already_set();
}

// `fn` (a function of the module or of one of its classes) behind a wrapper that types its errors, with its name and
// its docstring (its signature included).
py::cpp_function typed(py::object fn, const std::string &call, const std::string &name, py::object cls) {
  wrapped_strings.push_back(name);
  const char *cname = wrapped_strings.back().c_str();
  py::object d = fn.attr("__doc__");
  wrapped_strings.push_back(d.is_none() ? std::string() : d.cast<std::string>());
  const char *cdoc = wrapped_strings.back().c_str();
  auto body = [fn, call](py::args args, py::kwargs kwargs) -> py::object {
    try {
      return fn(*args, **kwargs);
    } catch (py::error_already_set &e) {
      if (!input_error(e)) throw;
      reraise_typed(e, call);
    }
  };
  py::options o;
  o.disable_function_signatures(); // the docstring carries the wrapped function's own signature
  if (cls.is_none()) return py::cpp_function(body, py::name(cname), py::doc(cdoc));
  return py::cpp_function(body, py::name(cname), py::doc(cdoc), py::is_method(cls));
}

void type_errors(py::module_ &m) {
  for (auto item : m.attr("__dict__").cast<py::dict>()) {
    std::string name = py::str(item.first);
    if (name.rfind("_", 0) == 0) continue;
    py::object v = py::reinterpret_borrow<py::object>(item.second);
    if (PyCFunction_Check(v.ptr())) {
      m.attr(name.c_str()) = typed(v, "iosim." + name, name, py::none());
    } else if (PyType_Check(v.ptr()) && !PyType_IsSubtype((PyTypeObject *)v.ptr(), (PyTypeObject *)PyExc_Exception) &&
               !PyType_IsSubtype((PyTypeObject *)v.ptr(), (PyTypeObject *)PyExc_Warning)) {
      for (auto member : v.attr("__dict__").cast<py::dict>()) {
        std::string mname = py::str(member.first);
        if (mname != "__init__" && mname.rfind("_", 0) == 0) continue;
        if (!PyInstanceMethod_Check(member.second.ptr())) continue;
        py::object f = py::reinterpret_borrow<py::object>(PyInstanceMethod_GET_FUNCTION(member.second.ptr()));
        std::string call = "iosim." + name + (mname == "__init__" ? "" : "." + mname);
        setattr(v, mname.c_str(), typed(f, call, mname, v));
      }
    }
  }
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "iosim's policies and scenarios (libiosim's policy and scenario faces, docs/library.md)";
  error_type = py::reinterpret_borrow<py::object>(PyExc_RuntimeError);
  static py::exception<Error> exc(m, "Error", PyExc_RuntimeError);
  error_type = exc;
  exc.attr("__doc__") = "The exception of every bad input and failed call: the message names the value and the fix "
                        "(docs/library.md, \"Python\").";
  m.attr("__version__") = iosim_version(nullptr, nullptr, nullptr);
  m.def(
      "families",
      [] {
        std::vector<std::string> out;
        for (int f = 0; f < IOSIM_NFAMILIES; f++)
          out.push_back(iosim_family_name(f));
        return out;
      },
      "The five policy families: allocation, placement, sharing, storage, striping.");
  m.def("policies", &policies, py::arg("family"),
        "The policies of a family: a list of dicts (name, alias, description, source, params).");
  m.def("allocate", &allocate, py::arg("policy"), py::arg("capacity"), py::arg("total_nodes"), py::arg("apps"),
        py::arg("params") = py::dict(), py::arg("seed") = 0,
        "One allocation decision: the resource count of each application (dicts: nodes, volume in bytes, work in s, "
        "profile {n: bytes/s}) on resources of the given bandwidths (bytes/s).");
  m.def("place", &place, py::arg("policy"), py::arg("capacity"), py::arg("total_nodes"), py::arg("apps"),
        py::arg("counts"), py::arg("params") = py::dict(), py::arg("seed") = 0,
        "One placement decision: the resource indices of each application, given its count.");
  uncapped_warning = py::reinterpret_borrow<py::object>(PyErr_NewExceptionWithDoc(
      "iosim.UncappedWarning",
      "iosim.share: the policy's rates sum above the resource's capacity: it leaves the share to SimGrid's max-min, "
      "and its rates are the transfers' caps (docs/library.md, \"Python\").",
      PyExc_UserWarning, nullptr));
  m.attr("UncappedWarning") = uncapped_warning;
  m.def("share", &share_said, py::arg("policy"), py::arg("capacity"), py::arg("transfers"), py::arg("now") = 0.0,
        py::arg("window") = py::none(), py::arg("params") = py::dict(), share_doc.c_str());
  m.def("share_batch", &share_batch, py::arg("policy"), py::arg("capacity"), py::arg("transfers"),
        py::arg("params") = py::dict(), py::arg("now") = 0.0, py::arg("window") = py::none(), share_batch_doc);
  m.def("stripe", &stripe, py::arg("policy"), py::arg("servers"), py::arg("osts_per_server"), py::arg("routers"),
        py::arg("clients"), py::arg("writers"), py::arg("bytes_per_writer"), py::arg("shared_files") = 0,
        py::arg("params") = py::dict(), py::arg("seed") = 0,
        "One striping decision on a regular Lustre topology: a list of files (size, stripe_size, stripe_count, osts).");
  m.def("register_sharing", &register_sharing, py::arg("name"), py::arg("function"), py::arg("description") = "",
        py::arg("source") = "", py::arg("params") = py::dict(), py::arg("uncapped") = false,
        "Registers a sharing policy written in Python: function(view) -> rates, view = {now, capacity, window, "
        "transfers, params}; scenarios run afterwards in this process can name it.");
  py::class_<Results>(m, "Results", "The results of a run, read back from its output directory.")
      .def_property_readonly("status", [](const Results &r) { return std::string(iosim_results_status(r.r)); })
      .def_property_readonly("dir", [](const Results &r) { return std::string(iosim_results_dir(r.r)); })
      .def_property_readonly("json", [](const Results &r) { return std::string(iosim_results_json(r.r)); })
      .def_property_readonly("metrics", &Results::metrics, "results.json's metrics and counts, by name")
      .def_property_readonly("apps", &Results::apps, "apps.csv's rows as dicts (numbers where a field is one)")
      .def("metric", &Results::metric, py::arg("name"));
  py::class_<Scenario>(m, "Scenario", "A loaded, validated scenario (docs/scenario.md).")
      .def(py::init<py::object, py::object, const std::vector<std::string> &, py::object, const std::string &>(),
           py::arg("path") = py::none(), py::arg("json") = py::none(), py::arg("sets") = std::vector<std::string>(),
           py::arg("base_dir") = py::none(), py::arg("label") = "scenario")
      .def_property_readonly("json", [](const Scenario &s) { return std::string(iosim_scenario_json(s.s)); })
      .def_property_readonly("output_dir",
                             [](const Scenario &s) { return std::string(iosim_scenario_output_dir(s.s)); })
      .def("check", &Scenario::check_it, py::arg("sg") = std::vector<std::string>(), py::arg("print") = false,
           "Validates the platform and the workload (iosim check), in a forked child.")
      .def("run", &Scenario::run, py::arg("sg") = std::vector<std::string>(), py::arg("print") = false,
           "Runs the scenario (iosim run) in a forked child and returns its results.");
  pthread_atfork(nullptr, nullptr, child_after_fork);
  if (iosim_py_add_plugin != nullptr) iosim_py_add_plugin(m);
  type_errors(m); // last: every function and method, the plugin face's too
}
