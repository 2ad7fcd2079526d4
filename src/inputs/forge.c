/* iosim — the FORGE MareNostrum 4 profiles reader (IPDPS'21 §2, Bez et al.; see ios_workload.h). */
#include "ios_workload.h"
#include "ios_csv.h"
#include "ios_diag.h"
#include "ios_value.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0

/* The FORGE CSV's columns: clients (compute nodes), then five we skip, then the bandwidths in MiB/s. */
static const ios_num_spec_t spec_clients = {1, 1e6, 0, 1, IOS_UNIT_NONE, "clients: the pattern's compute nodes"};
static const ios_num_spec_t spec_any = {-1e300, 1e300, 0, 0, IOS_UNIT_NONE, "a number"};
static const ios_num_spec_t spec_procs = {
    1, 1e9, 0, 1, IOS_UNIT_NONE, "processes: the pattern's MPI processes (IPDPS'21 PROCESS policy)"};
static const ios_num_spec_t spec_mib = {
    0, 1e12, 1, 0, IOS_UNIT_NONE, "a measured bandwidth in MiB/s (a pattern that moved no data has no profile)"};

int ios_read_forge(const char *file, int *count, int **nodes_out, ios_profile_t **profiles_out) {
  return ios_read_forge_processes(file, count, nodes_out, NULL, profiles_out);
}

int ios_read_forge_processes(const char *file, int *count, int **nodes_out, int **processes_out,
                             ios_profile_t **profiles_out) {
  static const int counts[5] = {0, 1, 2, 4, 8};
  static const char *const names[11] = {"clients", "processes", "layout",  "spatiality", "request_KiB", "odirect",
                                        "bw_0ion", "bw_1ion",   "bw_2ion", "bw_4ion",    "bw_8ion"};
  FILE *f = ios_open_dataset(file, "workload.generator.profiles", "FORGE profiles", "bez-forge-evaluation");
  if (f == NULL) return IOS_EIO;
  char *line = NULL;
  size_t cap = 0;
  int n = 0, lineno = 0, rc = IOS_OK, room = 0;
  int *nodes = NULL, *procs = NULL;
  ios_profile_t *prof = NULL;
  while (rc == IOS_OK && getline(&line, &cap, f) != -1) {
    if (++lineno == 1) continue; /* header */
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0') continue; /* blank line */
    double v[11];
    char *cells[11];
    int ncells = ios_csv_split(line, cells, 11), k = 0;
    for (; k < ncells && rc == IOS_OK; k++) {
      const char *cell = cells[k];
      char where[64];
      snprintf(where, sizeof where, "line %d, column %s", lineno, names[k]);
      rc = ios_value_number_text(cell,
                                 k == 0   ? &spec_clients
                                 : k == 1 ? &spec_procs
                                 : k >= 6 ? &spec_mib
                                          : &spec_any,
                                 file, where, &v[k]);
    }
    if (rc != IOS_OK) break;
    if (k < 11) { /* more columns (n_reps_0/1/2/4/8) are ignored */
      char where[32];
      snprintf(where, sizeof where, "line %d", lineno);
      ios_diag_set(file, where,
                   "has %d columns, expected 11 numeric columns (clients .. bw_8ion) first: is this the FORGE "
                   "per-pattern mean CSV mn4_189_patterns_mean_bw_by_ionodes.csv?",
                   k);
      rc = IOS_EINVAL;
      break;
    }
    if (n == room) {
      room = room ? 2 * room : 256;
      int *nn = room <= 10000000 ? realloc(nodes, sizeof *nn * (size_t)room) : NULL;
      if (nn) nodes = nn;
      int *np = nn ? realloc(procs, sizeof *np * (size_t)room) : NULL;
      if (np) procs = np;
      ios_profile_t *pp = np ? realloc(prof, sizeof *pp * (size_t)room) : NULL;
      if (pp == NULL) {
        rc = IOS_ENOMEM;
        break;
      }
      prof = pp;
    }
    nodes[n] = (int)v[0];
    procs[n] = (int)v[1];
    memset(&prof[n], 0, sizeof prof[n]);
    for (int i = 0; i < 5; i++) {
      prof[n].n[i] = counts[i];
      prof[n].bw[i] = v[6 + i] * MIB;
    }
    prof[n].npoints = 5;
    n++;
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && n == 0) {
    ios_diag_set(file, NULL, "no pattern in the FORGE profile file");
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    free(nodes);
    free(procs);
    free(prof);
    return rc;
  }
  *count = n;
  *nodes_out = nodes;
  if (processes_out != NULL)
    *processes_out = procs;
  else
    free(procs);
  *profiles_out = prof;
  return IOS_OK;
}
