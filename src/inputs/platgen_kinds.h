/* iosim — the platform families' parameters and kinds, shared by the validation (platgen.c) and the XML writer
 * (platgen_xml.c); internal to src/inputs/ (see ios_platgen.h for the public interface). */
#ifndef IOS_PLATGEN_KINDS_H
#define IOS_PLATGEN_KINDS_H

#include "ios_storage.h"

#include <stdio.h>

#define MAX_COUNT 1000000 /* cap of every count, and of the number of OSTs (servers × osts_per_server) */

/* Every parameter of every kind. */
enum {
  P_COMPUTE,
  P_IONODES,
  P_SERVERS,
  P_OSTS,
  P_NIC,
  P_IONODE_BW,
  P_PFS_BW,
  P_SERVER_BW,
  P_OST_BW,
  P_ROUTERS,
  P_ROUTER_BW,
  P_LAYOUT,
  P_CAPACITY,
  P_RPC,
  P_RMAP,
  P_FAILED,
  NPARAMS
};

/* What a parameter's value is. */
enum {
  T_COUNT, /* an integer from param_t.min to MAX_COUNT */
  T_BW,    /* a bandwidth: bytes/s, > 0, finite (a number or a string ios_parse_bandwidth reads) */
  T_BYTES, /* a size: bytes, > 0, finite (a number or a string ios_parse_bytes reads) */
  T_NAME,  /* a string: one of ios_storage_preset_names (case-insensitive) */
  T_MAP    /* a string: one of router_maps (exact); p->v[id] holds its index */
};

typedef struct {
  const char *name; /* JSON key (underscores) */
  int type;         /* T_* */
  int min;          /* counts: smallest valid value */
} param_t;

/* One parameter of a kind: its default (a count, a bandwidth string ios_parse_bandwidth reads, a size string
 * ios_parse_bytes reads or a layout name; NULL = computed) and what it means for this kind. */
typedef struct {
  int id;
  const char *def, *help;
} kparam_t;

enum { K_PFS_SINGLE, K_FORWARDING, K_OSS_OST, K_STORAGE, NKINDS };

typedef struct {
  const char *name, *zone, *help;
  int nparams;
  kparam_t p[11];
} kind_t;

/* APEX workflows report (LANL/NERSC/SNL, 2016), Cielo: 8,894 compute nodes, 200 GiB/s aggregate PFS bandwidth. */
#define CIELO_NODES 8894.0
#define CIELO_PFS_BPS (200.0 * 1073741824.0)

/* A validated spec: its kind and the effective value of each of its parameters (counts are exact integers). */
typedef struct {
  const kind_t *k;
  double v[NPARAMS];
  int pfs_scaled;     /* pfs-single with the default (Cielo-scaled) pfs_bw */
  const char *layout; /* storage: the layout's canonical name (an entry of ios_storage_preset_names) */
  ios_storage_t st;   /* storage: the layout's nodes and disks (owned; ios_storage_free) */
} plat_t;

extern const char *const ios_platgen_router_maps[]; /* router_map's values: index 0 cyclic, 1 block */
extern const param_t ios_platgen_params[NPARAMS];
extern const kind_t ios_platgen_kinds[NKINDS];

/* A bandwidth in bytes/s as SimGrid reads it: "1250000000Bps". */
const char *ios_platgen_fmt_bw(double v, char buf[48]);
/* Human forms for the header's summary: "12.5 GB/s" (else GiB/s, else "~3.091 GB/s"), "100 Gb/s", "4 TB". */
const char *ios_platgen_human_bw(double v, char buf[48]);
const char *ios_platgen_human_bits(double v, char buf[48]);
const char *ios_platgen_human_bytes(double v, char buf[48]);
/* oss-ost: the i-th router (0 = its first, nearest) compute node k may use: (first + i) mod R (R > 0). */
int ios_platgen_client_router(const plat_t *p, int k, int i);
/* oss-ost with router choices (routers_per_client > 1 or router_map block): compute hosts list their routers. */
int ios_platgen_router_choices(const plat_t *p);
/* Writes the XML of the validated spec p; `origin` (may be NULL) goes into the header comment. @return 0, or -1 when
 * out of memory. */
int ios_platgen_emit(FILE *f, const plat_t *p, const char *origin);

#endif
