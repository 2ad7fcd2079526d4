/* iosim — the engine's core types (src/sim/ only; not a public header): the engine object engine_t, the records of
 * the applications (app_state_t) and of the resources (res_state_t) that its modules share, and the simulated date.
 * engine_t is passed explicitly to every function that reads it; the façade (engine.c) owns the one instance of a run
 * (SimGrid allows one simulation per process). Each module's state is an object the engine owns (a pointer below, the
 * struct private to the module's file), made and freed by the module's own init and teardown, which engine.c's table
 * of modules runs in one place. Each module has its own header (sim_*.h) for the functions the others call. */
#ifndef IOS_SIM_CORE_H
#define IOS_SIM_CORE_H

#include "ios_engine.h"
#include "ios_sg.h"
#include "ios_striping.h"
#include "ios_transfer.h"

#include <simgrid/forward.h>

/* The state of an application (app_state_t.state). */
enum { ST_WAITING, ST_WORK, ST_IO, ST_DONE };

typedef ios_transfer_t transfer_t;

/** The job queue's part of an application record (queue.c; IPDPS'21 §5.3), and the plugin's compute hosts. */
typedef struct {
  int started;        /* 1 once the job has compute nodes */
  int *hosts;         /* [nodes] compute host indices while running (queue mode, external applications), else NULL */
  int has_alloc;      /* an allocation has been applied */
  int pending;        /* next_n/next_res wait for the next I/O operation */
  int next_n;         /* resources of the pending allocation */
  int *next_res;      /* [max(N,1)] its resource indices (queue mode), else NULL */
  double alloc_since; /* s: when the current allocation was applied (allocations.csv) */
} app_queue_t;

/** Striping's part of an application record (striping.c; TAPP-IO §III): each I/O operation's files are placed by
 * `policy`, or policy is NULL. */
typedef struct {
  const ios_striping_policy_t *policy;
  const ios_params_t *params;
  int layout;              /* 0 file-per-process, 1 single shared file */
  unsigned char *ost_used; /* [nres] whether any of its files had a stripe on OST k, else NULL */
} app_striping_t;

/** An external application's part (ios_sim_config_t.external: the SimGrid plugin, engine.c). */
typedef struct {
  int begun;   /* ios_engine_app_begin was called */
  int waiting; /* its caller waits for the operation it posted */
  int end;     /* ios_engine_app_end was called */
} app_external_t;

/** What bound an application during its I/O (bound.c): seconds per element, and this interval's candidate. */
#define SIM_BOUND_MAX 8
typedef struct {
  const char *name[SIM_BOUND_MAX]; /* elements (a SimGrid link's name, a resource's name, "nic", "none"; borrowed) */
  double s[SIM_BOUND_MAX];         /* s of its I/O time each bound it */
  int n;
  const char *cur; /* the element binding its slowest transfer in the interval being credited */
  double key;      /* s: that transfer's remaining bytes over its rate */
  long stamp;      /* the accounting `cur` belongs to */
} app_bound_t;

/** One application's record: its run (every module), then one part per concern, each read and written by its module
 * only (q: queue.c, and setup/engine for the plugin's hosts; st: striping.c, read by the controller and results; ext:
 * engine.c's external applications, read by apps.c). */
typedef struct {
  const ios_app_t *a;
  int n;      /* resources allocated */
  int *res;   /* [n] resource indices */
  double b;   /* dedicated bandwidth b_j(n) */
  double cap; /* per-transfer cap b_j(n)/n */
  sg_host_t host;
  int state, phase;
  double phase_start, posted;
  double work_done, bytes_done, io_time;
  double start, end;
  long seq;
  int ntransfers, nleft;
  int op_active;    /* the controller has handled the current operation's post and it is not complete */
  int posted_op;    /* the I/O phase `phase` has posted its operation (app_advance) */
  double last_work; /* s of work since the previous I/O operation (for ω) */
  double iter_sum;  /* s: Σ (work + V/b) over the iterations counted in ω (RR-9502 §4.2) */
  int iter_count;   /* iterations counted in ω */
  transfer_t *t;    /* [max(n,1)] reused by every operation ([max(N,1)] with a queue) */
  double ded_io;    /* s: Σ over completed operations of each one's time alone (sim_alone_op): V / ded_io is b_i */
  double op_alone;  /* s: the current operation's time alone on the platform (sim_alone_op) */
  int host0;        /* index of its first compute host (without a queue) */
  sg_host_t *nodes; /* [a->nodes] the compute hosts its I/O leaves from (sim_app_nodes), or NULL (one node) */
  int tcap;         /* transfers t[] can hold */
  app_queue_t q;
  app_striping_t st;
  app_external_t ext;
  app_bound_t bd; /* bound.c's */
} app_state_t;

typedef struct {
  const ios_resource_t *r;
  sg_host_t dest;      /* where transfers to it go: its host */
  sg_host_t read_dest; /* where reads go: r->read_host (a disk's read route, StorAlloc §4.3), or NULL (dest) */
  transfer_t **active;
  int nactive, cap_active;
  int dirty;
  double busy_since, busy_time, bytes;
} res_state_t;

/* The modules' own states, each defined in its file (engine.c's table of modules lists them). */
struct sim_state;      /* state.c: the failure record, the fault injection, the batch of resumed applications */
struct sim_calendar;   /* calendar.c: the dated wake-ups, the clock's mode, the decision grids */
struct sim_controller; /* controller.c: the events, the decisions' buffers, the progress line */
struct sim_queue;      /* queue.c: the job queue and the free compute nodes */
struct sim_striping;   /* striping.c: the oss-ost topology and the usage states of the placements */
struct sim_bound;      /* bound.c: the accounting of what bound each job */
struct sim_alone;      /* alone.c: each job's operation alone on the platform (the reference b_i) */
struct sim_traces;     /* traces.c: events.csv or timeline.bin, allocations.csv */

typedef struct engine {
  const ios_sim_config_t *s;
  const ios_platform_t *p;
  int napps, nres;
  app_state_t *apps;
  res_state_t *res; /* [nres + 1]: index nres is the PFS for direct access */
  int apps_left;
  long seq, events, rate_changes;
  double t_begin, t_end;
  int snap_begin_done, snap_end_done;
  ios_results_t *r;
  double wall0;                        /* ios_clock_s() at the start */
  double period;                       /* s: periodic decisions of the sharing policy (0 = none), from t_begin */
  const ios_sharing_policy_t *sharing; /* the policy deciding now (fairshare before t_begin in v2 mode) */
  const ios_params_t *sharing_params;
  int v2; /* window.mode v2: switch to the scenario's policy at t_begin */
  /* job queue */
  const ios_workload_t *w;
  ios_app_view_t *app_views;       /* [napps] what allocation and placement policies know of each application (owned) */
  ios_profile_t *profiles;         /* [napps] the true b_j(n) the simulation uses (owned) */
  ios_profile_t *seen;             /* [napps] the b_j(n) the policies see (RR-9549 §6.2 knowledge) */
  int *alloc_n;                    /* [napps] resources allocated to each application at the start */
  double seg_bytes, limited_bytes; /* bytes of flow segments at a policy's rate, and of those the platform slowed */
  int ops_pending;                 /* I/O operations posted and not complete, every application together */
  double io_busy_since, io_busy_s; /* s: when ops_pending last left 0; the time it was above 0 until then */
  int direct;   /* the transfer layer's direct path (ios_transfer.h): no link can bind the policy's rates */
  int trace;    /* SimGrid's tracer records the run: each segment goes into its route's link variables */
  double clock; /* s: the simulated date (sim_now), written by the calendar only */
  /* The objects the engine owns, one per module, each NULL before its init and after its teardown. */
  struct sim_state *state;
  struct sim_calendar *cal;
  struct sim_controller *ctl;
  struct sim_queue *queue;
  struct sim_striping *striping;
  struct sim_bound *bound;
  struct sim_alone *alone;
  struct sim_traces *traces;
  ios_tr_t *tr; /* the transfer layer (ios_transfer.h), started by the set-up once the path is chosen (setup.c) */
  ios_sg_t *sg; /* the SimGrid glue's state of the run (ios_sg.h: flows, the maestro's driver, the watch, caches) */
} engine_t;

/** s: the simulated date (engine_t.clock), written by the calendar only (calendar.c): its own date on the direct path,
 * or SimGrid's clock as it was when the calendar last went to a new date. */
static inline double sim_now(const engine_t *e) {
  return e->clock;
}

#endif
