/* iosim — SimGrid glue (see ios_sg.h). Public s4u API only. */
#include "ios_sg.h"

#include <simgrid/Exception.hpp>
#include <simgrid/instr.h>
#include <simgrid/s4u.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <set>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

struct ios_flow {
  sg4::CommPtr comm;
};

extern "C" ios_flow_t *ios_flow_start(sg_mailbox_t mbox, double bytes, double rate) {
  auto *flow = new ios_flow;
  flow->comm = mbox->put_init(flow, 0); /* a non-null payload marks us as the sender; the size is set below */
  flow->comm->set_remaining(bytes);
  if (std::isfinite(rate)) flow->comm->set_rate(rate); /* INFINITY: no bound of its own (the links decide) */
  flow->comm->start();
  return flow;
}

extern "C" int ios_flow_wait(ios_flow_t *flow) {
  try {
    flow->comm->wait();
    return 0;
  } catch (const simgrid::Exception &) {
    return 1; /* a cancelled mailbox comm raises NetworkFailureException in its waiter */
  }
}

extern "C" double ios_flow_remaining(const ios_flow_t *flow) {
  return flow->comm->get_remaining();
}

extern "C" void ios_flow_cancel(ios_flow_t *flow) {
  try {
    flow->comm->cancel();
  } catch (const simgrid::Exception &) {
    /* already over: nothing to cancel */
  }
}

extern "C" void ios_flow_free(ios_flow_t *flow) {
  delete flow;
}

extern "C" void ios_sg_trace_declare(const char *variable, const char *color) {
  simgrid::instr::declare_link_variable(variable, color);
}

extern "C" void ios_sg_trace_flow(sg_host_t from, sg_host_t to, const char *variable, double t0, double t1,
                                  double rate) {
  static std::set<std::string> started; /* "link\nvariable" pairs already set to 0 */
  std::vector<sg4::Link *> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  for (const sg4::Link *l : links) {
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE) continue; /* flows do not share it */
    if (started.insert(l->get_name() + '\n' + variable).second)
      simgrid::instr::set_link_variable(l->get_name(), variable, 0, 0);
    simgrid::instr::add_link_variable(l->get_name(), variable, rate, t0);
    simgrid::instr::sub_link_variable(l->get_name(), variable, rate, t1);
  }
}

extern "C" void ios_sg_receiver_main(int argc, char *argv[]) {
  if (argc < 2) return;
  sg4::Mailbox *mbox = sg4::Mailbox::by_name(argv[1]);
  mbox->set_receiver(sg4::Actor::self());
  for (;;) {
    try {
      mbox->get<void>();
    } catch (const simgrid::Exception &) {
      /* a cancelled flow: its sender restarts the remaining bytes as a new flow */
    }
  }
}
