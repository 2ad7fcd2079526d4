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

/* The patterns read so far: their compute nodes, processes and profiles (arrays of n, room allocated, owned). */
typedef struct {
  int n, room;
  int *nodes, *procs;
  ios_profile_t *prof;
} patterns_t;

/* Reads the 11 numeric columns (clients .. bw_8ion) of data line `lineno` into v; more columns are ignored. */
static int read_row(char *line, int lineno, const char *file, double v[11]) {
  static const char *const names[11] = {"clients", "processes", "layout",  "spatiality", "request_KiB", "odirect",
                                        "bw_0ion", "bw_1ion",   "bw_2ion", "bw_4ion",    "bw_8ion"};
  char *cells[11];
  int ncells = ios_csv_split(line, cells, 11), k = 0, rc = IOS_OK;
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
  if (rc != IOS_OK) return rc;
  if (k < 11) { /* more columns (n_reps_0/1/2/4/8) are ignored */
    char where[32];
    snprintf(where, sizeof where, "line %d", lineno);
    ios_diag_set(file, where,
                 "has %d columns, expected 11 numeric columns (clients .. bw_8ion) first: is this the FORGE "
                 "per-pattern mean CSV mn4_189_patterns_mean_bw_by_ionodes.csv?",
                 k);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

/* Appends the pattern of row v: its clients, processes and the profile b(n) at n = 0, 1, 2, 4, 8 I/O nodes in B/s. */
static int add_pattern(patterns_t *pt, const double v[11]) {
  static const int counts[5] = {0, 1, 2, 4, 8};
  if (pt->n == pt->room) {
    pt->room = pt->room ? 2 * pt->room : 256;
    int *nn = pt->room <= 10000000 ? realloc(pt->nodes, sizeof *nn * (size_t)pt->room) : NULL;
    if (nn) pt->nodes = nn;
    int *np = nn ? realloc(pt->procs, sizeof *np * (size_t)pt->room) : NULL;
    if (np) pt->procs = np;
    ios_profile_t *pp = np ? realloc(pt->prof, sizeof *pp * (size_t)pt->room) : NULL;
    if (pp == NULL) return IOS_ENOMEM;
    pt->prof = pp;
  }
  int n = pt->n;
  pt->nodes[n] = (int)v[0];
  pt->procs[n] = (int)v[1];
  memset(&pt->prof[n], 0, sizeof pt->prof[n]);
  for (int i = 0; i < 5; i++) {
    pt->prof[n].n[i] = counts[i];
    pt->prof[n].bw[i] = v[6 + i] * MIB;
  }
  pt->prof[n].npoints = 5;
  pt->n++;
  return IOS_OK;
}

int ios_read_forge_processes(const char *file, int *count, int **nodes_out, int **processes_out,
                             ios_profile_t **profiles_out) {
  FILE *f = ios_open_dataset(file, "workload.generator.profiles", "FORGE profiles", "bez-forge-evaluation");
  if (f == NULL) return IOS_EIO;
  char *line = NULL;
  size_t cap = 0;
  int lineno = 0, rc = IOS_OK;
  patterns_t pt = {0, 0, NULL, NULL, NULL};
  while (rc == IOS_OK && getline(&line, &cap, f) != -1) {
    if (++lineno == 1) continue; /* header */
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t")] == '\0') continue; /* blank line */
    double v[11];
    rc = read_row(line, lineno, file, v);
    if (rc == IOS_OK) rc = add_pattern(&pt, v);
  }
  free(line);
  fclose(f);
  if (rc == IOS_OK && pt.n == 0) {
    ios_diag_set(file, NULL, "no pattern in the FORGE profile file");
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    free(pt.nodes);
    free(pt.procs);
    free(pt.prof);
    return rc;
  }
  *count = pt.n;
  *nodes_out = pt.nodes;
  if (processes_out != NULL)
    *processes_out = pt.procs;
  else
    free(pt.procs);
  *profiles_out = pt.prof;
  return IOS_OK;
}
