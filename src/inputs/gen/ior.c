/* iosim — IOR-like striping experiments (see ios_gen_ior.h). */
#include "ios_gen_ior.h"
#include "ios_diag.h"
#include "ios_gen.h"
#include "ios_striping.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_NODES, P_BYTES, P_WRITES, P_BG, P_BG_NODES, P_BG_BYTES, P_BG_WRITES, P_SHARED, P_WPN, NPARAMS };

static const ios_gen_param_t params[NPARAMS] = {
    {"nodes", 32, 1, 1e6, 0, 1, "compute nodes of the measured job (writers_per_node writers each)"},
    {"bytes_per_writer", 1e9, 0, 1e15, 1, 0, "bytes each writer of the measured job writes per write phase"},
    {"writes", 3, 1, 1e4, 0, 1, "write phases of the measured job (IOR repetitions)"},
    {"background", 4, 0, 1e4, 0, 1, "background jobs writing at the same time"},
    {"background_nodes", 8, 1, 1e6, 0, 1, "writers of each background job"},
    {"background_bytes_per_writer", 1e9, 0, 1e15, 1, 0, "bytes per writer per write phase of a background job"},
    {"background_writes", 6, 1, 1e4, 0, 1, "write phases of each background job"},
    {"shared_files", 1, 1, 1e6, 0, 1,
     "shared files M of the measured job with striping.layout ssf (TAPP-IO §III.A case 3, N:M; 1 = one file)"},
    {"writers_per_node", 1, 1, 1024, 0, 1,
     "writers (MPI processes) of the measured job per compute node; they share the node's NIC equally"},
};
static const char *const string_params[] = {"background_striping", NULL};

/* Appends a job of `nodes` nodes of `wpn` writers each, `writes` I/O phases of nodes × wpn × bytes bytes. */
static int add_job(ios_workload_t *w, const char *name, int nodes, int wpn, double bytes, int writes,
                   const char *striping) {
  ios_app_t *a = ios_workload_add(w);
  if (a == NULL || (a->name = strdup(name)) == NULL || (a->phases = malloc(sizeof *a->phases * (size_t)writes)) == NULL)
    return IOS_ENOMEM;
  a->nodes = nodes;
  a->processes = wpn > 1 ? nodes * wpn : 0;
  for (int k = 0; k < writes; k++)
    a->phases[a->nphases++] = (ios_phase_t){bytes * nodes * wpn, 1};
  if (striping != NULL) {
    snprintf(a->striping, sizeof a->striping, "%s", striping);
    a->layout = 0; /* background jobs: one file per process */
  }
  return IOS_OK;
}

int ios_ior_generate(const cJSON *g, const char *file, ios_workload_t *out) {
  ios_gen_ctx_t c = {file, "workload.generator", "."};
  double v[NPARAMS];
  int rc = ios_gen_read_params(g, &c, "ior", params, NPARAMS, string_params, v);
  if (rc != IOS_OK) return rc;
  const cJSON *bs = cJSON_GetObjectItemCaseSensitive(g, "background_striping");
  const char *bg = bs == NULL ? "optimized-striping" : cJSON_IsString(bs) ? bs->valuestring : "";
  if (ios_striping_find(bg) == NULL) {
    char names[128];
    ios_diag_set(file, "workload.generator.background_striping", "must name a striping policy: %s",
                 ios_policy_names(IOS_FAMILY_STRIPING, names, sizeof names));
    return IOS_EINVAL;
  }
  if (v[P_WRITES] + v[P_BG] * v[P_BG_WRITES] > 5e7) {
    ios_diag_set(file, "workload.generator.background_writes",
                 "is %g: %g background jobs of %g writes would hold more than 5e7 I/O phases; lower background or "
                 "background_writes",
                 v[P_BG_WRITES], v[P_BG], v[P_BG_WRITES]);
    return IOS_EINVAL;
  }
  double writers = v[P_NODES] * v[P_WPN];
  if (writers > 1e8) {
    ios_diag_set(file, "workload.generator.writers_per_node",
                 "is %g: %g nodes x %g writers per node is more than 1e8 writers; lower nodes or writers_per_node",
                 v[P_WPN], v[P_NODES], v[P_WPN]);
    return IOS_EINVAL;
  }
  if (v[P_SHARED] > writers) {
    ios_diag_set(file, "workload.generator.shared_files",
                 "is %g: %g writers (nodes x writers_per_node) cannot write %g shared files, each needs a writer; give "
                 "at most %g",
                 v[P_SHARED], writers, v[P_SHARED], writers);
    return IOS_EINVAL;
  }
  ios_workload_t w = {0};
  rc = add_job(&w, "ior", (int)v[P_NODES], (int)v[P_WPN], v[P_BYTES], (int)v[P_WRITES], NULL);
  if (rc == IOS_OK) w.apps[0].shared_files = (int)v[P_SHARED];
  for (int k = 0; rc == IOS_OK && k < (int)v[P_BG]; k++) {
    char name[32];
    snprintf(name, sizeof name, "bg-%d", k + 1);
    rc = add_job(&w, name, (int)v[P_BG_NODES], 1, v[P_BG_BYTES], (int)v[P_BG_WRITES], bg);
  }
  if (rc == IOS_OK && (rc = ios_gen_append(out, &w)) == IOS_OK) return IOS_OK;
  ios_workload_free(&w);
  return rc;
}

static int scenario_build(const cJSON *g, const char *file, const ios_platform_t *p, uint64_t seed, ios_workload_t *w) {
  (void)p, (void)seed;
  return ios_ior_generate(g, file, w);
}

const ios_gen_kind_t ios_gen_ior = {
    .kind = "ior",
    .summary = "TAPP-IO §5: IOR-like writers (file per process or one shared file) for the striping policies",
    .scenario = scenario_build,
};
