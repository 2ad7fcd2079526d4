/* iosim — what the platform families' validation (platgen.c) and XML writer (platgen_xml.c) share (platgen_kinds.h):
 * the parameters, kinds and router maps, a node's routers, and the numbers of the XML and its human summary. It uses
 * neither file, so they are layered one way: platgen.c over platgen_xml.c over this. */
#include "platgen_kinds.h"

#include "ios_units.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a compute node's first (nearest) router is chosen, router_map: cyclic, client k → rtr(k mod R) (the historical
 * routes); block, client k → rtr(⌊k·R/C⌋), so that neighbouring nodes share their nearest router, as Fine-Grained
 * Routing pairs each Titan node with its closest LNET router (TAPP-IO §II, its reference [10]). */
const char *const ios_platgen_router_maps[] = {"cyclic", "block", NULL};

const param_t ios_platgen_params[NPARAMS] = {
    [P_COMPUTE] = {"compute", T_COUNT, 1},   [P_IONODES] = {"ionodes", T_COUNT, 1},
    [P_SERVERS] = {"servers", T_COUNT, 1},   [P_OSTS] = {"osts_per_server", T_COUNT, 1},
    [P_NIC] = {"nic_bw", T_BW, 0},           [P_IONODE_BW] = {"ionode_bw", T_BW, 0},
    [P_PFS_BW] = {"pfs_bw", T_BW, 0},        [P_SERVER_BW] = {"server_bw", T_BW, 0},
    [P_OST_BW] = {"ost_bw", T_BW, 0},        [P_ROUTERS] = {"routers", T_COUNT, 0},
    [P_ROUTER_BW] = {"router_bw", T_BW, 0},  [P_LAYOUT] = {"layout", T_NAME, 0},
    [P_CAPACITY] = {"capacity", T_BYTES, 0}, [P_RPC] = {"routers_per_client", T_COUNT, 1},
    [P_RMAP] = {"router_map", T_MAP, 0},     [P_FAILED] = {"failed_over", T_COUNT, 0},
};

#define ROUTER_PARAMS                                                                                                  \
  {P_ROUTERS, "0", "LNET-like routers rtr0..rtr{R-1} between compute and storage (0: none)"}, {                        \
    P_ROUTER_BW, "12.5GBps", "bandwidth of each router link"                                                           \
  }

const kind_t ios_platgen_kinds[NKINDS] = {
    [K_PFS_SINGLE] = {"pfs-single",
                      "iosim-pfs-single",
                      "compute nodes writing directly to one shared PFS (APEX Cielo defaults)",
                      5,
                      {{P_COMPUTE, "128", "compute nodes C (hosts c0..c{C-1})"},
                       {P_NIC, "1.2GiBps", "per-node NIC bandwidth (nic_bw property, an application-side cap)"},
                       {P_PFS_BW, NULL, "aggregate PFS bandwidth (link pfs); default Cielo's 200 GiB/s x C / 8894"},
                       ROUTER_PARAMS}},
    [K_FORWARDING] = {"forwarding",
                      "iosim-forwarding",
                      "compute nodes, I/O forwarding nodes and a PFS behind them (MareNostrum 4-like defaults)",
                      7,
                      {{P_COMPUTE, "512", "compute nodes C (hosts c0..c{C-1})"},
                       {P_IONODES, "12", "I/O forwarding nodes F (hosts and links ion0..ion{F-1})"},
                       {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s Omni-Path)"},
                       {P_IONODE_BW, "1.25GBps", "bandwidth of each I/O node (link ionK)"},
                       {P_PFS_BW, "20GBps", "bandwidth of the PFS behind the I/O nodes (link gpfs)"},
                       ROUTER_PARAMS}},
    [K_OSS_OST] = {"oss-ost",
                   "iosim-oss-ost",
                   "compute nodes and storage servers with OSTs (PlaFRIM BeeGFS defaults)",
                   11,
                   {{P_COMPUTE, "64", "compute nodes C (hosts c0..c{C-1})"},
                    {P_SERVERS, "2", "object storage servers S (hosts and links oss0..oss{S-1})"},
                    {P_OSTS, "4", "OSTs per server T (hosts and links ost0..ost{S*T-1})"},
                    {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s Omni-Path)"},
                    {P_SERVER_BW, "12.5GBps", "network bandwidth of each server (link ossI)"},
                    {P_OST_BW, "1.2GBps", "bandwidth of each OST device (link ostK, \"OST as a link\")"},
                    ROUTER_PARAMS,
                    {P_RPC, "1",
                     "routers K each compute node may use: its first and the next K-1 (mod R), each with a route "
                     "(K > 1: hosts cN.rtrR, docs/striping.md)"},
                    {P_RMAP, "cyclic", "first router of node k: cyclic = rtr(k mod R); block = rtr(floor(k*R/C))"},
                    {P_FAILED, "0",
                     "servers failed over F: the OSTs of oss0, oss2, .., oss{2F-2} are routed through their partners "
                     "oss1, oss3, .., oss{2F-1}, which then serve twice the OSTs (docs/validation.md)"}}},
    [K_STORAGE] = {"storage",
                   "iosim-storage",
                   "compute nodes, a storage tier of nodes holding disks and a PFS for refused requests (StorAlloc)",
                   7,
                   {{P_COMPUTE, "64", "compute nodes C (hosts c0..c{C-1})"},
                    {P_LAYOUT, "nNnD", "StorAlloc layout: 1N1D, 1NnD, nN1D, nNnD (Table 4) or table5 (Table 5)"},
                    {P_CAPACITY, "32TB", "total disk capacity, shared equally by the disks (table5: 32TB only)"},
                    {P_NIC, "12.5GBps", "per-node NIC bandwidth (100 Gb/s)"},
                    {P_PFS_BW, "20GBps", "bandwidth of the PFS used by refused and failed requests (link gpfs)"},
                    ROUTER_PARAMS}},
};

/* A bandwidth in bytes/s as SimGrid reads it: "1250000000Bps". */
const char *ios_platgen_fmt_bw(double v, char buf[48]) {
  char num[40];
  snprintf(buf, 48, "%sBps", ios_fmt_double(num, sizeof num, v));
  return buf;
}

/* oss-ost: the i-th router (0 = its first, nearest) compute node k may use: (first + i) mod R (R > 0). */
int ios_platgen_client_router(const plat_t *p, int k, int i) {
  int C = (int)p->v[P_COMPUTE], R = (int)p->v[P_ROUTERS];
  int first = p->k == &ios_platgen_kinds[K_OSS_OST] && p->v[P_RMAP] == 1 ? (int)((long long)k * R / C) : k % R;
  return (first + i) % R;
}

/* oss-ost with router choices (routers_per_client > 1 or router_map block): compute hosts list their routers. */
int ios_platgen_router_choices(const plat_t *p) {
  return p->k == &ios_platgen_kinds[K_OSS_OST] && p->v[P_ROUTERS] > 0 && (p->v[P_RPC] > 1 || p->v[P_RMAP] != 0);
}

/* v in the first of the n units (value, name) that writes it exactly with the fewest digits (up to 6), else
 * "~" and 4 digits in the first unit: the human summary's numbers. */
static const char *human(double v, int n, const double *unit, const char *const *name, char buf[48]) {
  for (int prec = 1; prec <= 6; prec++)
    for (int u = 0; u < n; u++) {
      snprintf(buf, 48, "%.*g", prec, v / unit[u]);
      if (strchr(buf, 'e') == NULL && fabs(strtod(buf, NULL) * unit[u] - v) <= 1e-12 * v) {
        size_t len = strlen(buf);
        snprintf(buf + len, 48 - len, " %s", name[u]);
        return buf;
      }
    }
  snprintf(buf, 48, "~%.4g %s", v / unit[0], name[0]);
  return buf;
}

/* A bandwidth for the human summary: "12.5 GB/s", "1.2 GiB/s" (the shorter exact form), else "~3.091 GB/s". */
const char *ios_platgen_human_bw(double v, char buf[48]) {
  static const double unit[] = {1e9, 1073741824.0};
  static const char *const name[] = {"GB/s", "GiB/s"};
  return human(v, 2, unit, name, buf);
}

/* A bandwidth in bits/s for the human summary: "100 Gb/s". */
const char *ios_platgen_human_bits(double v, char buf[48]) {
  static const double unit[] = {1e9};
  static const char *const name[] = {"Gb/s"};
  return human(8 * v, 1, unit, name, buf);
}

/* A size for the human summary: "4 TB", "1.6 TB", "500 GB", "1 TiB". */
const char *ios_platgen_human_bytes(double v, char buf[48]) {
  static const double unit[] = {1e12, 1e9, 1099511627776.0, 1073741824.0};
  static const char *const name[] = {"TB", "GB", "TiB", "GiB"};
  return human(v, 4, unit, name, buf);
}
