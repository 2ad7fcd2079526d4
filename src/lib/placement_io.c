/* iosim — the StorAlloc and TAPP-IO decisions of libiosim's policy face (include/iosim/policy.h): a storage platform
 * and its allocations with one disk choice (policies/storage/, StorAlloc §4.2), a Lustre topology and its usage with
 * one striping layout (policies/striping/, TAPP-IO §III). The policies' own functions decide; this file keeps the
 * caller's state and checks its arguments. */
#include "ios_lib.h"

#include "ios_storage.h"
#include "ios_striping.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------- StorAlloc storage
 */
struct iosim_storage {
  ios_storage_t s;
  ios_storage_state_t st; /* prepared at the first hold or choice (st.disk == NULL before) */
  ios_storage_ctx_t ctx;  /* ctx.cursor [nnodes + 1], with st */
  uint64_t seed;
};

iosim_storage_t *iosim_storage_new(void) {
  iosim_storage_t *s = calloc(1, sizeof *s);
  if (s == NULL) ios_lib_fail(IOSIM_ENOMEM, "iosim_storage_new: out of memory");
  return s;
}

iosim_storage_t *iosim_storage_preset(const char *name, double total_bytes) {
  iosim_storage_t *s = iosim_storage_new();
  if (s == NULL) return NULL;
  int rc = ios_storage_preset(name != NULL ? name : "", total_bytes, &s->s);
  if (rc != IOS_OK) {
    char names[256] = "";
    for (int i = 0; ios_storage_preset_names[i] != NULL; i++) {
      size_t l = strlen(names);
      snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", ios_storage_preset_names[i]);
    }
    ios_lib_fail(rc == IOS_ENOMEM ? IOSIM_ENOMEM : IOSIM_EINVAL,
                 "iosim_storage_preset: '%s' of %g bytes: give one of %s with a total > 0 (table5: 0 or 32e12)",
                 name != NULL ? name : "(null)", total_bytes, names);
    free(s);
    return NULL;
  }
  return s;
}

int iosim_storage_add_node(iosim_storage_t *storage, const char *name, double node_bw, int ndisks, double capacity,
                           double read_bw, double write_bw) {
  if (storage == NULL || storage->st.disk != NULL)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_storage_add_node: %s",
                        storage == NULL ? "the platform is NULL"
                                        : "the platform already holds allocations: add every node first");
  int rc = ios_storage_add_node(&storage->s, name, node_bw, ndisks, capacity, read_bw, write_bw);
  if (rc == IOS_ENOMEM) return ios_lib_fail(IOSIM_ENOMEM, "iosim_storage_add_node: out of memory");
  if (rc != IOS_OK)
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_storage_add_node: node bandwidth %g bytes/s, %d disks of %g bytes at %g "
                        "(read) and %g (write) bytes/s: give a bandwidth > 0, at least one disk, a capacity > 0 and "
                        "finite disk bandwidths > 0",
                        node_bw, ndisks, capacity, read_bw, write_bw);
  return IOSIM_OK;
}

int iosim_storage_disk_count(const iosim_storage_t *storage) {
  return storage != NULL ? storage->s.ndisks : ios_lib_fail(IOSIM_EINVAL, "the platform is NULL");
}

/* The allocation state and the policies' memory, prepared once the platform is complete. */
static int prepare(iosim_storage_t *s, const char *function) {
  if (s == NULL || s->s.ndisks < 1)
    return ios_lib_fail(IOSIM_EINVAL, "%s: %s", function,
                        s == NULL ? "the platform is NULL"
                                  : "the platform has no disk: add nodes first (iosim_storage_add_node)");
  if (s->st.disk != NULL) return IOSIM_OK;
  s->ctx.cursor = calloc((size_t)s->s.nnodes + 1, sizeof *s->ctx.cursor);
  if (s->ctx.cursor == NULL || ios_storage_state_init(&s->st, &s->s) != IOS_OK) {
    free(s->ctx.cursor);
    s->ctx.cursor = NULL;
    return ios_lib_fail(IOSIM_ENOMEM, "%s: out of memory", function);
  }
  ios_rng_seed(&s->ctx.rng, s->seed, IOSIM_STREAM_STORAGE);
  return IOSIM_OK;
}

int iosim_storage_hold(iosim_storage_t *storage, int d, double size, double end, double need, long owner) {
  int rc = prepare(storage, "iosim_storage_hold");
  if (rc != IOSIM_OK) return rc;
  if (d < 0 || d >= storage->s.ndisks || !(size > 0) || !isfinite(size) || isnan(end) || end <= storage->st.now ||
      !(need >= 0) || !isfinite(need))
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_storage_hold: disk %d, %g bytes until %g s, need %g bytes/s: give a disk "
                        "in 0..%d, a finite size > 0, an end after the platform's date (%g s) and a finite need >= 0",
                        d, size, end, need, storage->s.ndisks - 1, storage->st.now);
  ios_storage_alloc_t a = {.size = size, .end = end, .need = need, .owner = owner};
  rc = ios_storage_state_add(&storage->st, &storage->s, d, &a);
  if (rc == IOS_ENOMEM) return ios_lib_fail(IOSIM_ENOMEM, "iosim_storage_hold: out of memory");
  return rc == 1 ? 1 : IOSIM_OK;
}

int iosim_storage_set_time(iosim_storage_t *storage, double now) {
  int rc = prepare(storage, "iosim_storage_set_time");
  if (rc != IOSIM_OK) return rc;
  if (!isfinite(now) || now < storage->st.now)
    return ios_lib_fail(IOSIM_EINVAL,
                        "iosim_storage_set_time: %g s: give a finite date at or after the platform's "
                        "(%g s)",
                        now, storage->st.now);
  storage->st.now = now;
  for (int d = 0; d < storage->s.ndisks; d++) {
    ios_storage_disk_state_t *ds = &storage->st.disk[d];
    while (ds->n > 0 && ds->a[0].end <= now) /* kept in end order */
      ios_storage_state_remove(&storage->st, d, ds->a[0].owner, ds->a[0].size, ds->a[0].end);
  }
  return IOSIM_OK;
}

double iosim_storage_free_bytes(const iosim_storage_t *storage, int d) {
  if (storage == NULL || d < 0 || d >= storage->s.ndisks) return NAN;
  if (storage->st.disk == NULL) return storage->s.disks[d].capacity;
  return ios_storage_free_bytes(&storage->st, &storage->s, d);
}

int iosim_storage_seed(iosim_storage_t *storage, uint64_t seed) {
  if (storage == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_storage_seed: the platform is NULL");
  storage->seed = seed;
  if (storage->st.disk != NULL) {
    ios_rng_seed(&storage->ctx.rng, seed, IOSIM_STREAM_STORAGE);
    memset(storage->ctx.cursor, 0, sizeof *storage->ctx.cursor * ((size_t)storage->s.nnodes + 1));
  }
  return IOSIM_OK;
}

static int check_ask(const iosim_storage_t *s, double size, double duration, double need, const char *function) {
  if (!(size > 0) || !isfinite(size) || !(duration >= 0) || !isfinite(duration) || !(need >= 0) || !isfinite(need))
    return ios_lib_fail(IOSIM_EINVAL,
                        "%s: %g bytes for %g s, need %g bytes/s: give a finite size > 0, a finite "
                        "duration >= 0 and a finite need >= 0",
                        function, size, duration, need);
  (void)s;
  return IOSIM_OK;
}

int iosim_storage_choose(const iosim_policy_t *policy, const iosim_params_t *params, iosim_storage_t *storage,
                         double size, double duration, double need, int *disk_out) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (!ios_lib_check_family(p, IOS_FAMILY_STORAGE, "iosim_storage_choose")) return IOSIM_EINVAL;
  int rc = prepare(storage, "iosim_storage_choose");
  if (rc == IOSIM_OK) rc = check_ask(storage, size, duration, need, "iosim_storage_choose");
  if (rc != IOSIM_OK) return rc;
  if (disk_out == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_storage_choose: disk_out is NULL");
  ios_params_t tmp;
  const ios_params_t *v = ios_lib_params(p, params, &tmp);
  if (v == NULL) return IOSIM_EINVAL;
  ios_storage_ask_t ask = {.size = size, .start = storage->st.now, .duration = duration, .need = need};
  int disk = -1;
  rc = ((const ios_storage_policy_t *)p)->place(&storage->s, &storage->st, &ask, v, &storage->ctx, &disk);
  if (rc == IOS_STORAGE_REFUSED) return IOSIM_STORAGE_REFUSED;
  if (rc != IOS_STORAGE_CHOSEN || disk < 0 || disk >= storage->s.ndisks)
    return ios_lib_fail(IOSIM_EINVAL, "storage policy '%s' could not place %g bytes for %g s", p->name, size, duration);
  *disk_out = disk;
  return IOSIM_STORAGE_CHOSEN;
}

double iosim_storage_bandwidth(const iosim_storage_t *storage, int d, double size, double duration) {
  if (storage == NULL || d < 0 || d >= storage->s.ndisks ||
      check_ask(storage, size, duration, 0, "iosim_storage_bandwidth") != IOSIM_OK ||
      prepare((iosim_storage_t *)storage, "iosim_storage_bandwidth") != IOSIM_OK)
    return NAN;
  ios_storage_ask_t ask = {.size = size, .start = storage->st.now, .duration = duration, .need = 0};
  return ios_storage_bw_estimate(&storage->s, &storage->st, d, &ask);
}

void iosim_storage_free(iosim_storage_t *storage) {
  if (storage == NULL) return;
  if (storage->st.disk != NULL) ios_storage_state_free(&storage->st);
  free(storage->ctx.cursor);
  ios_storage_free(&storage->s);
  free(storage);
}

/* ------------------------------------------------------------------------------------------------ TAPP-IO striping */
struct iosim_stripe_topo {
  ios_stripe_topo_t t;
  int *ost_oss; /* [nost], owned (t.ost_oss) */
  ios_stripe_state_t st;
};

struct iosim_stripe_layout {
  ios_stripe_placement_t pl;
  int nost;
  double *ost_bytes; /* [nost] */
};

static iosim_stripe_topo_t *topo_make(ios_stripe_topo_t t, int *ost_oss) {
  iosim_stripe_topo_t *h = calloc(1, sizeof *h);
  if (h == NULL) {
    free(ost_oss);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_stripe_topo_new: out of memory");
    return NULL;
  }
  h->t = t;
  h->ost_oss = ost_oss;
  h->t.ost_oss = ost_oss;
  if (ios_stripe_state_init(&h->st, &h->t) != IOS_OK) {
    free(ost_oss);
    free(h);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_stripe_topo_new: out of memory");
    return NULL;
  }
  return h;
}

iosim_stripe_topo_t *iosim_stripe_topo_new(int nrouters, int noss, int nost, const int *ost_oss, int nclients) {
  if (nost < 1 || nost > 1000000 || ost_oss == NULL) {
    ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_topo_new: %d OSTs%s: give 1..1000000 OSTs and the OSS of each", nost,
                 ost_oss == NULL ? " without ost_oss" : "");
    return NULL;
  }
  int *copy = malloc(sizeof *copy * (size_t)nost);
  if (copy == NULL) {
    ios_lib_fail(IOSIM_ENOMEM, "iosim_stripe_topo_new: out of memory");
    return NULL;
  }
  memcpy(copy, ost_oss, sizeof *copy * (size_t)nost);
  ios_stripe_topo_t t = {.nrouters = nrouters, .noss = noss, .nost = nost, .ost_oss = copy, .nclients = nclients};
  if (ios_stripe_topo_validate(&t) != IOS_OK) {
    free(copy);
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_stripe_topo_new: %d routers, %d OSSes, %d OSTs, %d clients: give routers >= 0, "
                 "OSSes >= 1, clients >= 1 and every OST's OSS in 0..OSSes-1",
                 nrouters, noss, nost, nclients);
    return NULL;
  }
  return topo_make(t, copy);
}

iosim_stripe_topo_t *iosim_stripe_topo_regular(int servers, int osts_per_server, int routers, int clients) {
  if (servers < 1 || osts_per_server < 1 || (long)servers * osts_per_server > 1000000) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_stripe_topo_regular: %d servers of %d OSTs: give at least one of each (at most "
                 "1000000 OSTs)",
                 servers, osts_per_server);
    return NULL;
  }
  int *buf = malloc(sizeof *buf * (size_t)servers * (size_t)osts_per_server);
  if (buf == NULL) {
    ios_lib_fail(IOSIM_ENOMEM, "iosim_stripe_topo_regular: out of memory");
    return NULL;
  }
  ios_stripe_topo_t t;
  if (ios_stripe_topo_regular(&t, buf, servers, osts_per_server, routers, clients) != IOS_OK) {
    free(buf);
    ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_topo_regular: %d routers, %d clients: give routers >= 0 and clients >= 1",
                 routers, clients);
    return NULL;
  }
  return topo_make(t, buf);
}

int iosim_stripe_topo_reset(iosim_stripe_topo_t *topo) {
  if (topo == NULL) return ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_topo_reset: the topology is NULL");
  ios_stripe_state_reset(&topo->st);
  return IOSIM_OK;
}

void iosim_stripe_topo_free(iosim_stripe_topo_t *topo) {
  if (topo == NULL) return;
  ios_stripe_state_free(&topo->st);
  free(topo->ost_oss);
  free(topo);
}

iosim_stripe_layout_t *iosim_stripe_place(const iosim_policy_t *policy, const iosim_params_t *params,
                                          iosim_stripe_topo_t *topo, iosim_rng_t *rng, int nwriters,
                                          double bytes_per_writer, int shared_files) {
  const ios_policy_t *p = ios_lib_policy(policy);
  if (!ios_lib_check_family(p, IOS_FAMILY_STRIPING, "iosim_stripe_place")) return NULL;
  ios_params_t tmp;
  const ios_params_t *v = topo != NULL ? ios_lib_params(p, params, &tmp) : NULL;
  if (v == NULL) {
    if (topo == NULL) ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_place: the topology is NULL");
    return NULL;
  }
  ios_stripe_job_t job = {.nwriters = nwriters,
                          .layout = shared_files > 0 ? IOS_LAYOUT_SSF : IOS_LAYOUT_FPP,
                          .bytes_per_writer = bytes_per_writer,
                          .writer_client = NULL,
                          .shared_files = shared_files > 0 ? shared_files : 0};
  if (shared_files < 0 || ios_stripe_job_validate(&topo->t, &job) != IOS_OK) {
    ios_lib_fail(IOSIM_EINVAL,
                 "iosim_stripe_place: %d writers of %g bytes, %d shared files: give writers >= 1, bytes "
                 "> 0 and 0 (file per process) or 1..writers shared files",
                 nwriters, bytes_per_writer, shared_files);
    return NULL;
  }
  iosim_stripe_layout_t *l = calloc(1, sizeof *l);
  if (l != NULL) l->ost_bytes = calloc((size_t)topo->t.nost, sizeof *l->ost_bytes);
  if (l == NULL || l->ost_bytes == NULL) {
    free(l);
    ios_lib_fail(IOSIM_ENOMEM, "iosim_stripe_place: out of memory");
    return NULL;
  }
  ios_rng_t local;
  ios_rng_seed(&local, 0, IOSIM_STREAM_STRIPING);
  int rc =
      ((const ios_striping_policy_t *)p)->place(&topo->t, &job, v, rng != NULL ? &rng->r : &local, &topo->st, &l->pl);
  if (rc == IOS_OK) rc = ios_stripe_loads(&topo->t, &job, &l->pl, l->ost_bytes, NULL, NULL);
  if (rc != IOS_OK) {
    ios_stripe_placement_free(&l->pl);
    free(l->ost_bytes);
    free(l);
    ios_lib_fail(rc == IOS_ENOMEM ? IOSIM_ENOMEM : IOSIM_EINVAL,
                 "striping policy '%s' could not place %d writers of "
                 "%g bytes",
                 p->name, nwriters, bytes_per_writer);
    return NULL;
  }
  l->nost = topo->t.nost;
  return l;
}

int iosim_stripe_file_count(const iosim_stripe_layout_t *layout) {
  return layout != NULL ? layout->pl.nfiles : ios_lib_fail(IOSIM_EINVAL, "the layout is NULL");
}

int iosim_stripe_file(const iosim_stripe_layout_t *layout, int f, double *size, double *stripe_size, int *stripe_count,
                      int *osts_out) {
  if (layout == NULL || f < 0 || f >= layout->pl.nfiles)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_file: file %d: out of range 0..%d", f,
                        layout != NULL ? layout->pl.nfiles - 1 : -1);
  const ios_stripe_file_t *file = &layout->pl.files[f];
  if (size != NULL) *size = file->size;
  if (stripe_size != NULL) *stripe_size = file->stripe_size;
  if (stripe_count != NULL) *stripe_count = file->stripe_count;
  if (osts_out != NULL) memcpy(osts_out, layout->pl.osts + file->first, sizeof *osts_out * (size_t)file->stripe_count);
  return IOSIM_OK;
}

int iosim_stripe_writer_router(const iosim_stripe_layout_t *layout, int w) {
  if (layout == NULL || w < 0 || w >= layout->pl.nwriters)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_writer_router: writer %d: out of range", w);
  return layout->pl.writer_router[w];
}

int iosim_stripe_ost_bytes(const iosim_stripe_layout_t *layout, double *ost_bytes_out) {
  if (layout == NULL || ost_bytes_out == NULL)
    return ios_lib_fail(IOSIM_EINVAL, "iosim_stripe_ost_bytes: give a layout and ost_bytes_out [OSTs]");
  memcpy(ost_bytes_out, layout->ost_bytes, sizeof *ost_bytes_out * (size_t)layout->nost);
  return IOSIM_OK;
}

void iosim_stripe_layout_free(iosim_stripe_layout_t *layout) {
  if (layout == NULL) return;
  ios_stripe_placement_free(&layout->pl);
  free(layout->ost_bytes);
  free(layout);
}
