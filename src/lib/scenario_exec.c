/* iosim — one check or run of a loaded scenario in this process, as `iosim check` and `iosim run` do it (the scenario
 * face's simulating half, include/iosim/scenario.h): SimGrid started with iosim's logging defaults and the caller's
 * settings, the outputs prepared, the platform of a platform family generated, then scheduled (StorAlloc on a JSON
 * storage platform) or simulated, and the outputs written. Once per process (one SimGrid engine per process). */
#include "ios_lib.h"

#include "ios_args.h"
#include "ios_calibration.h"
#include "ios_ost_fullness.h"
#include "ios_diag.h"
#include "ios_engine.h"
#include "ios_fs.h"
#include "ios_output.h"
#include "ios_sg_platform.h"
#include "ios_storalloc_run.h"
#include "ios_workload.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary platform of a check (a private directory and the XML in it), removed on every exit path: unlinked as
 * soon as it is written (SimGrid then reads it through /proc/self/fd), and by a signal handler while it is written. */
static char tmp_dir[4096], tmp_xml[4200], tmp_xml_tmp[4300];

static void tmp_platform_remove(void) {
  if (tmp_xml[0] != '\0') unlink(tmp_xml);
  if (tmp_xml_tmp[0] != '\0') unlink(tmp_xml_tmp);
  if (tmp_dir[0] != '\0') rmdir(tmp_dir);
  tmp_xml[0] = tmp_xml_tmp[0] = tmp_dir[0] = '\0';
}

static void on_fatal(int sig) { /* async-signal-safe: unlink, rmdir, signal, raise */
  if (tmp_xml[0] != '\0') unlink(tmp_xml);
  if (tmp_xml_tmp[0] != '\0') unlink(tmp_xml_tmp);
  if (tmp_dir[0] != '\0') rmdir(tmp_dir);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* A scenario with a platform family gets its XML generated: beside the results for a run (so it can be replayed),
 * for a check in a temporary file that is gone before SimGrid reads it (`fd_path` then names the open file). */
static int materialize_platform(ios_scenario_t *s, int check, char *fd_path, size_t n) {
  fd_path[0] = '\0';
  if (s->platform_spec == NULL) return IOS_OK;
  if (check) {
    snprintf(tmp_dir, sizeof tmp_dir, "%s/iosim-check-XXXXXX", getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
    if (mkdtemp(tmp_dir) == NULL) {
      ios_diag_set(tmp_dir, NULL, "cannot create a temporary directory (%s): set TMPDIR to a writable directory",
                   strerror(errno));
      tmp_dir[0] = '\0';
      return IOS_EIO;
    }
    snprintf(tmp_xml, sizeof tmp_xml, "%s/platform.xml", tmp_dir);
    snprintf(tmp_xml_tmp, sizeof tmp_xml_tmp, "%s.tmp%ld-0", tmp_xml, (long)getpid()); /* ios_fs_write_atomic's */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], on_fatal);
    int rc = ios_scenario_materialize_platform(s, tmp_xml);
    int fd = rc == IOS_OK ? open(tmp_xml, O_RDONLY) : -1;
    if (rc == IOS_OK && fd < 0) {
      ios_diag_set(tmp_xml, NULL, "cannot read the generated platform back (%s)", strerror(errno));
      rc = IOS_EIO;
    }
    tmp_platform_remove();
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], SIG_DFL);
    if (rc != IOS_OK) return rc;
    snprintf(fd_path, n, "/proc/self/fd/%d", fd); /* closed at exit */
    s->platform = fd_path;
    return IOS_OK;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/platform.xml", s->out_dir);
  return ios_scenario_materialize_platform(s, path);
}

/* SimGrid starts with iosim's logging defaults, then the caller's --log settings (later ones win); the --cfg settings
 * go through ios_sg_set_config once the engine exists, so a setting SimGrid refuses is a clean error. */
static int start_simgrid(int nsg, const char *const *sg) {
  char *sg_argv[8 + 64];
  int sg_argc = 0;
  sg_argv[sg_argc++] = "iosim";
  sg_argv[sg_argc++] = "--log=xbt_cfg.thres:warning";
  sg_argv[sg_argc++] = "--log=root.fmt:[%10.6r]%e[%c/%p]%e%m%n";
#ifdef IOSIM_SANITIZE
  /* LeakSanitizer's scan faults on SimGrid's stack guard pages of actors still alive at exit (stop_at_end) */
  sg_argv[sg_argc++] = "--cfg=contexts/guard-size:0";
#endif
  for (int i = 0; i < nsg && sg_argc < 8 + 63; i++)
    if (strncmp(sg[i], "--log=", 6) == 0) sg_argv[sg_argc++] = (char *)sg[i];
  sg_argv[sg_argc] = NULL;
  simgrid_init(&sg_argc, sg_argv);
  for (int i = 0; i < nsg; i++)
    if (strncmp(sg[i], "--cfg=", 6) == 0 && ios_sg_set_config(sg[i] + 6) != 0) {
      ios_diag_set(NULL, NULL,
                   "%s: SimGrid refused this setting (an unknown name or a bad value): see SimGrid's configuration "
                   "documentation (docs/cli.md)",
                   sg[i]);
      return IOS_EINVAL;
    }
  return IOS_OK;
}

/* The platform, the workload and the engine of a loaded scenario (or, for a check, everything but the engine). */
static int simulate(ios_scenario_t *s, int check) {
  ios_platform_t p;
  ios_workload_t w = {0};
  ios_results_t r;
  memset(&r, 0, sizeof r);
  int rc = ios_platform_load(s->platform, s->platform_roles, &p);
  if (rc != IOS_OK) return rc;
  if ((rc = ios_calibration_apply(s, &p)) != IOS_OK || (rc = ios_ost_fullness_apply(s, &p)) != IOS_OK) {
    ios_platform_free(&p);
    return rc;
  }
  if (s->storage != NULL) { /* storage requests whose I/O is simulated on the platform's disks */
    rc = ios_storage_simulate(s, &p, check);
    ios_platform_free(&p);
    return rc;
  }
  rc = ios_workload_build(s, &p, &w);
  if (rc == IOS_OK && check) {
    char shown[4200];
    printf("%s: ok — %d applications, platform %s with %d compute nodes and %d %s resources; policies %s / %s / %s\n",
           s->file, w.napps,
           s->platform_spec != NULL ? "(generated from the scenario)"
                                    : ios_fs_display_path(s->platform, shown, sizeof shown),
           p.ncompute, p.nres, p.pool_role, s->allocation->name, s->placement->name, s->sharing->name);
  } else if (rc == IOS_OK) {
    ios_sim_config_t cfg;
    ios_sim_config_from_scenario(s, &cfg);
    rc = ios_engine_run(&cfg, &p, &w, &r);
    if (rc == IOS_OK) rc = ios_output_write(s, &p, &w, &r);
    if (rc == IOS_OK) ios_output_summary(s, &p, &w, &r);
    ios_results_free(&r);
  }
  ios_workload_free(&w);
  ios_platform_free(&p);
  return rc;
}

int ios_lib_exec_here(ios_scenario_t *s, int check, int nsg, const char *const *sg) {
  int rc = start_simgrid(nsg, sg);
  if (rc != IOS_OK) return rc;
  ios_sg_trace_to(s->trace ? s->out_dir : NULL); /* the scenario's own request (another may have been loaded since) */
  static char tmp_platform[4200];                /* the scenario names it until the process ends */
  if ((check && (rc = ios_output_check(s)) != IOS_OK) ||
      (!check && (rc = ios_output_prepare(s)) != IOS_OK) || /* no earlier output survives beside the new ones */
      (rc = materialize_platform(s, check, tmp_platform, sizeof tmp_platform)) != IOS_OK)
    return rc;
  if (s->storage != NULL && cJSON_GetObjectItemCaseSensitive(s->storage, "platform") != NULL)
    rc = ios_storage_scenario(s, check);
  else
    rc = simulate(s, check);
  if (!check) ios_output_print_cleaned(rc == IOS_OK ? stdout : stderr, s);
  return rc;
}
