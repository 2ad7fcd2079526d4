/* iosim — Darshan logs (the I/O characterisation HPC centres record for every job): a reader of the binary log
 * format 3.x, written from the format's description in the headers of darshan-hpc/darshan (darshan-logutils.h,
 * include/darshan-*-log-format.h), with zlib and bzip2; and the mapping of a log to an iosim application
 * (docs/darshan.md says what is read from a log and what is assumed).
 *
 * A log is a header (version string, magic number 6567223, compression, the offset and length of every region) and
 * regions compressed one by one: the job (uid, job id, start and end times, processes, metadata), the executable and
 * the mount table; the name records (record id -> file path); one region per module. Read here: POSIX, MPI-IO, STDIO,
 * DFS and DAOS counters, the LUSTRE layouts (stripe size, stripe count, OSTs per file) and the DXT per-operation
 * traces (POSIX or MPI-IO); other modules are skipped. Format versions 3.00, 3.10, 3.20, 3.21 and 3.41 (every format
 * darshan-util reads), either byte order, zlib, bzip2 or no compression; module versions POSIX 1-4, MPI-IO 1-3,
 * STDIO 1-2, DFS 1, DAOS 1, LUSTRE 1-2, DXT POSIX 1-2, DXT MPI-IO 1-3. The header's flags of modules that ran out of
 * memory at run time (incomplete records) are kept (partial_modules). */
#ifndef IOS_DARSHAN_H
#define IOS_DARSHAN_H

#include "ios_model.h"
#include "ios_platform.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The counter modules read (darshan_module_id differs between format versions; these do not). DFS is the DAOS file
 * system's POSIX-like interface, DAOS the native object interface below it (both from Darshan 3.4.7, format 3.41). */
enum {
  IOS_DARSHAN_POSIX = 0,
  IOS_DARSHAN_MPIIO = 1,
  IOS_DARSHAN_STDIO = 2,
  IOS_DARSHAN_DFS = 3,
  IOS_DARSHAN_DAOS = 4,
  IOS_DARSHAN_NMODULES = 5
};

/** What one counter module recorded, summed over its records (all files, all ranks). */
typedef struct {
  int version;                   /**< the module's format version in this log, 0 when the log has no such region */
  int partial;                   /**< the module ran out of memory at run time: its records are incomplete */
  int nrecords;                  /**< records (one per file and rank; rank -1 = a file shared by every rank) */
  double bytes_read;             /**< bytes (BYTES_READ summed) */
  double bytes_written;          /**< bytes (BYTES_WRITTEN summed) */
  double reads, writes;          /**< operations (MPI-IO: independent + collective + split + non-blocking; DFS:
                                      read + readx; DAOS: object fetches + array reads + key-value gets, likewise) */
  double opens;                  /**< opens (MPI-IO: independent + collective; DAOS: objects + arrays + key-values) */
  double read_time;              /**< s, cumulative over ranks (F_READ_TIME summed) */
  double write_time;             /**< s, cumulative over ranks */
  double meta_time;              /**< s, cumulative over ranks */
  double unique_slowest;         /**< s: the largest per-rank sum of read + write + meta time over non-shared records */
  double shared_slowest;         /**< s: F_SLOWEST_RANK_TIME summed over shared records */
  double time_by_slowest;        /**< s: unique_slowest + shared_slowest, darshan-parser --perf's agg_time_by_slowest */
  double read_start, read_end;   /**< s after the job's start: first read start and last read end; -1 when none */
  double write_start, write_end; /**< same for writes */
} ios_darshan_module_t;

/** One file's Lustre layout (LUSTRE module). */
typedef struct {
  uint64_t id;          /**< record id (hash of the path) */
  int64_t rank;         /**< the rank that opened it, -1 when shared */
  int64_t stripe_size;  /**< bytes (first component) */
  int64_t stripe_count; /**< OSTs the file is striped over (all components) */
  int nosts;            /**< entries of `osts` */
  int64_t *osts;        /**< [nosts] OST indices, component after component (owned) */
  double bytes;         /**< bytes the counter modules moved to or from this file (max(POSIX, MPI-IO) + STDIO) */
} ios_darshan_file_t;

/** One DXT segment: an I/O call of one rank. */
typedef struct {
  int64_t rank;
  int write;              /**< 1 write, 0 read */
  int64_t offset, length; /**< bytes */
  double start, end;      /**< s after the job's start */
} ios_darshan_segment_t;

/** A mount table entry. */
typedef struct {
  char *path, *type; /**< owned */
} ios_darshan_mount_t;

/** Everything read from one log. */
typedef struct {
  char version[8];    /**< format version string, "3.00" .. "3.41" ("3.20": runtime 3.2.0, see ios_darshan_warn) */
  int compression;    /**< 0 zlib, 1 bzip2, 2 none */
  int byteswap;       /**< the log was written on a machine of the other byte order */
  int64_t uid, jobid; /**< as recorded */
  int64_t nprocs;     /**< MPI processes (ranks) */
  double start_time;  /**< s since the Unix epoch (with nanoseconds from format 3.41) */
  double end_time;    /**< s since the Unix epoch */
  double runtime;     /**< s: end - start, + 1 before format 3.41 (whole-second clocks; darshan-parser's run time) */
  char *exe;          /**< executable and arguments (owned, may be "") */
  char *metadata;     /**< job metadata "key=value" lines (owned) */
  int nmounts;
  ios_darshan_mount_t *mounts; /**< [nmounts] (owned) */
  int nnames;                  /**< name records */
  uint64_t partial_modules;    /**< bit i set: module i (ios_darshan_module_name, Darshan's numbering of format 3.41,
                                    whatever the log's format) is flagged incomplete in the header */
  ios_darshan_module_t module[IOS_DARSHAN_NMODULES];
  int lustre_version; /**< 0 when the log has no LUSTRE region */
  int nfiles;
  ios_darshan_file_t *files; /**< [nfiles] Lustre layouts (owned) */
  int64_t fs_osts;           /**< OSTs of the file system (LUSTRE version 1's LUSTRE_OSTS, largest), 0 unknown */
  int dxt_module;            /**< whose DXT trace `segments` is: -1 none, IOS_DARSHAN_POSIX or IOS_DARSHAN_MPIIO */
  int dxt_version;           /**< that DXT module's format version */
  int dxt_partial;           /**< that DXT module is flagged incomplete: the trace is truncated */
  int nsegments;
  ios_darshan_segment_t *segments; /**< [nsegments] (owned), in the log's order */
  int dxt_ranks;                   /**< distinct ranks in the trace */
  int dxt_hosts;                   /**< distinct host names in the trace */
} ios_darshan_log_t;

/** Reads the Darshan log `path`. @return IOS_OK; IOS_EINVAL for a file that is not a readable Darshan 3.x log
 * (foreign, truncated or corrupt: ios_diag_message() names the file, the region — header, job, name records, a
 * module — what is wrong and the fix); IOS_EIO when it cannot be read; IOS_ENOMEM. `out` untouched on failure. */
int ios_darshan_read(const char *path, ios_darshan_log_t *out);

/** As ios_darshan_read, from `len` bytes in memory; `label` names them in messages. */
int ios_darshan_parse(const unsigned char *data, size_t len, const char *label, ios_darshan_log_t *out);

/** Frees what the log owns and zeroes it. */
void ios_darshan_free(ios_darshan_log_t *log);

/** The name of module `id` in Darshan's numbering of format 3.41 (darshan_module_id: 1 "POSIX", 2 "MPI-IO", ...,
 * 10 "DXT_POSIX", 16 "DFS", 17 "DAOS"), or NULL past the modules Darshan knows. Static. */
const char *ios_darshan_module_name(int id);

/** How logs become applications (workload.darshan, docs/darshan.md). */
typedef struct {
  int ranks_per_node;   /**< compute nodes = ceil(nprocs / ranks_per_node) when the log does not tell (default 32) */
  double merge_gap;     /**< DXT phases: I/O bursts closer than merge_gap × runtime are one phase (default 0.01) */
  int phases_counters;  /**< 1: phases from the counters even when a DXT trace exists */
  int osts;             /**< 0 "count": io_resources = the distinct OSTs of the job's files; 1 "recorded": the job
                             uses those very OSTs (resources ost<ID>); 2 "none": the scenario's allocation decides */
  int skip_bad;         /**< 1: logs that cannot be read are skipped (listed, counted) and the rest replayed; 0: any
                             such log fails the whole workload, after all of them are listed (default 0) */
  int replay;           /**< 0 "as-recorded": release = start time minus the earliest (idle gaps as compress_gaps
                             says); 1 "concurrent": every job released at 0, the worst case (default 0) */
  double compress_gaps; /**< s: as-recorded, every idle gap between the logs' busy periods (the union of their
                             [start, start + run time]) longer than this is shortened to it; < 0: gaps kept as
                             recorded (default -1) */
  long stripe_count;    /**< with recorded OSTs: 0 each file's stripes as recorded; k >= 1 every file restriped
                             over min(k, N) OSTs in Lustre's round-robin order; -1 over every OST; -2 not given
                             (default): as recorded, or the scenario's lustre-default stripe_count (ios_darshan_build) */
  const cJSON *jobs;    /**< workload.darshan.jobs: per-job options by application name ({"stripe_count": k}), borrowed
                             from the scenario (checked by ios_darshan_spec), or NULL */
  long default_stripe_count; /**< with recorded OSTs: the file system's default stripe count, given to every file the
                                  log records no layout for (a job without a LUSTRE module), >= 1 or -1 (every OST);
                                  default 1 (Lustre's) */
  uint64_t seed; /**< the scenario's seed: Lustre's round-robin allocator draws its start index from it (restriped files
                      and files without a layout, ios_stripe_rr_alloc) */
} ios_darshan_options_t;

/** The defaults above. */
ios_darshan_options_t ios_darshan_options_default(void);

/** Reads workload.darshan `spec` of scenario `file` (a log or directory path, an array of them, or an object
 * {"logs": ..., "ranks_per_node": 32, "merge_gap": 0.01, "phases": "auto|counters", "osts": "count|recorded|none"})
 * into the sorted list of log paths `*paths` [*npaths] (allocated, ios_darshan_paths_free) and `opt`. Relative
 * paths are taken as they are (the scenario loader rebased them). @return IOS_OK or IOS_EINVAL/IOS_EIO/IOS_ENOMEM
 * with ios_diag_message() (a directory without *.darshan files, an unknown option). */
int ios_darshan_spec(const cJSON *spec, const char *file, char ***paths, int *npaths, ios_darshan_options_t *opt);

/** Frees a path list of ios_darshan_spec. */
void ios_darshan_paths_free(char **paths, int npaths);

/** What a log measured, beside the application made of it (`iosim generate darshan` prints it). */
typedef struct ios_darshan_info {
  int64_t nprocs;
  double runtime;         /**< s */
  double bytes_read;      /**< bytes of the application's read phases */
  double bytes_written;   /**< bytes of its write phases */
  double time_by_slowest; /**< s: the measured I/O time (base module + STDIO, darshan-parser --perf) */
  int from_dxt;           /**< the phases come from the DXT trace */
  int osts;               /**< distinct OSTs of the job's files, 0 when the log has no Lustre layout */
} ios_darshan_info_t;

/** Builds one application per log (release: opt->replay and opt->compress_gaps above; nodes; processes;
 * phases from DXT or from the counters; io_resources or given OSTs from the Lustre layouts) for platform `p` (NULL:
 * no platform; io_resources are then not capped to a pool and "recorded" is refused), appended to `w` (on failure `w`
 * may hold some of them: the caller frees it); `info` [npaths] (NULL: not wanted) receives what each application's
 * log measured, in the order of the applications. Warns on standard error (ios_diag_warn) about every module a log
 * flags incomplete (naming it and what is used instead: MPI-IO for an incomplete POSIX, the counters for a
 * truncated DXT trace) and about format 3.20 (runtime 3.2.0's corrupted counters). Of several logs, every one that
 * cannot be read (IOS_EINVAL, IOS_EIO) is listed on standard error ("iosim: refused: ..." or "skipped"); then, unless
 * opt->skip_bad, IOS_EINVAL with ios_diag_message() counting them and naming the first; with skip_bad, the others
 * are built and the count printed (IOS_EINVAL when none is left). One log alone fails with its own message.
 * Prints one line on standard error naming the replay mode and whether idle gaps were compressed, and writes the
 * same words to w->replay (results.json "replay", the run's summary).
 * @return IOS_OK or an IOS_E* code with ios_diag_message() naming the log. */
int ios_darshan_workload(char *const *paths, int npaths, const ios_darshan_options_t *opt, const ios_platform_t *p,
                         ios_workload_t *w, struct ios_darshan_info *info);

/** workload.darshan `spec` of scenario `file`: ios_darshan_spec then ios_darshan_workload. `striping` names the
 * scenario's striping policy (NULL: none) and `stripe_count` is its parameter: under "lustre-default", a workload
 * that sets no stripe_count of its own restripes every recorded file over that many OSTs (docs/darshan.md: the
 * one-change what-if `--set striping.stripe_count=K`), and the engine then keeps the jobs' given OSTs
 * (sim_striping_setup). `skip_bad` != 0 (workload.skip_bad) skips the logs that cannot be read as the spec's own
 * skip_bad does; each log skipped is recorded in w->skipped. `seed`: the scenario's (ios_darshan_options_t.seed). */
int ios_darshan_build(const cJSON *spec, const char *file, const ios_platform_t *p, const char *striping,
                      double stripe_count, int skip_bad, uint64_t seed, ios_workload_t *w);

/** The phases of `log` as an application (the mapping of ios_darshan_workload, without name, release and
 * resources): fills a->nodes, a->phases, a->nphases; sets *from_dxt to whether the DXT trace gave them.
 * @return IOS_OK, IOS_ENOMEM, or IOS_EINVAL (more than 5e7 phases) with ios_diag_message() naming `label`. */
int ios_darshan_app(const ios_darshan_log_t *log, const ios_darshan_options_t *opt, const char *label, ios_app_t *a,
                    int *from_dxt);

#ifdef __cplusplus
}
#endif
#endif
