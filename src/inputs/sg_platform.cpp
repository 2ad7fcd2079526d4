/* iosim — SimGrid glue of the inputs (see ios_sg_platform.h). Public s4u API only. */
#include "ios_sg_platform.h"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <exception>
#include <vector>

namespace sg4 = simgrid::s4u;

extern "C" int ios_sg_set_config(const char *name_value) {
  try {
    sg4::Engine::set_config(name_value);
    return 0;
  } catch (const std::exception &) {
    return -1;
  }
}

extern "C" int ios_sg_load_platform(const char *path, char *err, size_t errlen) {
  try {
    sg4::Engine::get_instance()->load_platform(path);
    sg4::Engine::get_instance()->seal_platform(); /* routes can be queried only once sealed */
    return 0;
  } catch (const std::exception &e) {
    std::snprintf(err, errlen, "%s", e.what());
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
  for (const sg4::Link *l : links)
    if (l->get_name() == link) return 1;
  return 0;
}

extern "C" double ios_sg_link_bandwidth(const char *name) {
  const sg4::Link *link = sg4::Link::by_name_or_null(name);
  return link == nullptr ? -1.0 : link->get_bandwidth();
}
