/* iosim — Darshan logs as a workload: one application per log (see ios_darshan.h; what is read and what is assumed
 * is in docs/darshan.md). */
#include "ios_darshan.h"
#include "ios_rng.h"
#include "ios_striping.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_scenario.h"
#include "ios_value.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* As workload.c: one application holds at most 5·10^7 phases; at most 10^6 logs are read. */
#define MAX_PHASES 50000000
#define MAX_LOGS 1000000

ios_darshan_options_t ios_darshan_options_default(void) {
  return (ios_darshan_options_t){32, 0.01, 0, 3, 0, 0, -1, -2, NULL, 1, 0};
}

/* ---------------------------------------------------------------- which counters */

/* The counter modules whose bytes reach the storage, each byte once (docs/darshan.md): the base module, STDIO, and
 * DFS, or DAOS when the log has no DFS module (DFS files are DAOS arrays: DFS calls reach DAOS, so the two never add).
 * The base module is POSIX; MPI-IO (whose calls reach the file system through POSIX, so the two never add either) in
 * its place when POSIX is flagged incomplete and MPI-IO is not, or when the log has no POSIX module nor DFS or DAOS
 * (MPI-IO then went to the file system through a driver Darshan does not see; with DFS or DAOS, it went through them);
 * of two incomplete ones, the one that moved more bytes. *base receives IOS_DARSHAN_POSIX, IOS_DARSHAN_MPIIO or -1
 * (none). @return how many modules `out` holds (at most 3). */
static int sources(const ios_darshan_log_t *log, int *base, const ios_darshan_module_t *out[3]) {
  const ios_darshan_module_t *P = &log->module[IOS_DARSHAN_POSIX], *M = &log->module[IOS_DARSHAN_MPIIO],
                             *D = &log->module[log->module[IOS_DARSHAN_DFS].version > 0 ? IOS_DARSHAN_DFS
                                                                                        : IOS_DARSHAN_DAOS];
  *base = -1;
  if (P->version > 0 && (!P->partial || M->version == 0))
    *base = IOS_DARSHAN_POSIX;
  else if (P->version > 0)
    *base = !M->partial || M->bytes_read + M->bytes_written > P->bytes_read + P->bytes_written ? IOS_DARSHAN_MPIIO
                                                                                               : IOS_DARSHAN_POSIX;
  else if (M->version > 0 && D->version == 0)
    *base = IOS_DARSHAN_MPIIO;
  int n = 0;
  if (*base >= 0) out[n++] = &log->module[*base];
  if (log->module[IOS_DARSHAN_STDIO].version > 0) out[n++] = &log->module[IOS_DARSHAN_STDIO];
  if (D->version > 0) out[n++] = D;
  return n;
}

/* ---------------------------------------------------------------- phases */

/* The phase list being built: work accumulates until an I/O phase (or the end) flushes it. */
typedef struct {
  ios_app_t *a;
  int cap;
  double work; /* pending work, s */
} builder_t;

static int push(builder_t *b, int kind, double value) {
  ios_app_t *a = b->a;
  if (a->nphases >= MAX_PHASES) return IOS_EINVAL;
  if (a->nphases == b->cap) {
    int ncap = b->cap ? 2 * b->cap : 8;
    ios_phase_t *ph = realloc(a->phases, sizeof *ph * (size_t)ncap);
    if (ph == NULL) return IOS_ENOMEM;
    a->phases = ph;
    b->cap = ncap;
  }
  a->phases[a->nphases++] = (ios_phase_t){value, kind};
  return IOS_OK;
}

static int flush_work(builder_t *b) {
  int rc = b->work > 0 ? push(b, IOS_PHASE_WORK, b->work) : IOS_OK;
  b->work = 0;
  return rc;
}

static int add_io(builder_t *b, int kind, double bytes) {
  if (!(bytes > 0)) return IOS_OK;
  int rc = flush_work(b);
  return rc == IOS_OK ? push(b, kind, bytes) : rc;
}

/* Phases from the counters. Per direction: volume V_d (the bytes of the modules of sources(): the base module, STDIO,
 * DFS or DAOS), I/O time t_d (the time by the slowest rank, summed over those modules, split between reads and writes
 * by their cumulative times) and start s_d (the first start of the module that moved most of V_d). The job runs [a]
 * V_1 [b] V_2 [c], the directions in the order they start, work a + b + c = runtime - t_1 - t_2: a = s_1, b = the time
 * from s_1 to s_2 not spent in V_1, c the rest (each clamped to what is left). */
static int counter_phases(const ios_darshan_log_t *log, builder_t *b) {
  const ios_darshan_module_t *src[3];
  int base, n = sources(log, &base, src);
  double vol[2] = {0, 0}, cum[2] = {0, 0}, t_io = 0, t[2], s[2];
  for (int k = 0; k < n; k++) {
    vol[0] += fmax(0, src[k]->bytes_read);
    vol[1] += fmax(0, src[k]->bytes_written);
    cum[0] += fmax(0, src[k]->read_time);
    cum[1] += fmax(0, src[k]->write_time);
    t_io += fmax(0, src[k]->time_by_slowest);
  }
  for (int d = 0; d < 2; d++) {
    double share = cum[0] + cum[1] > 0 ? cum[d] / (cum[0] + cum[1]) : vol[d] / fmax(vol[0] + vol[1], 1);
    t[d] = vol[d] > 0 ? t_io * share : 0;
    /* the start of the module that moved most of the bytes (a few bytes of STDIO logging must not move it) */
    const ios_darshan_module_t *most = NULL;
    for (int k = 0; k < n; k++)
      if (most == NULL ||
          (d == 0 ? src[k]->bytes_read > most->bytes_read : src[k]->bytes_written > most->bytes_written))
        most = src[k];
    s[d] = most == NULL ? 0 : fmax(0, d == 0 ? most->read_start : most->write_start);
  }
  int first = vol[0] > 0 && (vol[1] <= 0 || s[0] <= s[1]) ? 0 : 1, second = 1 - first;
  double W = fmax(0, log->runtime - t[0] - t[1]), left = W;
  b->work = fmin(s[first], left);
  left -= b->work;
  int rc = add_io(b, first == 0 ? IOS_PHASE_READ : IOS_PHASE_WRITE, vol[first]);
  double between = fmin(fmax(0, s[second] - s[first] - t[first]), left);
  if (rc == IOS_OK && vol[second] > 0) {
    b->work += between;
    left -= between;
    rc = add_io(b, second == 0 ? IOS_PHASE_READ : IOS_PHASE_WRITE, vol[second]);
  }
  b->work += left;
  return rc;
}

static int cmp_segment(const void *x, const void *y) {
  const ios_darshan_segment_t *a = x, *b = y;
  return (a->start > b->start) - (a->start < b->start);
}

/* Phases from the DXT trace: the union of every rank's segments, split into bursts wherever no segment runs for at
 * least merge_gap × runtime; a burst is one I/O phase per direction (the first one traced first) of the bytes its
 * segments moved; work phases are the time between bursts plus the idle time inside the previous burst, so that the
 * work adds up to the runtime minus the time some segment was running. */
static int dxt_phases(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, builder_t *b) {
  ios_darshan_segment_t *seg = malloc(sizeof *seg * (size_t)log->nsegments);
  if (seg == NULL) return IOS_ENOMEM;
  memcpy(seg, log->segments, sizeof *seg * (size_t)log->nsegments);
  qsort(seg, (size_t)log->nsegments, sizeof *seg, cmp_segment);
  double gap = opt->merge_gap * log->runtime, end = 0;
  int rc = IOS_OK;
  for (int i = 0; i < log->nsegments && rc == IOS_OK;) {
    double bs = fmax(seg[i].start, 0), be = fmax(seg[i].end, bs), busy = be - bs, bytes[2] = {0, 0};
    int first = seg[i].write;
    b->work += fmax(0, bs - end);
    int j = i;
    for (; j < log->nsegments && seg[j].start <= be + gap; j++) {
      double s0 = fmax(seg[j].start, be);
      busy += fmax(0, seg[j].end - s0);
      be = fmax(be, seg[j].end);
      bytes[seg[j].write] += (double)seg[j].length;
    }
    rc = add_io(b, first ? IOS_PHASE_WRITE : IOS_PHASE_READ, bytes[first]);
    if (rc == IOS_OK) rc = add_io(b, first ? IOS_PHASE_READ : IOS_PHASE_WRITE, bytes[!first]);
    b->work += fmax(0, (be - bs) - busy);
    end = be;
    i = j;
  }
  b->work += fmax(0, log->runtime - end);
  free(seg);
  return rc;
}

int ios_darshan_app(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, const char *label, ios_app_t *a,
                    int *from_dxt) {
  double nodes = ceil((double)log->nprocs / opt->ranks_per_node);
  if (log->dxt_hosts > 0 && log->dxt_ranks == log->nprocs)
    nodes = log->dxt_hosts; /* every rank is in the trace: its host names are the job's nodes */
  else if (log->dxt_hosts > nodes)
    nodes = log->dxt_hosts;
  a->nodes = (int)fmin(fmax(nodes, 1), 10000000);
  builder_t b = {a, 0, 0};
  *from_dxt = log->nsegments > 0 && !opt->phases_counters && !log->dxt_partial; /* a truncated trace: the counters */
  int rc = *from_dxt ? dxt_phases(log, opt, &b) : counter_phases(log, &b);
  if (rc == IOS_OK) rc = flush_work(&b);
  if (rc == IOS_OK && a->nphases == 0) rc = push(&b, IOS_PHASE_WORK, 0); /* no I/O and no time: one empty phase */
  if (rc == IOS_EINVAL)
    ios_diag_set(label, "workload.darshan.merge_gap",
                 "the DXT trace gives more than %d phases: raise merge_gap (bursts closer than merge_gap x runtime "
                 "merge) or use \"phases\": \"counters\"",
                 MAX_PHASES);
  return rc;
}

/* ---------------------------------------------------------------- logs, names, resources */

/* The application's name: the log's file name without ".darshan", characters other than letters, digits and
 * "._+-" replaced by '_' (names are CSV cells), made unique with "-2", "-3"... */
static char *app_name(const char *path, const ios_workload_t *w) {
  const char *base = strrchr(path, '/');
  base = base != NULL ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 8 && strcmp(base + n - 8, ".darshan") == 0) n -= 8;
  if (n > 200) n = 200;
  char name[224];
  for (size_t i = 0; i < n; i++) {
    char c = base[i];
    name[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("._+-", c) ? c : '_';
  }
  name[n] = '\0';
  if (n == 0) snprintf(name, sizeof name, "log");
  char unique[240];
  snprintf(unique, sizeof unique, "%s", name);
  for (int k = 2;; k++) {
    int used = 0;
    for (int j = 0; j < w->napps && !used; j++)
      used = strcmp(w->apps[j].name, unique) == 0;
    if (!used) break;
    snprintf(unique, sizeof unique, "%s-%d", name, k);
  }
  return strdup(unique);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The distinct OSTs of the files that moved data (every file's when none is known to). *out [*n] allocated (NULL when
 * the log has no Lustre layout). */
static int job_osts(const ios_darshan_log_t *log, int64_t **out, int *n) {
  int any = 0;
  size_t total = 0;
  for (int i = 0; i < log->nfiles; i++)
    any |= log->files[i].bytes > 0;
  for (int i = 0; i < log->nfiles; i++)
    if (!any || log->files[i].bytes > 0) total += (size_t)log->files[i].nosts;
  *out = NULL;
  *n = 0;
  if (total == 0) return IOS_OK;
  if (total > 50000000) return IOS_EINVAL;
  int64_t *o = malloc(sizeof *o * total);
  if (o == NULL) return IOS_ENOMEM;
  size_t k = 0;
  for (int i = 0; i < log->nfiles; i++)
    if (!any || log->files[i].bytes > 0)
      for (int j = 0; j < log->files[i].nosts; j++)
        o[k++] = log->files[i].osts[j];
  qsort(o, k, sizeof *o, cmp_i64);
  size_t u = 0;
  for (size_t i = 0; i < k; i++)
    if (u == 0 || o[i] != o[u - 1]) o[u++] = o[i];
  k = u;
  *out = o;
  *n = (int)k;
  return IOS_OK;
}

/* Lustre's round-robin OST order on the platform (lod_qos_calc_rr, as policies/striping/common.c's
 * ios_stripe_rr_order, for S servers of T OSTs each): OST s·T + j (the j-th OST of server s, natural name order) at
 * position j·S + s, so consecutive positions belong to different servers. A platform whose OSTs cannot be split
 * evenly over its servers keeps the natural order. order [nost]. */
static void rr_order(const ios_platform_t *p, int *order) {
  int N = p->nres, S = p->noss >= 1 && N % p->noss == 0 ? p->noss : 1, T = N / S;
  for (int s = 0; s < S; s++)
    for (int j = 0; j < T; j++)
      order[j * S + s] = s * T + j;
}

/* Whether the platform's OSTs carry their Lustre indices: FSNAME-OSTxxxx names, strictly increasing in the pool's order
 * (one file system; platforms/README.md, "The order of the OSTs"). */
static int ost_named(const ios_platform_t *p) {
  int named = p->nres > 0 && p->res != NULL;
  for (int r = 0; r < p->nres && named; r++)
    named = p->res[r].lustre_index >= 0 && (r == 0 || p->res[r].lustre_index > p->res[r - 1].lustre_index);
  return named;
}

/* The pool position of the OST a log records as Lustre index `idx`: the OST of that index when the platform's OSTs
 * carry theirs (`named`, ost_named), else the OST at position idx; -1 when the platform has none. */
static int ost_position(const ios_platform_t *p, int named, int64_t idx) {
  if (!named) return idx >= 0 && idx < p->nres ? (int)idx : -1;
  int lo = 0, hi = p->nres - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (p->res[mid].lustre_index == idx) return mid;
    if (p->res[mid].lustre_index < idx)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* The stripe count workload.darshan gives job `name` (its `jobs` entry, else `stripe_count`): 0 as recorded, -1
 * every OST, else that count. */
static long stripe_count_of(const ios_darshan_options_t *opt, const char *name) {
  const cJSON *job = opt->jobs != NULL ? cJSON_GetObjectItemCaseSensitive(opt->jobs, name) : NULL;
  const cJSON *c = job != NULL ? cJSON_GetObjectItemCaseSensitive(job, "stripe_count") : NULL;
  if (c != NULL) return cJSON_IsNumber(c) ? (long)c->valuedouble : 0; /* checked by read_options */
  return opt->stripe_count == -2 ? 0 : opt->stripe_count;
}

static const double *by_start_key;
static int cmp_by_start(const void *a, const void *b) {
  double x = by_start_key[*(const int *)a], y = by_start_key[*(const int *)b];
  return x < y ? -1 : x > y ? 1 : *(const int *)a - *(const int *)b;
}

/* The files of a job that Lustre's round-robin allocator places (restriped, or the files of a job whose log records no
 * layout): each file's bytes and stripe count, beside the bytes its recorded files put on each OST. Every job's are
 * placed once the stream is read, in the order of the jobs' release (when their files are created), by one allocator
 * for the whole file system (place_stream). */
typedef struct {
  double *load;  /* [N] bytes on each OST (NULL: nothing of this job to place) */
  double total;  /* bytes of every file of the job */
  double *bytes; /* [n] each file to place: its bytes */
  long *count;   /* [n] its stripes, 1 .. N */
  int n, room;
} to_place_t;

static void to_place_free(to_place_t *t) {
  free(t->load);
  free(t->bytes);
  free(t->count);
  memset(t, 0, sizeof *t);
}

static int to_place_add(to_place_t *t, double bytes, long count) {
  if (t->n == t->room) {
    int room = t->room > 0 ? 2 * t->room : 16;
    double *b = realloc(t->bytes, sizeof *b * (size_t)room);
    if (b != NULL) t->bytes = b;
    long *c = b != NULL ? realloc(t->count, sizeof *c * (size_t)room) : NULL;
    if (c == NULL) return IOS_ENOMEM;
    t->count = c;
    t->room = room;
  }
  t->bytes[t->n] = bytes;
  t->count[t->n++] = count;
  return IOS_OK;
}

/* a->given and a->given_share from the bytes on each OST, load[N] (total: the job's bytes). */
static int give(ios_app_t *a, const double *load, int N, double total) {
  int n = 0;
  for (int r = 0; r < N; r++)
    n += load[r] > 0;
  if (n == 0) return IOS_OK;
  a->given = malloc(sizeof *a->given * (size_t)n);
  a->given_share = malloc(sizeof *a->given_share * (size_t)n);
  if (a->given == NULL || a->given_share == NULL) return IOS_ENOMEM;
  for (int r = 0, i = 0; r < N; r++)
    if (load[r] > 0) {
      a->given[i] = r;
      a->given_share[i++] = load[r] / total;
    }
  a->ngiven = n;
  return IOS_OK;
}

/* The job's files as they ran (osts "recorded", docs/darshan.md): every file that moved bytes (every file when none
 * is known to) spreads its bytes B_f evenly over its c_f stripes (1 per file when no byte is known), each on the
 * platform's OST of the same Lustre index (ost_position) when the platform has every OST of the log (the file system's
 * OST count fs_osts, when known, and every recorded index); on a platform of fewer OSTs, the file keeps its stripe
 * count and its first OST: min(c_f, N) OSTs in Lustre's round-robin order (rr_order) from the position of its first OST
 * mod N (a file over all 24 of Edison's OSTs is over all 16 of a 16-OST platform, as `lfs setstripe -c` would lay it
 * out there). Or, restriped (stripe_count k > 0, or -1 = N), over min(k, N) OSTs; and a job whose log records no
 * layout (a->no_layout) has each of its files (one, its bytes, when the log records no file) over the file system's
 * default stripe count (default_stripe_count, or k when restriped): those files go to *tp, placed by Lustre's allocator
 * once every job is read (place_stream). The others make a->given = the distinct OSTs (ascending), a->given_share = the
 * fraction of the job's bytes each carries, now. */
static int recorded_layout(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, const ios_platform_t *p,
                           const char *path, ios_app_t *a, to_place_t *tp) {
  int N = p->nres, any = 0, *order = malloc(sizeof *order * (size_t)N);
  double *load = calloc((size_t)N, sizeof *load), total = 0;
  if (order == NULL || load == NULL) {
    free(order);
    free(load);
    return IOS_ENOMEM;
  }
  rr_order(p, order);
  long k = stripe_count_of(opt, a->name);
  int same = log->fs_osts <= N, named = ost_named(p); /* the platform has every OST of the log: as recorded */
  int layout = 0;
  for (int i = 0; i < log->nfiles; i++)
    for (int j = 0; j < log->files[i].nosts; j++)
      same &= ost_position(p, named, log->files[i].osts[j]) >= 0;
  for (int i = 0; i < log->nfiles; i++)
    any |= log->files[i].bytes > 0;
  for (int i = 0; i < log->nfiles; i++)
    layout |= log->files[i].nosts > 0 && (!any || log->files[i].bytes > 0);
  a->no_layout = !layout;
  int rc = IOS_OK;
  for (int i = 0; i < log->nfiles && rc == IOS_OK; i++) {
    const ios_darshan_file_t *f = &log->files[i];
    if ((any && !(f->bytes > 0)) || (layout && f->nosts == 0)) continue;
    double bytes = any ? f->bytes : 1;
    if (k != 0 || !layout) { /* Lustre's allocator places it: min(c, N) OSTs */
      long c = k != 0 ? k : opt->default_stripe_count;
      rc = to_place_add(tp, bytes, c < 0 || c > N ? N : c);
    } else {
      for (int j = 0; j < f->nosts && rc == IOS_OK; j++) {
        if (f->osts[j] < 0) {
          ios_diag_set(path, "LUSTRE module",
                       "a file's stripe %d is on OST %lld (negative): the log is damaged; use \"osts\": \"count\"", j,
                       (long long)f->osts[j]);
          rc = IOS_EINVAL;
          break;
        }
        if (same) load[ost_position(p, named, f->osts[j])] += bytes / (double)f->nosts;
      }
      if (rc == IOS_OK && !same) { /* another OST count: the stripe count and the first OST kept */
        long c = f->nosts > N ? N : f->nosts, first = (long)(f->osts[0] % N), pos = 0;
        while (order[pos] != first)
          pos++;
        for (long j = 0; j < c; j++)
          load[order[(pos + j) % N]] += bytes / (double)c;
      }
    }
    total += bytes;
  }
  if (rc == IOS_OK && !layout && tp->n == 0) { /* no file record either: the job's bytes as one file */
    long c = k != 0 ? k : opt->default_stripe_count;
    rc = to_place_add(tp, 1, c < 0 || c > N ? N : c);
    total = 1;
  }
  if (rc == IOS_OK && tp->n > 0) { /* placed with the stream (place_stream) */
    tp->load = load;
    tp->total = total;
    load = NULL;
  } else if (rc == IOS_OK)
    rc = give(a, load, N, total);
  if (rc == IOS_OK && a->given != NULL && k == 0 && !same)
    ios_diag_warn(path, "workload.darshan.osts",
                  "the log's file system had %lld OSTs (0: unknown), the platform %d: each file keeps its stripe count "
                  "(at most %d) and its first OST (index mod %d), laid out in Lustre's round-robin order "
                  "(docs/darshan.md)",
                  (long long)log->fs_osts, N, N, N);
  free(order);
  free(load);
  return rc;
}

/* The files of every job that Lustre's allocator places (tp[napps], the jobs w->apps[base ..]), in the order of the
 * jobs' release (ties: the log order): one round-robin allocator over the platform's OSTs (ios_stripe_rr_alloc, as the
 * lustre-default striping policy: OSS-interleaved order, a moving start index drawn from `seed` and drawn again at
 * Lustre's own period, (⌊2000/N⌋ + 30)·N files; no QoS free-space weighting), so that jobs that run together spread
 * over the OSTs as on Lustre instead of all starting at the first OST. */
static int place_stream(const ios_darshan_options_t *opt, const ios_platform_t *p, ios_workload_t *w, int base,
                        to_place_t *tp, int napps) {
  int need = 0;
  for (int k = 0; k < napps; k++)
    need |= tp[k].n > 0;
  if (!need) return IOS_OK;
  int N = p->nres, S = p->noss >= 1 && N % p->noss == 0 ? p->noss : 1, T = N / S, rc = IOS_OK;
  int *ost_oss = malloc(sizeof *ost_oss * (size_t)N), *order = malloc(sizeof *order * (size_t)N);
  int *osts = malloc(sizeof *osts * (size_t)N), *by = malloc(sizeof *by * (size_t)napps);
  double *release = malloc(sizeof *release * (size_t)napps);
  ios_stripe_state_t st = {0};
  if (ost_oss == NULL || order == NULL || osts == NULL || by == NULL || release == NULL) rc = IOS_ENOMEM;
  for (int r = 0; rc == IOS_OK && r < N; r++)
    ost_oss[r] = r / T; /* as rr_order: the OSTs split evenly over the servers, in the pool's order */
  ios_stripe_topo_t topo = {.nrouters = 0, .noss = S, .nost = N, .ost_oss = ost_oss, .nclients = 1};
  if (rc == IOS_OK) rc = ios_stripe_rr_order(&topo, order);
  if (rc == IOS_OK) rc = ios_stripe_state_init(&st, &topo);
  ios_rng_t rng;
  ios_rng_seed(&rng, opt->seed, IOS_STREAM_DARSHAN_OSTS);
  for (int k = 0; rc == IOS_OK && k < napps; k++) {
    by[k] = k;
    release[k] = w->apps[base + k].release;
  }
  if (rc == IOS_OK) {
    by_start_key = release;
    qsort(by, (size_t)napps, sizeof *by, cmp_by_start);
  }
  for (int i = 0; rc == IOS_OK && i < napps; i++) {
    to_place_t *t = &tp[by[i]];
    if (t->n == 0) continue;
    for (int f = 0; f < t->n; f++) {
      ios_stripe_rr_alloc(&topo, order, 0, &rng, &st, (int)t->count[f], osts);
      for (long j = 0; j < t->count[f]; j++)
        t->load[osts[j]] += t->bytes[f] / (double)t->count[f];
    }
    rc = give(&w->apps[base + by[i]], t->load, N, t->total);
  }
  ios_stripe_state_free(&st);
  free(ost_oss);
  free(order);
  free(osts);
  free(by);
  free(release);
  return rc;
}

/* The resources of the job: io_resources (count), or its files' OSTs on the platform with the share of its bytes
 * each carries (recorded; with no platform, io_resources as count). */
static int job_resources(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, const ios_platform_t *p,
                         const char *path, ios_app_t *a, to_place_t *tp) {
  if (opt->osts == 2) return IOS_OK;
  int ost_pool = p != NULL && p->pool_role != NULL && strcmp(p->pool_role, "ost") == 0 && p->nres > 0;
  if ((opt->osts == 1 || opt->osts == 3) && ost_pool) return recorded_layout(log, opt, p, path, a, tp);
  if (opt->osts == 1) {
    ios_diag_set(path, "workload.darshan.osts",
                 "\"recorded\" needs a platform whose I/O resources are OSTs (role ost): use such a platform (iosim "
                 "platform oss-ost, or a SimGrid XML with role=ost hosts) or \"osts\": \"count\"");
    return IOS_EINVAL;
  }
  int64_t *osts;
  int n, rc = job_osts(log, &osts, &n);
  if (rc == IOS_EINVAL) ios_diag_set(path, "LUSTRE module", "more than 5e7 file stripes: use \"osts\": \"none\"");
  if (rc == IOS_OK && n > 0) a->requested_n = p != NULL && n > p->nres ? p->nres : n;
  a->no_layout = rc == IOS_OK && n == 0;
  free(osts);
  return rc;
}

/* What the log measured, for `iosim generate darshan`. */
static int fill_info(const ios_darshan_log_t *log, const ios_app_t *a, int dxt, ios_darshan_info_t *info) {
  const ios_darshan_module_t *src[3];
  int base, n = sources(log, &base, src);
  *info = (ios_darshan_info_t){log->nprocs, log->runtime, 0, 0, 0, dxt, 0};
  for (int k = 0; k < n; k++)
    info->time_by_slowest += src[k]->time_by_slowest;
  for (int i = 0; i < a->nphases; i++) {
    if (a->phases[i].is_io == IOS_PHASE_READ) info->bytes_read += a->phases[i].value;
    if (a->phases[i].is_io == IOS_PHASE_WRITE) info->bytes_written += a->phases[i].value;
  }
  int64_t *osts;
  int rc = job_osts(log, &osts, &info->osts);
  free(osts);
  return rc == IOS_EINVAL ? IOS_OK : rc;
}

/* What a module flagged incomplete means for the application made of the log. */
static const char *partial_effect(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, int id, int base,
                                  int dfs_daos) {
  switch (id) {
  case 1: /* POSIX */
    if (base == IOS_DARSHAN_MPIIO)
      return log->module[IOS_DARSHAN_MPIIO].partial
                 ? "the volume comes from the MPI-IO module instead, incomplete too but fuller: a lower bound"
                 : "the volume comes from the complete MPI-IO module instead";
    return base == IOS_DARSHAN_POSIX ? "no other module records the same I/O (MPI-IO is absent or less complete): the "
                                       "volume is a lower bound"
                                     : "not used";
  case 2: /* MPI-IO */
    return base == IOS_DARSHAN_MPIIO ? "the volume comes from it, a lower bound (POSIX is absent or more incomplete)"
                                     : "not used (the POSIX module gives the volume)";
  case 8: /* LUSTRE */
    return "some files have no layout: the OST count is a lower bound";
  case 9: /* STDIO */
    return "its bytes, added to the volume, are a lower bound (no other module records the same I/O)";
  case 16: /* DFS */
  case 17: /* DAOS */
    return dfs_daos == id ? "its bytes, added to the volume, are a lower bound (no other module records the same I/O)"
                          : "not used (the DFS module gives the volume)";
  case 10: /* DXT_POSIX */
  case 11: /* DXT_MPIIO */
    if (log->nsegments == 0 || log->dxt_module != (id == 10 ? IOS_DARSHAN_POSIX : IOS_DARSHAN_MPIIO)) return "not used";
    return opt->phases_counters ? "not used (phases: counters)"
                                : "the trace is truncated: the phases come from the counters instead";
  default:
    return "not read by iosim";
  }
}

/* Warns about what in `log` (read from `label`) the application cannot trust: modules flagged incomplete (named, with
 * what is used instead) and the counters of runtime 3.2.0. */
static void warn_log(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, const char *label) {
  if (strcmp(log->version, "3.20") == 0)
    ios_diag_warn(label, "header",
                  "format 3.20 is written by Darshan runtime 3.2.0, whose logs likely hold corrupted counter values "
                  "(darshan-parser warns the same: bogus COMMON_ACCESS counters in the POSIX, MPI-IO and H5 modules, "
                  "and possibly corrupted data before them); iosim does not read the COMMON_ACCESS counters but reads "
                  "the volumes and times before them: check them against what the job did, or rerun it under Darshan "
                  "3.2.1 or later");
  const ios_darshan_module_t *src[3];
  int base;
  sources(log, &base, src);
  int dfs_daos = log->module[IOS_DARSHAN_DFS].version > 0 ? 16 : 17;
  for (int id = 0; id < 64; id++) {
    if (!((log->partial_modules >> id) & 1)) continue;
    const char *name = ios_darshan_module_name(id);
    char where[48];
    if (name != NULL)
      snprintf(where, sizeof where, "%s module", name);
    else
      snprintf(where, sizeof where, "module %d", id);
    ios_diag_warn(label, where,
                  "flagged incomplete in the log's header (Darshan ran out of memory for its records at run time): "
                  "%s",
                  partial_effect(log, opt, id, base, dfs_daos));
  }
}

/* Builds the application of log `path` at the end of `w` (started at *start). On IOS_EINVAL the application is
 * removed again. */
static int add_log(const char *path, const ios_darshan_options_t *opt, const ios_platform_t *p, ios_workload_t *w,
                   ios_darshan_info_t *info, double *start, double *runtime, to_place_t *tp) {
  ios_darshan_log_t log;
  int rc = ios_darshan_read(path, &log);
  if (rc != IOS_OK) return rc;
  char *name = app_name(path, w);
  ios_app_t *a = name != NULL ? ios_workload_add(w) : NULL;
  if (a == NULL) {
    free(name);
    ios_darshan_free(&log);
    return IOS_ENOMEM;
  }
  a->name = name;
  int dxt;
  rc = ios_darshan_app(&log, opt, path, a, &dxt);
  if (rc == IOS_OK) rc = job_resources(&log, opt, p, path, a, tp);
  if (rc == IOS_OK) a->processes = (int)log.nprocs;
  if (rc == IOS_OK && info != NULL) rc = fill_info(&log, a, dxt, info);
  if (rc == IOS_OK) warn_log(&log, opt, path);
  *start = log.start_time;
  *runtime = log.runtime;
  ios_darshan_free(&log);
  if (rc == IOS_EINVAL) { /* refused: this log only */
    to_place_free(tp);
    free(a->name);
    free(a->phases);
    free(a->given);
    free(a->given_share);
    w->napps--;
  }
  return rc;
}

/* The release times of `n` jobs recorded over [start[k], start[k] + runtime[k]] (s since the epoch), written to
 * release[n] (workload.darshan `replay`, docs/darshan.md "Job streams"): concurrent, 0 for every job; as-recorded,
 * start[k] minus the earliest start, minus the excess over `gap` (when gap >= 0) of every idle gap before start[k]
 * between the busy periods (the union of the recorded intervals). `why` [size] receives the sentence the run prints.
 * @return IOS_OK or IOS_ENOMEM. */
static int release_times(int n, const double *start, const double *runtime, int concurrent, double gap, double *release,
                         char *why, size_t size) {
  if (concurrent) {
    for (int k = 0; k < n; k++)
      release[k] = 0;
    snprintf(why, size, "concurrent: every job released at 0 (the worst case), the recorded start times ignored");
    return IOS_OK;
  }
  int *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
  if (order == NULL) return IOS_ENOMEM;
  for (int k = 0; k < n; k++)
    order[k] = k;
  by_start_key = start;
  qsort(order, (size_t)n, sizeof *order, cmp_by_start);
  double busy_end = -INFINITY, shift = 0, longest = 0, first = n > 0 ? start[order[0]] : 0;
  int gaps = 0, shortened = 0;
  for (int i = 0; i < n; i++) {
    int k = order[i];
    if (i > 0 && start[k] > busy_end) { /* an idle gap of the recorded stream */
      double g = start[k] - busy_end;
      gaps++;
      longest = fmax(longest, g);
      if (gap >= 0 && g > gap) {
        shift += g - gap;
        shortened++;
      }
    }
    release[k] = start[k] - first - shift;
    busy_end = fmax(busy_end, start[k] + runtime[k]);
  }
  free(order);
  if (gap < 0)
    snprintf(why, size, "as-recorded: released at their recorded start times; idle gaps kept (%d, the longest %.6g s)",
             gaps, longest);
  else
    snprintf(why, size,
             "as-recorded: released at their recorded start times; idle gaps compressed to %.6g s (%d of %d gaps "
             "shortened, %.6g s removed)",
             gap, shortened, gaps, shift);
  return IOS_OK;
}

int ios_darshan_workload(char *const *paths, int npaths, const ios_darshan_options_t *opt, const ios_platform_t *p,
                         ios_workload_t *w, ios_darshan_info_t *info) {
  size_t room = (size_t)(npaths > 0 ? npaths : 1);
  double *start = malloc(sizeof *start * 3 * room), first = INFINITY;
  double *runtime = start != NULL ? start + room : NULL, *release = start != NULL ? start + 2 * room : NULL;
  to_place_t *tp = calloc(room, sizeof *tp); /* each job's files that Lustre's allocator places (place_stream) */
  int base = w->napps, rc = start != NULL && tp != NULL ? IOS_OK : IOS_ENOMEM, nbad = 0;
  char *why = NULL; /* the first refusal */
  for (int i = 0; i < npaths && rc == IOS_OK; i++) {
    int k = w->napps - base;
    rc = add_log(paths[i], opt, p, w, info != NULL ? &info[k] : NULL, &start[k], &runtime[k], &tp[k]);
    if (rc == IOS_OK) {
      first = fmin(first, start[k]);
    } else if (rc == IOS_EINVAL || rc == IOS_EIO) { /* listed, and the others are read */
      if (npaths > 1) ios_diag_report(opt->skip_bad ? "skipped" : "refused");
      if (nbad++ == 0 && (why = strdup(ios_diag_message())) == NULL) rc = IOS_ENOMEM;
      char *name = opt->skip_bad && npaths > 1 && rc != IOS_ENOMEM ? app_name(paths[i], w) : NULL;
      if (name != NULL && ios_workload_note_skipped(w, name, ios_diag_message()) != IOS_OK) rc = IOS_ENOMEM;
      free(name); /* results.json lists it (w->skipped) */
      if (rc != IOS_ENOMEM && npaths > 1) rc = IOS_OK;
    }
  }
  int napps = w->napps - base;
  if (rc == IOS_OK && nbad > 0 && (!opt->skip_bad || napps == 0)) {
    ios_diag_set(
        npaths == 1 ? NULL : "workload.darshan", NULL,
        "%d of %d Darshan logs refused (each listed above on standard error), the first: %s; %s", nbad, npaths, why,
        napps == 0 ? "none is left to replay: give readable logs"
                   : "fix or remove them, or replay the others: --skip-bad (iosim run, iosim generate darshan) "
                     "or \"skip_bad\": true in workload.darshan");
    rc = IOS_EINVAL;
  } else if (rc == IOS_OK && nbad > 0) {
    ios_diag_warn("workload.darshan", "skip_bad",
                  "skipped %d of %d Darshan logs (each listed above), replaying the other %d", nbad, npaths, napps);
  }
  (void)first;
  const cJSON *job;
  cJSON_ArrayForEach(job, opt->jobs) { /* a per-job entry that names no job is a typo, never silently ignored */
    int found = 0;
    for (int k = 0; k < napps && !found; k++)
      found = strcmp(w->apps[base + k].name, job->string) == 0;
    if (rc == IOS_OK && !found) {
      ios_diag_set("workload.darshan.jobs", job->string,
                   "names no job of these logs: a job is named after its log's file (sample-goodost.darshan -> "
                   "sample-goodost; the first here: %s)",
                   napps > 0 ? w->apps[base].name : "none");
      rc = IOS_EINVAL;
    }
  }
  if (rc == IOS_OK)
    rc = release_times(napps, start, runtime, opt->replay == 1, opt->compress_gaps, release, w->replay,
                       sizeof w->replay);
  for (int k = 0; k < napps && rc == IOS_OK; k++)
    w->apps[base + k].release = release[k];
  if (rc == IOS_OK && p != NULL) rc = place_stream(opt, p, w, base, tp, napps);
  int nl = 0, ost_pool = p != NULL && p->pool_role != NULL && strcmp(p->pool_role, "ost") == 0 && p->nres > 0;
  for (int k = 0; k < napps; k++)
    nl += w->apps[base + k].no_layout;
  if (rc == IOS_OK && nl > 0 && ost_pool && (opt->osts == 1 || opt->osts == 3)) { /* the summary's "assumed:" line */
    long c = opt->stripe_count > 0 || opt->stripe_count == -1 ? opt->stripe_count : opt->default_stripe_count;
    char count[32];
    snprintf(count, sizeof count, c == -1 ? "every OST" : "%ld OST%s", c, c == 1 ? "" : "s");
    snprintf(w->no_layout_rule, sizeof w->no_layout_rule, "Lustre's round-robin allocator, %s per file (%s)", count,
             opt->stripe_count > 0 || opt->stripe_count == -1
                 ? "the restripe, stripe_count"
                 : "the file system's default stripe count, workload.darshan.default_stripe_count");
  }
  for (int k = 0; tp != NULL && k < (int)room; k++)
    to_place_free(&tp[k]);
  free(tp);
  if (rc == IOS_OK && napps > 1) fprintf(stderr, "iosim: workload.darshan: replay %s\n", w->replay); /* a stream */
  free(why);
  free(start);
  return rc;
}

/* ---------------------------------------------------------------- workload.darshan */

static int cmp_path(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends `path` (expanded), or the *.darshan files of the directory it names (sorted), to the list. */
static int add_path(const char *given, const char *file, char ***paths, int *n, int *cap) {
  char *path = ios_expand_path(given, file, "workload.darshan");
  if (path == NULL) return IOS_EINVAL;
  struct stat st;
  DIR *dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(path) : NULL;
  int rc = IOS_OK, found = 0;
  if (dir == NULL) {
    found = 1;
    if (*n == *cap) {
      char **more = realloc(*paths, sizeof *more * (size_t)(*cap = *cap ? 2 * *cap : 16));
      if (more == NULL)
        rc = IOS_ENOMEM;
      else
        *paths = more;
    }
    if (rc == IOS_OK)
      (*paths)[(*n)++] = path;
    else
      free(path);
    return rc;
  }
  int from = *n;
  for (struct dirent *e; rc == IOS_OK && (e = readdir(dir)) != NULL;) {
    size_t len = strlen(e->d_name);
    if (len <= 8 || strcmp(e->d_name + len - 8, ".darshan") != 0) continue;
    if (*n >= MAX_LOGS) {
      ios_diag_set(path, "workload.darshan", "holds more than %d logs: split it", MAX_LOGS);
      rc = IOS_EINVAL;
      break;
    }
    if (*n == *cap) {
      char **more = realloc(*paths, sizeof *more * (size_t)(*cap = *cap ? 2 * *cap : 16));
      if (more == NULL) {
        rc = IOS_ENOMEM;
        break;
      }
      *paths = more;
    }
    size_t plen = strlen(path) + len + 2;
    char *full = malloc(plen);
    if (full == NULL) {
      rc = IOS_ENOMEM;
      break;
    }
    snprintf(full, plen, "%s/%s", path, e->d_name);
    (*paths)[(*n)++] = full;
    found++;
  }
  closedir(dir);
  if (rc == IOS_OK && found == 0) {
    ios_diag_set(path, "workload.darshan",
                 "the directory holds no *.darshan file: give a directory of Darshan logs, "
                 "a log, or a list of them");
    rc = IOS_EINVAL;
  }
  if (rc == IOS_OK) qsort(*paths + from, (size_t)(*n - from), sizeof **paths, cmp_path);
  free(path);
  return rc;
}

void ios_darshan_paths_free(char **paths, int npaths) {
  for (int i = 0; i < npaths; i++)
    free(paths[i]);
  free(paths);
}

/* Reads a stripe count: "recorded" (0), -1 (every OST) or a count >= 1. */
static int read_stripe_count(const cJSON *v, const char *file, const char *field, long *out) {
  if (cJSON_IsString(v) && strcmp(v->valuestring, "recorded") == 0) {
    *out = 0;
    return IOS_OK;
  }
  if (cJSON_IsNumber(v) && (v->valuedouble == -1 || (v->valuedouble >= 1 && v->valuedouble <= 2147483647)) &&
      v->valuedouble == (double)(long)v->valuedouble) {
    *out = (long)v->valuedouble;
    return IOS_OK;
  }
  char text[64];
  ios_value_text(v, text, sizeof text);
  ios_diag_set(file, field,
               "is %s: give \"recorded\" (each file's stripes as the log has them), a stripe count >= 1 (every file "
               "restriped over that many OSTs, in Lustre's round-robin order), or -1 (every OST)",
               text);
  return IOS_EINVAL;
}

/* Reads the options of the object form of workload.darshan. */
static int read_options(const cJSON *o, const char *file, ios_darshan_options_t *opt) {
  static const char *const keys[] = {"logs",
                                     "ranks_per_node",
                                     "merge_gap",
                                     "phases",
                                     "osts",
                                     "skip_bad",
                                     "replay",
                                     "compress_gaps",
                                     "stripe_count",
                                     "jobs",
                                     "default_stripe_count",
                                     NULL};
  static const char *const phases[] = {"auto", "counters", NULL}, *const osts[] = {"count", "recorded", "none", "auto",
                                                                                   NULL};
  static const char *const replays[] = {"as-recorded", "concurrent", NULL};
  static const ios_num_spec_t gaps = {
      0,
      IOS_VALUE_MAX_DURATION,
      0,
      0,
      IOS_UNIT_DURATION,
      "s (or a duration such as \"1h\"): idle gaps of the recorded stream longer than this are shortened to it"};
  static const ios_num_spec_t gap = {
      0, 1, 0, 0, IOS_UNIT_NONE, "a fraction of the run time in [0, 1]: DXT bursts closer than this merge"};
  const cJSON *v;
  if (ios_value_check_keys(o, keys, -1, file, "workload.darshan") != IOS_OK) return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "ranks_per_node")) != NULL &&
      ios_value_int(v, 1, 1000000, "MPI ranks per compute node (the job's nodes = ceil(nprocs / ranks_per_node))", file,
                    "workload.darshan.ranks_per_node", &opt->ranks_per_node) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "merge_gap")) != NULL &&
      ios_value_number(v, &gap, file, "workload.darshan.merge_gap", &opt->merge_gap) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "phases")) != NULL &&
      ios_value_choice(v, phases, "auto: from the DXT trace when the log has one, else from the counters", file,
                       "workload.darshan.phases", &opt->phases_counters) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "osts")) != NULL &&
      ios_value_choice(v, osts,
                       "count: io_resources = the job's distinct OSTs; recorded: its files' OSTs and shares; none: "
                       "the allocation policy decides; auto: recorded on a platform of OSTs, else count",
                       file, "workload.darshan.osts", &opt->osts) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "skip_bad")) != NULL &&
      ios_value_bool(v, file, "workload.darshan.skip_bad", &opt->skip_bad) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "replay")) != NULL &&
      ios_value_choice(v, replays,
                       "as-recorded: each job at its recorded start time minus the earliest; concurrent: every job "
                       "at 0 (the worst case)",
                       file, "workload.darshan.replay", &opt->replay) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "compress_gaps")) != NULL && !cJSON_IsNull(v) && !cJSON_IsFalse(v) &&
      ios_value_number(v, &gaps, file, "workload.darshan.compress_gaps", &opt->compress_gaps) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "stripe_count")) != NULL &&
      read_stripe_count(v, file, "workload.darshan.stripe_count", &opt->stripe_count) != IOS_OK)
    return IOS_EINVAL;
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "default_stripe_count")) != NULL &&
      (read_stripe_count(v, file, "workload.darshan.default_stripe_count", &opt->default_stripe_count) != IOS_OK ||
       opt->default_stripe_count == 0)) {
    if (opt->default_stripe_count == 0)
      ios_diag_set(file, "workload.darshan.default_stripe_count",
                   "is \"recorded\", but it is the stripe count of the files a log records no layout for: give the "
                   "file system's default stripe count, >= 1 (Lustre's is 1), or -1 (every OST)");
    return IOS_EINVAL;
  }
  if ((v = cJSON_GetObjectItemCaseSensitive(o, "jobs")) != NULL && !cJSON_IsNull(v)) {
    static const char *const job_keys[] = {"stripe_count", NULL};
    if (!cJSON_IsObject(v)) {
      ios_diag_set(file, "workload.darshan.jobs",
                   "is %s: give an object of per-job options by job name, e.g. {\"sample\": {\"stripe_count\": 8}}",
                   ios_value_type(v));
      return IOS_EINVAL;
    }
    const cJSON *job;
    cJSON_ArrayForEach(job, v) {
      char field[300];
      snprintf(field, sizeof field, "workload.darshan.jobs.%s", job->string);
      long count;
      if (!cJSON_IsObject(job)) {
        ios_diag_set(file, field, "is %s: give an object such as {\"stripe_count\": 8}", ios_value_type(job));
        return IOS_EINVAL;
      }
      if (ios_value_check_keys(job, job_keys, -1, file, field) != IOS_OK) return IOS_EINVAL;
      const cJSON *c = cJSON_GetObjectItemCaseSensitive(job, "stripe_count");
      snprintf(field, sizeof field, "workload.darshan.jobs.%s.stripe_count", job->string);
      if (c != NULL && read_stripe_count(c, file, field, &count) != IOS_OK) return IOS_EINVAL;
    }
    opt->jobs = v;
  }
  if (opt->replay == 1 && opt->compress_gaps >= 0) {
    ios_diag_set(file, "workload.darshan.compress_gaps",
                 "is %g but replay is \"concurrent\" (every job at 0, no gap to compress): drop compress_gaps or use "
                 "\"replay\": \"as-recorded\"",
                 opt->compress_gaps);
    return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_darshan_spec(const cJSON *spec, const char *file, char ***paths, int *npaths, ios_darshan_options_t *opt) {
  *opt = ios_darshan_options_default();
  const cJSON *logs = spec;
  if (cJSON_IsObject(spec)) {
    if (read_options(spec, file, opt) != IOS_OK) return IOS_EINVAL;
    logs = cJSON_GetObjectItemCaseSensitive(spec, "logs");
  }
  char **list = NULL;
  int n = 0, cap = 0, rc = IOS_OK;
  if (cJSON_IsString(logs)) {
    rc = add_path(logs->valuestring, file, &list, &n, &cap);
  } else if (cJSON_IsArray(logs) && cJSON_GetArraySize(logs) > 0) {
    const cJSON *item;
    cJSON_ArrayForEach(item, logs) {
      if (!cJSON_IsString(item)) {
        ios_diag_set(file, "workload.darshan", "holds %s: give paths of Darshan logs or directories (strings)",
                     ios_value_type(item));
        rc = IOS_EINVAL;
      }
      if (rc == IOS_OK) rc = add_path(item->valuestring, file, &list, &n, &cap);
      if (rc != IOS_OK) break;
    }
  } else {
    ios_diag_set(file, cJSON_IsObject(spec) ? "workload.darshan.logs" : "workload.darshan",
                 "is %s: give a Darshan log, a directory of logs or a non-empty list of them, e.g. "
                 "\"${IOSIM_DATA_DIR}/darshan-logs\"",
                 cJSON_IsArray(logs) ? "an empty list" : ios_value_type(logs));
    rc = IOS_EINVAL;
  }
  if (rc != IOS_OK) {
    ios_darshan_paths_free(list, n);
    return rc;
  }
  *paths = list;
  *npaths = n;
  return IOS_OK;
}

int ios_darshan_build(const cJSON *spec, const char *file, const ios_platform_t *p, const char *striping,
                      double stripe_count, int skip_bad, uint64_t seed, ios_workload_t *w) {
  char **paths = NULL;
  int n = 0;
  ios_darshan_options_t opt;
  int rc = ios_darshan_spec(spec, file, &paths, &n, &opt);
  if (rc == IOS_OK && skip_bad) opt.skip_bad = 1; /* workload.skip_bad, iosim run --skip-bad */
  opt.seed = seed;
  if (rc == IOS_OK && opt.stripe_count == -2 && striping != NULL && strcmp(striping, "lustre-default") == 0)
    opt.stripe_count = (long)stripe_count; /* the scenario's what-if: every recorded file restriped (-1: every OST) */
  if (rc == IOS_OK) rc = ios_darshan_workload(paths, n, &opt, p, w, NULL);
  ios_darshan_paths_free(paths, n);
  return rc;
}
