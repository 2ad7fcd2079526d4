/* iosim — the engine's state and the functions its files call in one another (src/sim/ only; not a public header).
 * The engine's state (engine_t) is passed explicitly to every function that reads it; the façade (engine.c) owns the
 * one instance of a run (SimGrid allows one simulation per process). Each module keeps its own state private to its
 * file (the controller's events, the calendar's wake-ups, the queue, striping, the traces, the failure record). */
#ifndef IOS_SIM_ENGINE_STATE_H
#define IOS_SIM_ENGINE_STATE_H

#include "ios_fs.h"
#include "ios_engine.h"
#include "ios_arbiter.h"
#include "ios_clock.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_knowledge.h"
#include "ios_sg.h"
#include "ios_sg_platform.h"
#include "ios_striping.h"
#include "ios_transfer.h"
#include "ios_wakeups.h"
#include "ios_window.h"

#include <errno.h>
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xbt/asserts.h>
#include <xbt/log.h>

enum { EV_POST, EV_COMPLETE, EV_APP_END, EV_SNAPSHOT_BEGIN, EV_SNAPSHOT_END, EV_TICK, EV_SUBMIT, EV_BEGIN };
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
  double ded_io;    /* s: Σ volume/b over completed operations (b of each operation's allocation) */
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

typedef struct {
  int type, app;
  transfer_t *t;
  unsigned gen;
} event_t;

typedef struct {
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
  int direct;   /* the transfer layer's direct path (ios_transfer.h): no link can bind the policy's rates */
  int trace;    /* SimGrid's tracer records the run: each segment goes into its route's link variables */
  double clock; /* s: the simulated date (sim_now), written by the calendar only */
} engine_t;

/* The applications' steps (app_advance): sleep for a work phase, wait for an I/O operation, or done. */
enum { APP_SLEEP, APP_WAIT, APP_DONE };
/* Calendar entries: an application to resume, the window's snapshots, a periodic tick, a job's submission. */
enum { CAL_APP, CAL_SNAP_BEGIN, CAL_SNAP_END, CAL_TICK, CAL_SUBMIT, CAL_BEGIN };
typedef struct {
  double start, period; /* s: a grid of decision dates, start + k·period for k >= 1 */
} grid_t;

/** The hooks of the transfer layer (ios_transfer.h) into the engine. */
extern const ios_tr_hooks_t sim_tr_hooks;

/** s: the simulated date (engine_t.clock), written by the calendar only (calendar.c): its own date on the direct path,
 * or SimGrid's clock as it was when the calendar last went to a new date. */
static inline double sim_now(const engine_t *e) {
  return e->clock;
}

/* state.c: the failure record */
/** IOS_OK, or the code of the first failure sim_fail recorded. */
int sim_failure(void);
/** Records the first failure of a policy during the run (rc, and a message on scenario field `field`, followed by
 * the policy's own ios_diag_message()); the controller then stops the simulation and ios_engine_run returns rc. */
void sim_fail(int rc, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** The applications that go on after this batch's decisions: sim_resume(j) adds application j (each at most once per
 * batch: an operation completed, a job started); sim_resumed(&list) gives them to the calendar (their count; the list
 * stays valid until the next sim_resume) and empties the batch. sim_resume_init(napps) makes room (IOS_OK or
 * IOS_ENOMEM); sim_resume_init(-1) frees it. */
int sim_resume_init(int napps);
void sim_resume(int j);
int sim_resumed(const int **list);

/** Fault injection, for the tests of the failure path: the environment variable IOSIM_FAULT=SITE:K (read by
 * sim_fault_init at set-up, from the benchmark switches ios_sim_config_t.bench) makes the K-th policy call at SITE fail
 * as if the policy had run out of memory. */
enum { SIM_FAULT_NONE, SIM_FAULT_SHARING, SIM_FAULT_STRIPING, SIM_FAULT_ARBITRATION };
void sim_fault_init(const ios_sim_config_t *s);
/** Whether this call at `site` (SIM_FAULT_*) is the one IOSIM_FAULT makes fail. */
int sim_fault(int site);

/* controller.c: the controller's events and decisions through the sharing policy, snapshots, periodic ticks */
void sim_push_event(int type, int app, transfer_t *t, unsigned gen);
void sim_progress_line(engine_t *e, int force);
/** The progress line's last one, when the run showed any. */
void sim_progress_end(engine_t *e);
/** Frees the controller's state (its events and decision buffers). */
void sim_controller_free(void);
void sim_handle_events(engine_t *e);
void sim_decide_all(engine_t *e);
/** Events waiting for the controller (sim_handle_events). */
int sim_events_pending(void);
/** Stops every running flow (the run ends with transfers in progress: the window's end, a failure). */
void sim_stop_transfers(engine_t *e);

/* setup.c, results.c: a run's set-up and its results (the engine façade, engine.c, calls them) */
/** Sets the run up from E's configuration, platform and workload. @return IOS_OK, IOS_EINVAL (with a message),
 * IOS_EIO or IOS_ENOMEM. */
int sim_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);
/** Fills E.r once the simulation has ended and closes the traces. @return IOS_OK or IOS_EIO. */
int sim_collect(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);

/* striping.c: striping (TAPP-IO §III), its own state */
/** The striping of the run (scenario `striping`, or an application's own): the platform's regular oss-ost topology,
 * the usage state(s), each striped application's policy, parameters and layout (E.apps[j].stripe, stripe_params,
 * layout). @return IOS_OK, IOS_EINVAL (with a message: not an oss-ost platform, an unknown policy, a layout that
 * contradicts the workload) or IOS_ENOMEM. */
int sim_striping_setup(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, const ios_workload_t *w);
/** Transfers a striped application needs at most (see striping.c). */
long sim_striping_room(const ios_sim_config_t *s, const ios_platform_t *p, const app_state_t *as);
/** Application j's I/O operation of `volume` bytes placed by its striping policy: as->t[0..ntransfers) set (app, res,
 * volume, host) and as->ost_used marked; a failure is recorded with sim_fail. */
void sim_striping_place(engine_t *e, int j, double volume);
/** Frees the striping state. */
void sim_striping_free(void);

/* traces.c: events.csv and allocations.csv */
const char *sim_res_name(const ios_platform_t *p, int res);
void sim_ev_row(engine_t *e, int app, const char *kind, const char *resource, double t0, double t1, double bytes);
void sim_ev_io_row(engine_t *e, const app_state_t *as, double volume);
/* A transfer segment's row (events.csv or timeline.bin): t from its segment's start to t1, having moved `bytes`. */
void sim_segment_row(engine_t *e, const transfer_t *t, double t1, double bytes);
void sim_al_row(const engine_t *e, const app_state_t *as, double t0, double t1);
int sim_open_traces(engine_t *e, const ios_sim_config_t *s);
int sim_close_traces(void);
/** Whether segment rows are written (events.csv or timeline.bin is open). */
int sim_segment_rows(void);
/** Removes the traces still being written (a run that failed or never ran). */
void sim_traces_discard(void);
/** SimGrid's trace (docs/trace.md): one link variable per application, "b" + its name, declared when SimGrid's tracer
 * records the run (sets E.trace). @return IOS_OK, or IOS_EINVAL/IOS_EIO with a message. */
int sim_trace_setup(engine_t *e, const ios_sim_config_t *s);
/** SimGrid's trace: a segment of transfer t that moved `bytes` from t->seg_start to now, at its mean rate, on the
 * shared links of its route. */
void sim_trace_segment(engine_t *e, const transfer_t *t, double bytes);
/** SimGrid's trace, when the run stops at the window's end: the segments still running, up to now (events.csv leaves
 * them out). */
void sim_trace_running(engine_t *e);

/* queue.c: the job queue and re-arbitration (IPDPS'21 §5.3), its own state */
/** The queue of a run with scenario `queue`: every compute node free; `keep_running`: running jobs keep their
 * resources at re-arbitration. @return IOS_OK or IOS_ENOMEM. */
int sim_queue_setup(const ios_platform_t *p, int napps, int keep_running);
void sim_queue_free(void);
/** A running job has ended: its compute nodes are free, and the running set changed. */
void sim_queue_job_ended(engine_t *e, app_state_t *as);
/** An external application begins now on the compute hosts already in as->hosts: the running set changed. */
void sim_queue_begin(engine_t *e, app_state_t *as);
void sim_apply_alloc(engine_t *e, app_state_t *as);
void sim_schedule_jobs(engine_t *e);
void sim_on_submit(engine_t *e, int j);

/* apps.c: the applications' steps */
/** The compute hosts application `as` runs on now, into as->nodes (its nodes in order: its queue's hosts, else its
 * consecutive block from host0). @return how many its I/O leaves from: a.nodes, or 1 (a replayed request, one node, or
 * no room), when as->host alone is used. */
static inline int sim_app_nodes(engine_t *e, app_state_t *as) {
  if (e->s->replay || as->nodes == NULL || as->a->nodes <= 1) return 1;
  for (int k = 0; k < as->a->nodes; k++)
    as->nodes[k] = e->p->compute[as->q.hosts != NULL ? as->q.hosts[k] : as->host0 + k];
  return as->a->nodes;
}
int sim_app_advance(engine_t *e, app_state_t *as, double *sleep_s);
/** An application and its start (s), sorted by sim_cmp_start: by start, then by index. */
typedef struct {
  double start;
  int app;
} sim_start_t;
int sim_cmp_start(const void *pa, const void *pb);

/* calendar.c: the dates of the run, its own state: the calendar of dated wake-ups, the clock, what drives the run from
 * date to date (the direct path's controller actor, or SimGrid's maestro on the flow path) */
/** Resets the calendar; `own_clock`: the direct path keeps the date itself (else SimGrid's clock). */
void sim_calendar_init(engine_t *e, int own_clock);
/** The first wake-ups (each application's start, or a queued job's submission; the window's snapshots; the decision
 * grids) and what will run them. @return IOS_OK or IOS_ENOMEM. */
int sim_calendar_start(engine_t *e, const ios_sim_config_t *s, const ios_platform_t *p, int napps);
void sim_calendar_free(void);
/** A wake-up at `date` (s) of kind CAL_* about `idx` (an application, a grid, or -1). */
void sim_cal_push(double date, int kind, int idx);
void sim_controller_actor(int argc, char **argv);
void sim_flow_step(void);

/* bound.c: credits the interval since the previous call to what bound each application with I/O pending (call at a
 * date's start, before anything changes); its apps.csv result; its reset for a new run. */
void sim_bound_account(engine_t *e);
void sim_bound_result(const app_state_t *as, ios_app_result_t *ar);
void sim_bound_reset(void);

#endif
