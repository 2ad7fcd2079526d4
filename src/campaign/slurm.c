/* iosim — the Slurm script of a campaign (see ios_slurm.h). */
#define _GNU_SOURCE
#include "ios_slurm.h"
#include "ios_fs.h"
#include "ios_outdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PATH_MAX_LEN IOS_OUTDIR_PATH_MAX

/* `s` as one bash word in single quotes ('\'' for a quote); owned by the caller. */
static char *sh_quote(const char *s) {
  size_t n = 3;
  for (const char *q = s; *q; q++)
    n += *q == '\'' ? 4 : 1;
  char *out = malloc(n), *o = out;
  if (out == NULL) return NULL;
  *o++ = '\'';
  for (; *s; s++) {
    if (*s == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else
      *o++ = *s;
  }
  *o++ = '\'';
  *o = '\0';
  return out;
}

/* The values the script holds, each one single-quoted bash word (owned; NULL on ENOMEM, and `data` when
 * IOSIM_DATA_DIR is not set). */
typedef struct {
  char *self, *campaign, *out, *path, *data;
} words_t;

/* IOSIM_DATA_DIR as a word, or NULL when unset or empty: the jobs may start elsewhere, so it is passed on as an
 * absolute path (resolved when it exists, else made absolute as given). */
static char *data_word(void) {
  const char *data = getenv("IOSIM_DATA_DIR");
  char *data_abs = data == NULL || data[0] == '\0' ? NULL : realpath(data, NULL);
  if (data_abs == NULL && data != NULL && data[0] != '\0') data_abs = ios_outdir_absolute(data); /* not (yet) there */
  char *q_data = data_abs != NULL ? sh_quote(data_abs) : NULL;
  free(data_abs);
  return q_data;
}

static void words_free(words_t *q) {
  free(q->self);
  free(q->data);
  free(q->campaign);
  free(q->out);
  free(q->path);
}

/* Quotes the script's values (`campaign` may be NULL after ENOMEM). @return 0, or -1 when one (but data) is NULL. */
static int words_make(words_t *q, const char *self, const char *campaign, const char *out, const char *path) {
  q->data = data_word();
  q->self = sh_quote(self);
  q->campaign = campaign ? sh_quote(campaign) : NULL;
  q->out = sh_quote(out);
  q->path = sh_quote(path);
  return q->self && q->campaign && q->out && q->path ? 0 : -1;
}

/* The script's text (owned), or NULL on ENOMEM. `nm` is the campaign's name as a slug, `directives` its #SBATCH
 * lines. */
static char *script_text(const ios_campaign_t *c, const words_t *q, const char *nm, const char *directives, int shards,
                         int jobs, int run_dirs) {
  size_t cap = 8192 + strlen(q->out) + strlen(q->campaign) + strlen(q->self) + 2 * strlen(q->path) +
               2 * strlen(directives) + strlen(q->data ? q->data : "");
  char *text = malloc(cap);
  if (text == NULL) return NULL;
  snprintf(text, cap,
           "#!/bin/bash\n"
           "# iosim campaign %s: %d points in %d shards, one Slurm array task per shard, then one merge job.\n"
           "# Submit everything:  bash sweep.slurm submit   (this file, in the output directory)\n"
           "# Task I of the array runs: iosim sweep CAMPAIGN --shard I/%d --out \"$OUT/shard-I\"\n"
           "# (points whose index is I-1 modulo %d); the merge job writes \"$OUT/runs.csv\".\n"
           "# A task that is interrupted resumes where it stopped when resubmitted (sbatch --array=I ...).\n"
           "#SBATCH --job-name=iosim-%s\n"
           "#SBATCH --array=1-%d\n"
           "#SBATCH --cpus-per-task=%d\n"
           "%s"
           "set -euo pipefail\n"
           "IOSIM=%s\n"
           "CAMPAIGN=%s\n"
           "OUT=%s\n"
           "SHARDS=%d\n"
           "SELF=%s\n"
           "%s%s%s"
           "case \"${1:-}\" in\n"
           "  submit)\n"
           "    job=$(sbatch --output=\"$OUT/slurm-%%A_%%a.out\" --parsable \"$SELF\")\n"
           "    sbatch --parsable --job-name=iosim-%s-merge --dependency=afterany:\"${job%%%%;*}\" \\\n"
           "      --output=\"$OUT/slurm-merge-%%j.out\" <<EOF\n"
           "#!/bin/bash\n"
           "%s"
           "exec bash $(printf %%q \"$SELF\") merge\n"
           "EOF\n"
           "    exit 0 ;;\n"
           "  merge)\n"
           "    shard_dirs=()\n"
           "    for i in $(seq 1 \"$SHARDS\"); do shard_dirs+=(\"$OUT/shard-$i\"); done\n"
           "    exec \"$IOSIM\" merge \"${shard_dirs[@]}\" --out \"$OUT\" ;;\n"
           "esac\n"
           "task=${SLURM_ARRAY_TASK_ID:?run this script through sbatch, or: bash \"$SELF\" submit}\n"
           "exec \"$IOSIM\" sweep \"$CAMPAIGN\" --shard \"$task/$SHARDS\" --jobs \"${SLURM_CPUS_PER_TASK:-%d}\" \\\n"
           "  --out \"$OUT/shard-$task\"%s\n",
           nm, c->npoints, shards, shards, shards, nm, shards, jobs, directives, q->self, q->campaign, q->out, shards,
           q->path, q->data != NULL ? "export IOSIM_DATA_DIR=" : "", q->data != NULL ? q->data : "",
           q->data != NULL ? "\n" : "", nm, directives, jobs, run_dirs ? " --run-dirs" : "");
  return text;
}

/* The #SBATCH lines of the options given (the command line's, else the campaign's) into out[0..n). */
static void directives_of(const ios_campaign_t *c, const ios_slurm_opts_t *o, char *out, size_t n) {
  out[0] = '\0';
  for (int k = 0; k < IOS_CAMPAIGN_SLURM_NKEYS; k++) { /* checked: [A-Za-z0-9.,:_-] only, safe unquoted */
    const char *v = o->sbatch[k] != NULL ? o->sbatch[k] : ios_campaign_slurm(c, ios_campaign_slurm_keys[k]);
    size_t l = strlen(out);
    if (v != NULL) snprintf(out + l, n - l, "#SBATCH --%s=%s\n", ios_campaign_slurm_keys[k], v);
  }
}

int ios_slurm_write(const ios_campaign_t *c, const ios_slurm_opts_t *o) {
  if (ios_mkdirs(o->out) != 0) {
    fprintf(stderr, "iosim: error: %s: cannot create (%s)\n", o->out, strerror(errno));
    return 2;
  }
  char path[2 * PATH_MAX_LEN + 64], directives[IOS_CAMPAIGN_SLURM_NKEYS * 256], nm[128];
  directives_of(c, o, directives, sizeof directives);
  snprintf(path, sizeof path, "%s/sweep.slurm", o->out);
  char *campaign = ios_outdir_absolute(c->file), *text = NULL;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(c->campaign, "name");
  ios_outdir_slug(nm, sizeof nm, cJSON_IsString(name) ? name->valuestring : "campaign");
  words_t q;
  if (words_make(&q, o->iosim, campaign, o->out, path) == 0)
    text = script_text(c, &q, nm, directives, o->shards, o->jobs, o->run_dirs);
  words_free(&q);
  free(campaign);
  if (text == NULL) return 1;
  int rc = ios_outdir_write_text(path, text);
  if (rc == 0) chmod(path, 0755);
  free(text);
  if (rc != 0) {
    fprintf(stderr, "iosim: error: %s: cannot write (%s): choose a writable --out\n", path, strerror(errno));
    return 1;
  }
  printf("wrote %s (%d points in %d shards of about %d)\nsubmit with: bash %s submit\n", path, c->npoints, o->shards,
         (c->npoints + o->shards - 1) / o->shards, path);
  return 0;
}
