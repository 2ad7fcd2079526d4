/* iosim — the engine's configuration (see ios_engine.h): from a scenario, or for a replay of storage requests. */
#include "ios_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int env_is(const char *name, const char *value) {
  const char *v = getenv(name);
  return v != NULL && strcmp(v, value) == 0;
}

void ios_sim_bench_from_env(ios_sim_bench_t *b) {
  memset(b, 0, sizeof *b);
  b->flow_groups_off = env_is("IOSIM_FLOW_GROUPS", "0");
  b->flow_restart = env_is("IOSIM_FLOW_RERATE", "restart");
  b->node_groups_off = env_is("IOSIM_NODE_GROUPS", "0");
  b->simgrid_clock = env_is("IOSIM_SIMGRID_CLOCK", "1");
  b->no_timeline = env_is("IOSIM_TIMELINE", "0");
  b->fault = getenv("IOSIM_FAULT");
}

void ios_sim_config_from_scenario(const ios_scenario_t *s, ios_sim_config_t *c) {
  memset(c, 0, sizeof *c);
  c->file = s->file;
  c->platform = s->platform;
  c->allocation = s->allocation;
  c->allocation_params = s->allocation_params;
  c->placement = s->placement;
  c->placement_params = s->placement_params;
  c->sharing = s->sharing;
  c->sharing_params = s->sharing_params;
  c->striping = s->striping;
  c->striping_params = s->striping_params;
  c->striping_layout = s->striping_layout;
  c->striping_scope = s->striping_scope;
  c->window_fraction = s->window_fraction;
  c->window_begin = s->window_begin;
  c->window_end = s->window_end;
  c->stop_at_end = s->stop_at_end;
  c->window_v2 = s->window_v2;
  c->tick_s = s->tick_s;
  c->flows_simgrid = s->flows_simgrid;
  c->queue = s->queue;
  c->backfill = s->backfill;
  c->rearbitrate = s->rearbitrate;
  c->group_fit = s->group_fit;
  c->fit_over_workload = s->fit_over_workload;
  c->fit_degree = s->fit_degree;
  c->fit_flat = s->fit_flat;
  c->knowledge_noise = s->knowledge_noise;
  c->seed = s->seed;
  c->out_dir = s->out_dir;
  c->events = s->events;
  c->progress = s->progress;
  ios_sim_bench_from_env(&c->bench);
}

void ios_sim_config_replay(const ios_scenario_t *s, ios_sim_config_t *c) {
  ios_sim_config_from_scenario(s, c);
  c->replay = 1;
  c->queue = 0;
  c->striping = NULL;
  c->sharing = ios_sharing_find("maxmin");
  memset(&c->sharing_params, 0, sizeof c->sharing_params);
  c->window_begin = c->window_end = NAN;
  c->window_v2 = 0;
  c->stop_at_end = 0;
}
