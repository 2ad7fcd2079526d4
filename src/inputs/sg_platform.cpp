/* iosim — SimGrid glue of the inputs (see ios_sg_platform.h). Public s4u API only. */
#include "ios_sg_platform.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_fs.h"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;
namespace cfg = simgrid::config;

namespace {

/* What this process asked of SimGrid's tracer (docs/trace.md). */
struct trace_state {
  std::string dir;                          // output.trace's directory, "" when not asked
  long pid = 0;                             // the process that asked for tracing, 0 when none did
  ios_fs_staged_t staged = {};              // output.trace's file while SimGrid's tracer writes it
  std::string error;                        // why that file could not be created
  bool exit_hook = false;                   // trace_at_exit is registered
  std::map<std::string, std::string> links; // link name in the XML file -> SimGrid's name (renamed for the tracer)
};
trace_state TR;

/* The name SimGrid gives the link named `xml` in the platform file. */
std::string sg_link_name(const char *xml) {
  auto it = TR.links.find(xml);
  return it == TR.links.end() ? std::string(xml) : it->second;
}

bool cfg_on(const char *name) {
  return cfg::get_value<bool>(name);
}

void cfg_set(const char *name, bool on) {
  cfg::set_value<bool>(name, on);
}

void trace_at_exit() {
  ios_fs_discard(&TR.staged);
}

/* output.trace's file: a temporary file of its directory that SimGrid's tracer writes (it opens the path again and
 * truncates it); our own stream on it stays open and unwritten until ios_sg_trace_commit renames it. */
void trace_stage() {
  if (TR.dir.empty() || TR.staged.f != nullptr) return;
  if (ios_fs_stage(&TR.staged, TR.dir.c_str(), "trace.paje", "output.trace") != IOS_OK) {
    TR.error = ios_diag_message();
    return;
  }
  if (!TR.exit_hook) TR.exit_hook = std::atexit(trace_at_exit) == 0;
  cfg_set("tracing", true);
  cfg::set_value<std::string>("tracing/filename", TR.staged.tmp);
}

/* Before a load: SimGrid's tracer set up in the process that asked for it, off in any other (see ios_sg_platform.h).
 * @return whether SimGrid traces this load. */
bool trace_configure() {
  if (TR.pid != static_cast<long>(getpid())) {
    if (cfg_on("tracing")) cfg_set("tracing", false);
    return false;
  }
  trace_stage();
  if (!cfg_on("tracing")) return false;
  if (cfg::is_default("tracing/platform") && !cfg_on("tracing/categorized") && !cfg_on("tracing/uncategorized"))
    cfg_set("tracing/platform", true);
  if (!cfg::is_default("tracing/platform/topology") && cfg_on("tracing/platform/topology"))
    std::fprintf(stderr, "iosim: warning: --cfg=tracing/platform/topology:yes ignored: SimGrid 3.32 aborts extracting "
                         "the topology of a zone whose routes go through a router (docs/trace.md)\n");
  cfg_set("tracing/platform/topology", false);
  return true;
}

/* ---------------------------------------------------------------- distinct names for SimGrid's tracer */

struct xml_attr {
  std::string name;
  size_t at, len; // the value's span in the text
};
struct xml_tag {
  std::string name;
  std::vector<xml_attr> attrs;
};

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* The end of the markup starting at `i` that is not a start tag (comment, CDATA, processing instruction,
 * declaration, end tag), just past it, or npos. */
size_t skip_markup(const std::string &x, size_t i) {
  if (x.compare(i, 4, "<!--") == 0) {
    size_t e = x.find("-->", i + 4);
    return e == std::string::npos ? e : e + 3;
  }
  if (x.compare(i, 9, "<![CDATA[") == 0) {
    size_t e = x.find("]]>", i + 9);
    return e == std::string::npos ? e : e + 3;
  }
  if (x.compare(i, 2, "<?") == 0) {
    size_t e = x.find("?>", i + 2);
    return e == std::string::npos ? e : e + 2;
  }
  int depth = 0; /* <!DOCTYPE ... [ internal subset ]> */
  for (size_t j = i + 2; j < x.size(); j++) {
    if (x[j] == '[') depth++;
    if (x[j] == ']') depth--;
    if (x[j] == '>' && depth <= 0) return j + 1;
  }
  return std::string::npos;
}

/* The attributes of the start tag whose name ends before `j`, into `t`. @return just past the tag, or npos when it
 * is malformed. */
size_t read_attrs(const std::string &x, size_t j, xml_tag &t) {
  const size_t n = x.size();
  for (;;) {
    while (j < n && std::isspace(static_cast<unsigned char>(x[j])))
      j++;
    if (j >= n) return std::string::npos;
    if (x[j] == '>' || x[j] == '/') break;
    size_t a = j;
    while (j < n && name_char(x[j]))
      j++;
    size_t a_end = j;
    while (j < n && std::isspace(static_cast<unsigned char>(x[j])))
      j++;
    if (a_end == a || j >= n || x[j] != '=') return std::string::npos;
    j++;
    while (j < n && std::isspace(static_cast<unsigned char>(x[j])))
      j++;
    if (j >= n || (x[j] != '"' && x[j] != '\'')) return std::string::npos;
    size_t end = x.find(x[j], j + 1);
    if (end == std::string::npos) return std::string::npos;
    t.attrs.push_back({x.substr(a, a_end - a), j + 1, end - j - 1});
    j = end + 1;
  }
  size_t close = x.find('>', j);
  return close == std::string::npos ? close : close + 1;
}

/* The start tags of an XML text, in order. @return false when the text is not well-formed enough to read. */
bool xml_start_tags(const std::string &x, std::vector<xml_tag> &tags) {
  size_t i = 0;
  while ((i = x.find('<', i)) != std::string::npos) {
    if (i + 1 < x.size() && (x[i + 1] == '!' || x[i + 1] == '?' || x[i + 1] == '/')) {
      i = skip_markup(x, i);
      if (i == std::string::npos) return false;
      continue;
    }
    xml_tag t;
    size_t j = i + 1;
    while (j < x.size() && name_char(x[j]))
      j++;
    t.name = x.substr(i + 1, j - i - 1);
    i = read_attrs(x, j, t);
    if (t.name.empty() || i == std::string::npos) return false;
    tags.push_back(std::move(t));
  }
  return true;
}

/* The value of attribute `name` of `t` ("" when absent). */
std::string attr(const std::string &x, const xml_tag &t, const char *name) {
  for (const xml_attr &a : t.attrs)
    if (a.name == name) return x.substr(a.at, a.len);
  return "";
}

bool declares_link(const xml_tag &t) {
  return t.name == "link" || t.name == "backbone";
}

/* The names SimGrid gives the link declared by `t` under the id `id`: id, or id_UP and id_DOWN when split-duplex. */
std::vector<std::string> link_names(const std::string &x, const xml_tag &t, const std::string &id) {
  if (attr(x, t, "sharing_policy") == "SPLITDUPLEX") return {id + "_UP", id + "_DOWN"};
  return {id};
}

/* Fills TR.links: a new name for each link whose SimGrid name is also a zone's, host's or router's (see
 * ios_sg_platform.h). Names generated by <cluster> and <peer> elements are not seen: a clash among them is reported
 * by SimGrid's tracer itself. */
void plan_link_names(const std::string &x, const std::vector<xml_tag> &tags) {
  std::set<std::string> nodes, taken;
  for (const xml_tag &t : tags)
    if (t.name == "host" || t.name == "router" || t.name == "zone" || t.name == "AS" || t.name == "peer")
      nodes.insert(attr(x, t, "id"));
  taken = nodes;
  for (const xml_tag &t : tags)
    if (declares_link(t))
      for (const std::string &n : link_names(x, t, attr(x, t, "id")))
        taken.insert(n);
  for (const xml_tag &t : tags) {
    std::string id = attr(x, t, "id");
    bool clash = false;
    for (const std::string &n : link_names(x, t, id))
      clash |= nodes.count(n) > 0;
    if (!declares_link(t) || !clash || TR.links.count(id) > 0) continue;
    for (int k = 1;; k++) {
      std::string fresh = id + "_link" + (k > 1 ? std::to_string(k) : "");
      bool free = true;
      for (const std::string &n : link_names(x, t, fresh))
        free &= taken.count(n) == 0;
      if (!free) continue;
      for (const std::string &n : link_names(x, t, fresh))
        taken.insert(n);
      TR.links[id] = fresh;
      break;
    }
  }
}

/* The attribute of `t` that names a link: the id of a declaration or of a route's link_ctn, the element of a link's
 * trace_connect; nullptr when none does. */
const char *link_field(const std::string &x, const xml_tag &t) {
  if (declares_link(t) || t.name == "link_ctn") return "id";
  std::string kind = attr(x, t, "kind");
  bool of_link = kind == "LINK_AVAIL" || kind == "BANDWIDTH" || kind == "LATENCY";
  return t.name == "trace_connect" && of_link ? "element" : nullptr;
}

/* The platform text with the links of TR.links renamed wherever a link is named. */
std::string rename_links(const std::string &x, const std::vector<xml_tag> &tags) {
  std::string out;
  size_t from = 0;
  for (const xml_tag &t : tags) {
    const char *field = link_field(x, t);
    for (const xml_attr &a : t.attrs) {
      auto it = field != nullptr && a.name == field ? TR.links.find(x.substr(a.at, a.len)) : TR.links.end();
      if (it == TR.links.end()) continue;
      out.append(x, from, a.at - from).append(it->second);
      from = a.at + a.len;
    }
  }
  return out.append(x, from, std::string::npos);
}

/* The copy of the platform that SimGrid loads while tracing (removed when it goes out of scope). */
struct platform_copy {
  std::string path; // "" when the file itself is loaded
  ~platform_copy() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

/* Writes the renamed copy of platform `file` when some link needs a new name; relative file names inside it (traces
 * of availability or speed) are still found in the file's directory, through SimGrid's "path" setting. */
void write_renamed_copy(const char *file, platform_copy &copy) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string x = text.str();
  std::vector<xml_tag> tags;
  if (!in || !xml_start_tags(x, tags)) return; /* SimGrid reports what is wrong with it */
  plan_link_names(x, tags);
  if (TR.links.empty()) return;
  const char *tmpdir = std::getenv("TMPDIR");
  std::string name = std::string(tmpdir != nullptr && tmpdir[0] != '\0' ? tmpdir : "/tmp") + "/iosim-platform-XXXXXX";
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary copy of the platform for the tracer in $TMPDIR");
  copy.path = buf.data();
  std::string renamed = rename_links(x, tags);
  bool ok = write(fd, renamed.data(), renamed.size()) == static_cast<ssize_t>(renamed.size());
  ok &= close(fd) == 0;
  if (!ok) throw std::runtime_error("cannot write a temporary copy of the platform for the tracer in $TMPDIR");
  const char *slash = std::strrchr(file, '/');
  cfg::set_as_string("path", slash == nullptr ? std::string(".") : std::string(file, slash));
}

} // namespace

extern "C" int ios_sg_set_config(const char *name_value) {
  try {
    sg4::Engine::set_config(name_value);
    if (std::strncmp(name_value, "tracing", 7) == 0) TR.pid = static_cast<long>(getpid());
    return 0;
  } catch (const std::exception &) {
    return -1;
  }
}

extern "C" void ios_sg_config_help(void) {
  std::fflush(stdout);
  cfg::help(); /* SimGrid's own list (what `--help` prints in a SimGrid program), with the current values */
  std::fflush(stdout);
}

extern "C" int ios_sg_load_platform(const char *path, char *err, size_t errlen) {
  TR.links.clear();
  platform_copy copy;
  try {
    if (trace_configure()) write_renamed_copy(path, copy);
    sg4::Engine::get_instance()->load_platform(copy.path.empty() ? path : copy.path);
    sg4::Engine::get_instance()->seal_platform(); /* routes can be queried only once sealed */
    return 0;
  } catch (const std::exception &e) {
    bool names = std::strstr(e.what(), "already present in all_containers_") != nullptr;
    std::snprintf(err, errlen, "%s%s", e.what(),
                  names ? " (SimGrid's tracer needs a distinct name for every zone, host, router and link; iosim "
                          "renames only links named like a zone, host or router: rename one of the two)"
                        : "");
    return -1;
  }
}

extern "C" int ios_sg_route_has_link(sg_host_t from, sg_host_t to, const char *link) {
  std::vector<sg4::Link *> links;
  double latency = 0;
  try {
    from->route_to(to, links, &latency);
  } catch (const std::exception &) {
    return -1;
  }
  if (links.empty()) return -1;
  std::string name = sg_link_name(link);
  for (const sg4::Link *l : links)
    if (l->get_name() == name) return 1;
  return 0;
}

extern "C" double ios_sg_link_bandwidth(const char *name) {
  const sg4::Link *link = sg4::Link::by_name_or_null(sg_link_name(name));
  return link == nullptr ? -1.0 : link->get_bandwidth();
}

extern "C" void ios_sg_link_set_bandwidth(const char *name, double bw) {
  sg4::Link *link = sg4::Link::by_name_or_null(sg_link_name(name));
  if (link != nullptr) link->set_bandwidth(bw);
}

extern "C" void ios_sg_trace_to(const char *dir) {
  TR.dir = dir != nullptr ? dir : "";
  if (dir != nullptr) TR.pid = static_cast<long>(getpid());
}

extern "C" int ios_sg_tracing(void) {
  try {
    return cfg_on("tracing") &&
           (cfg_on("tracing/platform") || cfg_on("tracing/categorized") || cfg_on("tracing/uncategorized"));
  } catch (const std::exception &) { /* SimGrid not started */
    return 0;
  }
}

extern "C" int ios_sg_trace_status(void) {
  if (TR.dir.empty() || TR.pid != static_cast<long>(getpid()) || TR.staged.f != nullptr) return IOS_OK;
  const char *why = TR.error.empty() ? "output.trace: SimGrid's tracer was not started" : TR.error.c_str();
  ios_diag_set(nullptr, nullptr, "%s", why);
  return IOS_EIO;
}

extern "C" int ios_sg_trace_commit(void) {
  return ios_fs_commit(&TR.staged);
}

extern "C" void ios_sg_trace_discard(void) {
  ios_fs_discard(&TR.staged);
}
