/* s4u-batch — a SimGrid simulation of its own (a tiny FIFO batch scheduler running jobs that compute, communicate and
 * checkpoint) with iosim's I/O controller plugged in: the jobs' checkpoints go through iosim's plugin, which decides
 * which I/O nodes each job gets and at what rate each checkpoint proceeds, on SimGrid flows that share the platform's
 * links with the jobs' own messages.
 *
 * usage: s4u-batch PLATFORM.xml ['{"sharing": {"policy": "fairshare"}}']
 * Prints each job's dates and I/O time and the run's metrics; README.md computes them by hand. Like any SimGrid
 * program it logs through SimGrid's XBT (its own category s4u_batch: each job's end, on stderr), and it builds with
 * `pkg-config --cflags --libs iosim` or CMake's iosim::iosim alone (SimGrid comes with them). */
#include <iosim/plugin.h>
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

XBT_LOG_NEW_DEFAULT_CATEGORY(s4u_batch, "the s4u-batch example: its jobs' ends");

struct Job {
  std::string name;
  int nodes;
  int iterations;
  double flops;      /* per rank and iteration */
  double exchange;   /* bytes rank 1 sends rank 0 each iteration */
  double checkpoint; /* bytes the job writes each iteration, through iosim */
  iosim_app_t *app = nullptr;
};

static void fail(const char *what) {
  std::fprintf(stderr, "s4u-batch: %s: %s\n", what, iosim_plugin_error());
  std::exit(1);
}

/* Rank 1 of a job: computes, sends its data to rank 0, waits until the checkpoint is written. */
static void rank1(const Job *job) {
  auto *to0 = sg4::Mailbox::by_name(job->name + "/to0"), *go = sg4::Mailbox::by_name(job->name + "/go");
  static int payload;
  for (int it = 0; it < job->iterations; it++) {
    sg4::this_actor::execute(job->flops);
    to0->put(&payload, static_cast<uint64_t>(job->exchange));
    go->get<int>();
  }
}

/* Rank 0 of a job: begins the job in iosim, computes, receives rank 1's data, writes the checkpoint (blocking until
 * iosim's controller has moved every byte), and ends the job. */
static void rank0(Job *job, std::vector<sg4::Host *> hosts, sg4::Mailbox *done) {
  std::vector<const char *> names;
  for (auto *h : hosts)
    names.push_back(h->get_cname());
  if (iosim_app_begin(job->app, names.data()) != 0) fail("iosim_app_begin");
  sg4::Actor::create(job->name + "-rank1", hosts[1], rank1, job);
  auto *to0 = sg4::Mailbox::by_name(job->name + "/to0"), *go = sg4::Mailbox::by_name(job->name + "/go");
  static int payload;
  for (int it = 0; it < job->iterations; it++) {
    sg4::this_actor::execute(job->flops);
    to0->get<int>();
    if (iosim_app_write(job->app, job->checkpoint) != 0) fail("iosim_app_write");
    go->put(&payload, 0);
  }
  if (iosim_app_end(job->app) != 0) fail("iosim_app_end");
  XBT_INFO("job %s ends", job->name.c_str());
  done->put(job, 0);
}

/* The scheduler: jobs in FIFO order, each on the lowest-numbered free hosts, started when enough are free. */
static void scheduler(std::vector<Job> *jobs, std::vector<sg4::Host *> machine) {
  auto *done = sg4::Mailbox::by_name("scheduler");
  std::vector<bool> busy(machine.size(), false);
  std::vector<std::vector<int>> held(jobs->size());
  size_t running = 0;
  for (size_t j = 0; j < jobs->size(); j++) {
    Job &job = (*jobs)[j];
    for (;;) {
      std::vector<int> pick;
      for (size_t h = 0; h < machine.size() && static_cast<int>(pick.size()) < job.nodes; h++)
        if (!busy[h]) pick.push_back(static_cast<int>(h));
      if (static_cast<int>(pick.size()) == job.nodes) {
        std::vector<sg4::Host *> hosts;
        for (int h : pick) {
          busy[h] = true;
          hosts.push_back(machine[h]);
        }
        held[j] = pick;
        sg4::Actor::create(job.name + "-rank0", hosts[0], rank0, &job, hosts, done);
        running++;
        break;
      }
      auto *finished = done->get<Job>(); /* wait for a job to end, and free its hosts */
      for (int h : held[finished - jobs->data()])
        busy[h] = false;
      running--;
    }
  }
  for (; running > 0; running--)
    done->get<Job>();
}

int main(int argc, char **argv) {
  sg4::Engine e(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PLATFORM.xml [IOSIM_CONFIG_JSON]\n", argv[0]);
    return 2;
  }
  /* iosim's rates hold on SimGrid's CM02 model without cross-traffic (docs/library.md) */
  e.set_config("network/model:CM02");
  e.set_config("network/crosstraffic:0");
  e.load_platform(argv[1]);
  const char *config = argc > 2 ? argv[2]
                                : "{\"allocation\": {\"policy\": \"fixed\", \"n\": 1},"
                                  " \"placement\": {\"policy\": \"greedy-non-clairvoyant\"},"
                                  " \"sharing\": {\"policy\": \"fairshare\"}}";
  if (iosim_plugin_init(config) != 0) fail("iosim_plugin_init");

  /* three jobs of 2 nodes: 2 iterations of 10 Gflop per rank, 1 GB from rank 1 to rank 0, a 4 GB checkpoint */
  std::vector<Job> jobs = {{"A", 2, 2, 10e9, 1e9, 4e9}, {"B", 2, 2, 10e9, 1e9, 4e9}, {"C", 2, 2, 10e9, 1e9, 4e9}};
  for (auto &job : jobs)
    if ((job.app = iosim_app_declare(job.name.c_str(), job.nodes, job.iterations * job.checkpoint,
                                     job.iterations * job.flops / 1e9)) == nullptr)
      fail("iosim_app_declare");
  std::vector<sg4::Host *> machine;
  for (const char *name : {"c0", "c1", "c2", "c3"})
    machine.push_back(e.host_by_name(name));
  sg4::Actor::create("scheduler", machine[0], scheduler, &jobs, machine);
  e.run();

  /* the plugin collected its results when SimGrid's run ended (no finish call needed; iosim_plugin_finish() would
   * return the same status): a metric is an error when the run failed, e.g. a job that never ended */
  for (auto &job : jobs) {
    double start, end, io;
    if (iosim_app_metric(job.app, "start_s", &start) != 0 || iosim_app_metric(job.app, "end_s", &end) != 0 ||
        iosim_app_metric(job.app, "io_time_s", &io) != 0)
      fail("iosim_app_metric");
    std::printf("job %s: start %.6g s, end %.6g s, I/O time %.6g s\n", job.name.c_str(), start, end, io);
  }
  double makespan, io_total;
  if (iosim_plugin_metric("makespan_s", &makespan) != 0 || iosim_plugin_metric("total_io_time_s", &io_total) != 0)
    fail("iosim_plugin_metric");
  std::printf("makespan %.6g s, total I/O time %.6g s, simulated until %.6g s\n", makespan, io_total,
              sg4::Engine::get_clock());
  return 0;
}
