/* iosim — the striping model shared by every striping policy: topology and job checks, placements, the usage state,
 * flows and byte loads, Lustre's round-robin allocator, and TAPP-IO's performance improvement (Eq. 2). */
#include "striping_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT 100000000 /* bound of every count, so that products stay far from overflow in long long */

/* ---------------------------------------------------------------------------------------------------------------- */
int ios_stripe_nrouters_of(const ios_stripe_topo_t *t, int client) {
  if (t->nrouters <= 0) return 0;
  if (t->client_router_start == NULL) return 1;
  return t->client_router_start[client + 1] - t->client_router_start[client];
}

int ios_stripe_router_of(const ios_stripe_topo_t *t, int client, int i) {
  if (t->client_router_start == NULL) return client % t->nrouters;
  return t->client_routers[t->client_router_start[client] + i];
}

int ios_stripe_client_of(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int w) {
  return job->writer_client != NULL ? job->writer_client[w] : w % t->nclients;
}

int ios_stripe_topo_validate(const ios_stripe_topo_t *t) {
  if (t == NULL || t->nrouters < 0 || t->nrouters > MAX_COUNT || t->noss < 1 || t->noss > MAX_COUNT || t->nost < 1 ||
      t->nost > MAX_COUNT || t->ost_oss == NULL || t->nclients < 1 || t->nclients > MAX_COUNT)
    return IOS_EINVAL;
  for (int k = 0; k < t->nost; k++)
    if (t->ost_oss[k] < 0 || t->ost_oss[k] >= t->noss) return IOS_EINVAL;
  if (t->nrouters == 0) return IOS_OK;
  if ((t->client_router_start == NULL) != (t->client_routers == NULL)) return IOS_EINVAL;
  if (t->client_router_start == NULL) return IOS_OK;
  if (t->client_router_start[0] != 0) return IOS_EINVAL;
  for (int k = 0; k < t->nclients; k++) {
    if (t->client_router_start[k + 1] <= t->client_router_start[k]) return IOS_EINVAL; /* at least one router */
    for (int i = t->client_router_start[k]; i < t->client_router_start[k + 1]; i++)
      if (t->client_routers[i] < 0 || t->client_routers[i] >= t->nrouters) return IOS_EINVAL;
  }
  return IOS_OK;
}

int ios_stripe_topo_regular(ios_stripe_topo_t *t, int *ost_oss_buf, int servers, int osts_per_server, int routers,
                            int clients) {
  if (t == NULL || ost_oss_buf == NULL || servers < 1 || osts_per_server < 1 || routers < 0 || clients < 1 ||
      servers > MAX_COUNT || osts_per_server > MAX_COUNT / servers || routers > MAX_COUNT || clients > MAX_COUNT)
    return IOS_EINVAL;
  for (int k = 0; k < servers * osts_per_server; k++)
    ost_oss_buf[k] = k / osts_per_server;
  ios_stripe_topo_t r = {.nrouters = routers,
                         .noss = servers,
                         .nost = servers * osts_per_server,
                         .ost_oss = ost_oss_buf,
                         .nclients = clients,
                         .client_router_start = NULL,
                         .client_routers = NULL};
  *t = r;
  return IOS_OK;
}

int ios_stripe_job_validate(const ios_stripe_topo_t *t, const ios_stripe_job_t *job) {
  if (ios_stripe_topo_validate(t) != IOS_OK || job == NULL || job->nwriters < 1 || job->nwriters > MAX_COUNT ||
      (job->layout != IOS_LAYOUT_FPP && job->layout != IOS_LAYOUT_SSF) || !(job->bytes_per_writer > 0) ||
      !isfinite(job->bytes_per_writer * job->nwriters))
    return IOS_EINVAL;
  if (job->shared_files < 0 || job->shared_files > job->nwriters ||
      (job->layout == IOS_LAYOUT_FPP && job->shared_files > 1))
    return IOS_EINVAL;
  for (int w = 0; job->writer_client != NULL && w < job->nwriters; w++)
    if (job->writer_client[w] < 0 || job->writer_client[w] >= t->nclients) return IOS_EINVAL;
  return IOS_OK;
}

int ios_stripe_job_files(const ios_stripe_job_t *job) {
  if (job->layout == IOS_LAYOUT_FPP) return job->nwriters;
  return job->shared_files > 1 ? job->shared_files : 1;
}

void ios_stripe_file_writers(const ios_stripe_job_t *job, int f, int *w0, int *w1) {
  if (job->layout == IOS_LAYOUT_FPP) {
    *w0 = f;
    *w1 = f + 1;
    return;
  }
  long long W = job->nwriters, M = ios_stripe_job_files(job);
  *w0 = (int)(f * W / M);
  *w1 = (int)((f + 1) * W / M);
}

/* ---------------------------------------------------------------------------------------------------------------- */
void ios_stripe_placement_free(ios_stripe_placement_t *pl) {
  if (pl == NULL) return;
  free(pl->files);
  free(pl->osts);
  free(pl->writer_router);
  memset(pl, 0, sizeof *pl);
}

int ios_stripe_placement_alloc(ios_stripe_placement_t *out, int nfiles, int nosts, int nwriters) {
  ios_stripe_placement_t p = {.nfiles = nfiles, .nosts = nosts, .nwriters = nwriters};
  p.files = malloc(sizeof *p.files * (size_t)(nfiles > 0 ? nfiles : 1));
  p.osts = malloc(sizeof *p.osts * (size_t)(nosts > 0 ? nosts : 1));
  p.writer_router = malloc(sizeof *p.writer_router * (size_t)(nwriters > 0 ? nwriters : 1));
  if (p.files == NULL || p.osts == NULL || p.writer_router == NULL) {
    ios_stripe_placement_free(&p);
    return IOS_ENOMEM;
  }
  *out = p;
  return IOS_OK;
}

void ios_stripe_layout_tuned_size(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, int *nfiles, int *nosts) {
  *nfiles = ios_stripe_job_files(job);
  if (job->layout == IOS_LAYOUT_FPP) {
    *nosts = job->nwriters;
    return;
  }
  *nosts = 0;
  for (int f = 0, w0, w1; f < *nfiles; f++) {
    ios_stripe_file_writers(job, f, &w0, &w1);
    *nosts += w1 - w0 < t->nost ? w1 - w0 : t->nost;
  }
}

void ios_stripe_layout_tuned(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, double fpp_stripe_size,
                             ios_stripe_placement_t *pl) {
  if (job->layout == IOS_LAYOUT_FPP) {
    pl->nfiles = job->nwriters;
    for (int f = 0; f < job->nwriters; f++) {
      ios_stripe_file_t file = {.size = job->bytes_per_writer, .stripe_size = fpp_stripe_size, .stripe_count = 1};
      file.first = f;
      pl->files[f] = file;
    }
    return;
  }
  pl->nfiles = ios_stripe_job_files(job);
  for (int f = 0, first = 0, w0, w1; f < pl->nfiles; f++) {
    ios_stripe_file_writers(job, f, &w0, &w1);
    int c = w1 - w0 < t->nost ? w1 - w0 : t->nost;
    double size = job->bytes_per_writer * (w1 - w0);
    ios_stripe_file_t file = {.size = size, .stripe_size = size / c, .stripe_count = c, .first = first};
    pl->files[f] = file;
    first += c;
  }
}

int ios_stripe_int_param(double v, long lo, long hi, long *out) {
  if (!(v >= (double)lo && v <= (double)hi) || v != floor(v)) return IOS_EINVAL;
  *out = (long)v;
  return IOS_OK;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Placement checks before anything reads it: file count and sizes for the job, stripe counts, distinct OSTs in
 * range, routers. */
static int placement_check(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl) {
  int rc = ios_stripe_job_validate(t, job);
  if (rc != IOS_OK) return rc;
  int want = ios_stripe_job_files(job);
  if (pl == NULL || pl->nfiles != want || pl->files == NULL || pl->osts == NULL || pl->writer_router == NULL ||
      pl->nwriters != job->nwriters || pl->nosts < 1)
    return IOS_EINVAL;
  for (int w = 0; w < pl->nwriters; w++) {
    int r = pl->writer_router[w];
    if (t->nrouters == 0 ? r != -1 : (r < 0 || r >= t->nrouters)) return IOS_EINVAL;
  }
  int *mark = calloc((size_t)t->nost, sizeof *mark);
  if (mark == NULL) return IOS_ENOMEM;
  for (int f = 0; rc == IOS_OK && f < pl->nfiles; f++) {
    const ios_stripe_file_t *fl = &pl->files[f];
    if (fl->stripe_count < 1 || fl->stripe_count > t->nost || fl->first < 0 ||
        fl->first > pl->nosts - fl->stripe_count || !(fl->stripe_size > 0) || !isfinite(fl->stripe_size) ||
        !(fl->size > 0) || !isfinite(fl->size)) {
      rc = IOS_EINVAL;
      break;
    }
    for (int i = 0; rc == IOS_OK && i < fl->stripe_count; i++) {
      int o = pl->osts[fl->first + i];
      if (o < 0 || o >= t->nost || mark[o] == f + 1)
        rc = IOS_EINVAL;
      else
        mark[o] = f + 1;
    }
  }
  free(mark);
  return rc;
}

/* Bytes of [0, x) that fall on slot j of a round-robin striping of stripe size s over c slots. */
static double slot_prefix(double x, double s, int c, int j) {
  double round = s * c;
  double r = floor(x / round);
  double in = x - r * round - j * s;
  return r * s + (in < 0 ? 0 : in > s ? s : in);
}

void ios_stripe_ssf_writers_of_stripe(int nwriters, int c, int j, int *lo, int *hi) {
  /* In units of b/c bytes, writer w covers [w·c, (w+1)·c) and stripe j covers [j·W, (j+1)·W). */
  long long W = nwriters;
  *lo = (int)((long long)j * W / c);
  *hi = (int)(((long long)(j + 1) * W - 1) / c);
}

long ios_stripe_file_pairs(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                           int f, void (*use)(void *ctx, int writer, int ost, double bytes), void *ctx) {
  (void)t;
  const ios_stripe_file_t *fl = &pl->files[f];
  const int *osts = pl->osts + fl->first;
  int c = fl->stripe_count, w0, w1;
  ios_stripe_file_writers(job, f, &w0, &w1);
  double b = job->bytes_per_writer, s = fl->stripe_size;
  long n = 0;
  /* A shared file of Wf writers cut into exactly c stripes (stripe size = size / c, as TAPP-IO lays it out): exact
   * integer overlaps in units of b/c bytes. */
  int even = job->layout == IOS_LAYOUT_SSF && s == fl->size / c && fl->size == b * (w1 - w0);
  for (int w = w0; w < w1; w++) {
    if (c == 1) {
      if (use) use(ctx, w, osts[0], job->layout == IOS_LAYOUT_FPP ? fl->size : b);
      n++;
      continue;
    }
    if (even) {
      long long W = w1 - w0, a = (long long)(w - w0) * c, e = a + c;
      for (long long j = a / W; j <= (e - 1) / W; j++) {
        long long lo = j * W > a ? j * W : a, hi = (j + 1) * W < e ? (j + 1) * W : e;
        if (use) use(ctx, w, osts[j], (double)(hi - lo) * b / c);
        n++;
      }
      continue;
    }
    double lo = job->layout == IOS_LAYOUT_FPP ? 0 : (double)(w - w0) * b;
    double hi = job->layout == IOS_LAYOUT_FPP ? fl->size : lo + b;
    double k0 = floor(lo / s), k1 = ceil(hi / s); /* chunks k0 .. k1-1 hold [lo, hi) */
    int j0 = (int)fmod(k0, c);
    if (k1 - k0 < c) { /* fewer chunks than slots: each chunk on its own slot */
      for (double k = k0; k < k1; k++) {
        double a = k * s > lo ? k * s : lo, e = (k + 1) * s < hi ? (k + 1) * s : hi;
        if (e > a) {
          if (use) use(ctx, w, osts[(j0 + (int)(k - k0)) % c], e - a);
          n++;
        }
      }
      continue;
    }
    for (int i = 0; i < c; i++) {
      int j = (j0 + i) % c;
      double bytes = slot_prefix(hi, s, c, j) - slot_prefix(lo, s, c, j);
      if (bytes > 0) {
        if (use) use(ctx, w, osts[j], bytes);
        n++;
      }
    }
  }
  return n;
}

/* ---------------------------------------------------------------------------------------------------------------- */
typedef struct {
  const ios_stripe_topo_t *t;
  const ios_stripe_job_t *job;
  const ios_stripe_placement_t *pl;
  int file;
  ios_stripe_flow_t *out;
  int n;
} flow_ctx_t;

static void flow_add(void *vctx, int writer, int ost, double bytes) {
  flow_ctx_t *x = vctx;
  ios_stripe_flow_t fl = {.writer = writer,
                          .client = ios_stripe_client_of(x->t, x->job, writer),
                          .file = x->file,
                          .router = x->pl->writer_router[writer],
                          .oss = x->t->ost_oss[ost],
                          .ost = ost,
                          .bytes = bytes};
  x->out[x->n++] = fl;
}

int ios_stripe_flows(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                     ios_stripe_flow_t **flows_out, int *nflows_out) {
  if (flows_out == NULL || nflows_out == NULL) return IOS_EINVAL;
  int rc = placement_check(t, job, pl);
  if (rc != IOS_OK) return rc;
  long total = 0;
  for (int f = 0; f < pl->nfiles; f++) {
    total += ios_stripe_file_pairs(t, job, pl, f, NULL, NULL);
    if (total > MAX_COUNT * 10L) return IOS_EINVAL; /* more than a billion flows: not a sensible job */
  }
  flow_ctx_t x = {.t = t, .job = job, .pl = pl, .file = 0, .out = NULL, .n = 0};
  x.out = malloc(sizeof *x.out * (size_t)(total > 0 ? total : 1));
  if (x.out == NULL) return IOS_ENOMEM;
  for (int f = 0; f < pl->nfiles; f++) {
    x.file = f;
    ios_stripe_file_pairs(t, job, pl, f, flow_add, &x);
  }
  *flows_out = x.out;
  *nflows_out = x.n;
  return IOS_OK;
}

int ios_stripe_loads(const ios_stripe_topo_t *t, const ios_stripe_job_t *job, const ios_stripe_placement_t *pl,
                     double *ost_bytes, double *oss_bytes, double *router_bytes) {
  ios_stripe_flow_t *fl;
  int n;
  int rc = ios_stripe_flows(t, job, pl, &fl, &n);
  if (rc != IOS_OK) return rc;
  for (int k = 0; ost_bytes != NULL && k < t->nost; k++)
    ost_bytes[k] = 0;
  for (int k = 0; oss_bytes != NULL && k < t->noss; k++)
    oss_bytes[k] = 0;
  for (int k = 0; router_bytes != NULL && k < t->nrouters; k++)
    router_bytes[k] = 0;
  for (int i = 0; i < n; i++) {
    if (ost_bytes != NULL) ost_bytes[fl[i].ost] += fl[i].bytes;
    if (oss_bytes != NULL) oss_bytes[fl[i].oss] += fl[i].bytes;
    if (router_bytes != NULL && fl[i].router >= 0) router_bytes[fl[i].router] += fl[i].bytes;
  }
  free(fl);
  return IOS_OK;
}

double ios_stripe_improvement_pct(double bw_balanced, double bw_default) {
  if (!isfinite(bw_balanced) || !isfinite(bw_default) || !(bw_default > 0)) return NAN;
  return 100.0 * (bw_balanced / bw_default - 1.0);
}

/* ---------------------------------------------------------------------------------------------------------------- */
int ios_stripe_state_init(ios_stripe_state_t *s, const ios_stripe_topo_t *t) {
  if (s == NULL || ios_stripe_topo_validate(t) != IOS_OK) return IOS_EINVAL;
  ios_stripe_state_t r = {.nrouters = t->nrouters, .noss = t->noss, .nost = t->nost};
  r.router_uses = calloc((size_t)(t->nrouters > 0 ? t->nrouters : 1), sizeof *r.router_uses);
  r.oss_uses = calloc((size_t)t->noss, sizeof *r.oss_uses);
  r.ost_uses = calloc((size_t)t->nost, sizeof *r.ost_uses);
  if (r.router_uses == NULL || r.oss_uses == NULL || r.ost_uses == NULL) {
    ios_stripe_state_free(&r);
    return IOS_ENOMEM;
  }
  *s = r;
  return IOS_OK;
}

void ios_stripe_state_free(ios_stripe_state_t *s) {
  if (s == NULL) return;
  free(s->router_uses);
  free(s->oss_uses);
  free(s->ost_uses);
  memset(s, 0, sizeof *s);
}

void ios_stripe_state_reset(ios_stripe_state_t *s) {
  if (s == NULL) return;
  for (int k = 0; s->router_uses != NULL && k < s->nrouters; k++)
    s->router_uses[k] = 0;
  for (int k = 0; s->oss_uses != NULL && k < s->noss; k++)
    s->oss_uses[k] = 0;
  for (int k = 0; s->ost_uses != NULL && k < s->nost; k++)
    s->ost_uses[k] = 0;
  s->rr_start = s->rr_offset = s->rr_left = 0;
}

int ios_stripe_state_use(ios_stripe_state_t *s, int router, int oss, int ost) {
  if (s == NULL || s->ost_uses == NULL || router < -1 || router >= s->nrouters ||
      (router == -1) != (s->nrouters == 0) || oss < 0 || oss >= s->noss || ost < 0 || ost >= s->nost)
    return IOS_EINVAL;
  if (router >= 0) s->router_uses[router]++;
  s->oss_uses[oss]++;
  s->ost_uses[ost]++;
  return IOS_OK;
}

int ios_stripe_state_matches(const ios_stripe_state_t *s, const ios_stripe_topo_t *t) {
  return s != NULL && s->ost_uses != NULL && s->nrouters == t->nrouters && s->noss == t->noss && s->nost == t->nost;
}

typedef struct {
  const ios_stripe_topo_t *t;
  const ios_stripe_placement_t *pl;
  ios_stripe_state_t *s;
} record_ctx_t;

static void record_add(void *vctx, int writer, int ost, double bytes) {
  (void)bytes;
  record_ctx_t *x = vctx;
  ios_stripe_state_use(x->s, x->pl->writer_router[writer], x->t->ost_oss[ost], ost);
}

int ios_stripe_state_record(ios_stripe_state_t *s, const ios_stripe_topo_t *t, const ios_stripe_job_t *job,
                            const ios_stripe_placement_t *pl) {
  int rc = placement_check(t, job, pl);
  if (rc != IOS_OK) return rc;
  if (!ios_stripe_state_matches(s, t)) return IOS_EINVAL;
  ios_stripe_record_unchecked(s, t, job, pl);
  return IOS_OK;
}

void ios_stripe_record_unchecked(ios_stripe_state_t *s, const ios_stripe_topo_t *t, const ios_stripe_job_t *job,
                                 const ios_stripe_placement_t *pl) {
  record_ctx_t x = {.t = t, .pl = pl, .s = s};
  for (int f = 0; f < pl->nfiles; f++)
    ios_stripe_file_pairs(t, job, pl, f, record_add, &x);
}

/* ---------------------------------------------------------------------------------------------------------------- */
int ios_stripe_rr_order(const ios_stripe_topo_t *t, int *order) {
  int S = t->noss, N = t->nost;
  int *count = calloc((size_t)S, sizeof *count), *oss_order = malloc(sizeof *oss_order * (size_t)S);
  if (count == NULL || oss_order == NULL) {
    free(count);
    free(oss_order);
    return IOS_ENOMEM;
  }
  for (int k = 0; k < N; k++)
    count[t->ost_oss[k]]++;
  for (int i = 0; i < S; i++) { /* stable insertion sort by decreasing OST count */
    int x = i, b = i - 1;
    while (b >= 0 && count[oss_order[b]] < count[x]) {
      oss_order[b + 1] = oss_order[b];
      b--;
    }
    oss_order[b + 1] = x;
  }
  for (int k = 0; k < N; k++)
    order[k] = -1;
  for (int i = 0; i < S; i++) {
    int oss = oss_order[i], j = 0;
    for (int k = 0; k < N; k++) {
      if (t->ost_oss[k] != oss) continue;
      int pos = (int)((long long)j * N / count[oss]);
      while (order[pos] != -1)
        pos = (pos + 1) % N;
      order[pos] = k;
      j++;
    }
  }
  free(count);
  free(oss_order);
  return IOS_OK;
}

void ios_stripe_rr_alloc(const ios_stripe_topo_t *t, const int *order, long reseed, ios_rng_t *rng,
                         ios_stripe_state_t *s, int count, int *osts) {
  long N = t->nost;
  if (--s->rr_left <= 0) {
    s->rr_start = (long)ios_rng_below(rng, (uint64_t)N);
    s->rr_left = reseed > 0 ? reseed : (2000 / N + 30) * N;
  } else if (count >= N || s->rr_start > N) { /* wrapped: precess the start unless the count already does */
    s->rr_start %= N;
    if (count > 1 && N % count != 1) s->rr_offset++;
  }
  long pos = (s->rr_start + s->rr_offset) % N;
  for (int i = 0; i < count; i++) {
    osts[i] = order[(pos + i) % N];
    s->rr_start++;
  }
}
