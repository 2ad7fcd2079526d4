/* examples/c-scenario: a small campaign driver in C over libiosim's scenario face (include/iosim/scenario.h): one
 * scenario given as JSON text, run under three sharing policies (one of them a C function registered at run time),
 * each run in its own forked child, the results read back; then a scenario with a mistake, refused with the message
 * `iosim run` gives. Every number it prints is computed by hand in README.md.
 * usage: c-scenario OUTPUT_DIR */
#include <iosim/iosim.h>

#include <stdio.h>
#include <stdlib.h>

/* B·p_i / Σp for each transfer, at most its cap: a weighted proportional share (README.md). */
static int weighted_by_nodes(const iosim_share_view_t *view, const iosim_params_t *params, double *rates, void *user) {
  (void)params;
  (void)user;
  int n = iosim_share_view_count(view);
  double total = 0;
  for (int i = 0; i < n; i++)
    total += iosim_share_view_get(view, i, IOSIM_T_NODES);
  for (int i = 0; i < n; i++) {
    double share = iosim_share_view_capacity(view) * iosim_share_view_get(view, i, IOSIM_T_NODES) / total;
    double cap = iosim_share_view_get(view, i, IOSIM_T_CAP);
    rates[i] = share < cap ? share : cap;
  }
  return 0;
}

static const char scenario[] =
    "{\"platform\": {\"kind\": \"pfs-single\", \"compute\": 4, \"pfs_bw\": \"1GBps\", \"nic_bw\": \"10GBps\"},"
    " \"workload\": {\"applications\": ["
    "  {\"name\": \"small\", \"nodes\": 1, \"release\": 0, \"iterations\": 1, \"work\": \"1s\", \"io\": \"1GB\"},"
    "  {\"name\": \"large\", \"nodes\": 3, \"release\": 0, \"iterations\": 1, \"work\": \"1s\", \"io\": \"1GB\"}]},"
    " \"allocation\": {\"policy\": \"fixed\"}, \"placement\": {\"policy\": \"random\"}, \"seed\": 1}";

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c-scenario OUTPUT_DIR\n");
    return 2;
  }
  if (iosim_sharing_register("weighted-nodes", "B * p_i / sum(p), capped", "examples/c-scenario", 0, 0, NULL, NULL,
                             weighted_by_nodes, NULL) == NULL) {
    fprintf(stderr, "c-scenario: %s\n", iosim_error());
    return 1;
  }
  const char *policies[3] = {"fairshare", "fcfs", "weighted-nodes"};
  for (int k = 0; k < 3; k++) {
    char set_policy[64], set_dir[4200];
    snprintf(set_policy, sizeof set_policy, "sharing.policy=%s", policies[k]);
    snprintf(set_dir, sizeof set_dir, "output.dir=%s/%s", argv[1], policies[k]);
    const char *sets[2] = {set_policy, set_dir};
    iosim_scenario_t *s = NULL;
    iosim_results_t *r = NULL;
    if (iosim_scenario_parse(scenario, "c-scenario", NULL, 2, sets, &s) != IOSIM_OK ||
        iosim_scenario_run(s, 0, 0, NULL, &r) != IOSIM_OK) {
      fprintf(stderr, "c-scenario: %s\n", iosim_error());
      return 1;
    }
    double makespan;
    iosim_results_metric(r, "makespan_s", &makespan);
    printf("%-14s %s, makespan %.4f s; I/O time", policies[k], iosim_results_status(r), makespan);
    for (int j = 0; j < iosim_results_app_count(r); j++) {
      double io;
      iosim_results_app_value(r, j, "io_time_s", &io);
      printf(" %s %.4f s", iosim_results_app_text(r, j, "name"), io);
    }
    printf("\n");
    iosim_results_free(r);
    iosim_scenario_free(s);
  }
  const char *bad[1] = {"sharing.delta_s=5"};
  iosim_scenario_t *s = NULL;
  int rc = iosim_scenario_parse(scenario, "c-scenario", NULL, 1, bad, &s);
  printf("refused (%d): %s\n", rc, iosim_error());
  return rc == IOSIM_EINVAL ? 0 : 1;
}
