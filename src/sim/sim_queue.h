/* iosim — the job queue and re-arbitration (queue.c; IPDPS'21 §5.3; src/sim/ only): FIFO submission, start on free
 * compute nodes, re-arbitration of allocation and placement over the running jobs. Its state is the engine's
 * (engine_t.queue). */
#ifndef IOS_SIM_QUEUE_H
#define IOS_SIM_QUEUE_H

#include "sim_core.h"

/** Makes the queue's state, empty (a run without a queue keeps it so). @return IOS_OK or IOS_ENOMEM. */
int sim_queue_init(engine_t *e);
/** Frees it (safe when sim_queue_init failed or was not called). */
void sim_queue_fini(engine_t *e);

/** The queue of a run with scenario `queue`: every compute node free; `keep_running`: running jobs keep their
 * resources at re-arbitration. @return IOS_OK or IOS_ENOMEM. */
int sim_queue_setup(engine_t *e, int keep_running);
/** A running job has ended: its compute nodes are free, and the running set changed. */
void sim_queue_job_ended(engine_t *e, app_state_t *as);
/** An external application begins now on the compute hosts already in as->hosts: the running set changed. */
void sim_queue_begin(engine_t *e, app_state_t *as);
/** Makes the pending allocation the application's own (its resources, b_j(n) and per-transfer cap). */
void sim_apply_alloc(engine_t *e, app_state_t *as);
/** Starts the waiting jobs that fit, in queue order (the head blocks the others unless backfilling), re-arbitrates
 * when the running set changed, then lets the started jobs run (after this batch's decisions). */
void sim_schedule_jobs(engine_t *e);
/** A submitted job joins the queue, behind the jobs submitted before it (ties: workload order). */
void sim_on_submit(engine_t *e, int j);

#endif
