/* iosim — what a job's I/O operation takes alone on the platform (alone.c; src/sim/ only): the reference b_i of its
 * yield and ρ (docs/outputs.md, "The reference bandwidth b_i"). Its state is the engine's (engine_t.alone): one
 * answer kept per application, reused while its operations keep the same shape (resources, sources, shares, caps). */
#ifndef IOS_SIM_ALONE_H
#define IOS_SIM_ALONE_H

#include "sim_core.h"

/** Makes the module's state (nothing solved yet). @return IOS_OK or IOS_ENOMEM. */
int sim_alone_init(engine_t *e);
/** Frees it (safe when sim_alone_init failed or was not called). */
void sim_alone_fini(engine_t *e);

/** s: the time application as's operation of `volume` bytes, whose transfers as->t[0 .. as->ntransfers) have just
 * been set up (bytes, caps, sources, destinations), takes with the platform to itself: the weighted max-min solve
 * (ios_maxmin_makespan) of its flows — one per transfer and source node, weighing 1/nsrc as the flow path's legs do,
 * each capped by its part of the transfer's cap — over the links of their routes (flow path; a FATPIPE link bounds
 * each flow alone) and the capacities of their resources, plus the longest route latency; at least volume / as->b
 * (the job's own b_j(n) for the resources it uses: a measured profile caps it). 0 for no bytes. Out of memory: the
 * failure is recorded (sim_fail) and volume / as->b returned. */
double sim_alone_op(engine_t *e, app_state_t *as, double volume);

#endif
