/* iosim — setting dotted fields of a scenario's tree: `--set key=value` and a campaign's values (see ios_scenario.h
 * ios_scenario_set_value). */
#include "ios_scenario.h"
#include "ios_scenario_parts.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_value.h"
#include "ios_workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether a dotted key is well formed: non-empty names separated by single dots, shorter than 256 characters. */
int ios_scenario_valid_key(const char *key) {
  size_t n = strlen(key);
  return n > 0 && n < 256 && key[0] != '.' && key[n - 1] != '.' && strstr(key, "..") == NULL;
}

/* The message of a generator parameter (`dotted`, "platform.ionodes") given to a platform that is an XML file
 * (`file`): such a platform has no parameters; what to do instead. */
static void file_platform_param(const char *file, const char *dotted) {
  const char *param = dotted + strlen("platform.");
  ios_diag_set("--set", dotted,
               "the scenario's platform is the XML file '%s', which has no generator parameters ('%s' belongs to a "
               "generated platform): generate an XML with `iosim platform forwarding --set %s=VALUE -o my.xml` "
               "(kinds: iosim platform --help) and give it with --set platform=my.xml, or make the platform a "
               "generated one, e.g. --set 'platform={\"kind\": \"forwarding\", \"%s\": VALUE}' (docs/scenario.md, "
               "\"Generated platforms\")",
               file, param, param, param);
}

/* Sets dotted `key` of the user tree to `value` (owned, consumed), creating intermediate objects. A relative path
 * value of a path field is made relative to `dir` (a directory with a trailing '/', or "" for the current
 * directory). */
static int set_tree(cJSON *user, const char *dotted, cJSON *value, const char *dir) {
  char key[256];
  snprintf(key, sizeof key, "%s", dotted);
  char field[256];
  for (int i = 0; ios_scenario_path_field(i, field, sizeof field); i++) {
    /* the field itself; for calibration={"file": ...} (its object form) the file, as the string form's path */
    cJSON *v = strcmp(key, field) == 0 ? value : NULL;
    if (v != NULL && cJSON_IsObject(v) && strcmp(key, "calibration") == 0)
      v = cJSON_GetObjectItemCaseSensitive(v, "file");
    if (v != NULL) {
      char cwd[4096] = "";
      if (dir[0] == '\0' && getcwd(cwd, sizeof cwd - 1) != NULL) strcat(cwd, "/");
      ios_scenario_rebase_value(v, dir[0] != '\0' ? dir : cwd);
    }
  }
  cJSON *cur = user;
  char *save = NULL;
  char *tok = strtok_r(key, ".", &save);
  while (tok != NULL) {
    char *next = strtok_r(NULL, ".", &save);
    if (next == NULL) {
      if (cJSON_GetObjectItemCaseSensitive(cur, tok) != NULL)
        cJSON_ReplaceItemInObjectCaseSensitive(cur, tok, value);
      else
        cJSON_AddItemToObject(cur, tok, value);
      return IOS_OK;
    }
    cJSON *child = cJSON_GetObjectItemCaseSensitive(cur, tok);
    if (cur == user && strcmp(tok, "platform") == 0 && cJSON_IsString(child) && strcmp(next, "kind") != 0) {
      file_platform_param(child->valuestring, dotted); /* a file has no generator parameters */
      cJSON_Delete(value);
      return IOS_EINVAL;
    }
    int short_darshan = (cJSON_IsString(child) || cJSON_IsArray(child)) && strcmp(tok, "darshan") == 0 &&
                        cur == cJSON_GetObjectItemCaseSensitive(user, "workload");
    int short_calibration = cJSON_IsString(child) && cur == user && strcmp(tok, "calibration") == 0;
    if (short_darshan || short_calibration) {
      /* workload.darshan.OPTION on the short forms (a path, a list): the object form {"logs": ...} keeps the logs;
       * calibration.OPTION on a path: {"file": ...} keeps the file */
      cJSON *logs = cJSON_DetachItemViaPointer(cur, child), *obj = cJSON_CreateObject();
      if (obj == NULL || !cJSON_AddItemToObject(obj, short_darshan ? "logs" : "file", logs) ||
          !cJSON_AddItemToObject(cur, tok, obj)) {
        cJSON_Delete(obj);
        cJSON_Delete(value);
        return IOS_ENOMEM;
      }
      child = obj;
    }
    if (child == NULL || !cJSON_IsObject(child)) {
      child = cJSON_CreateObject();
      if (child == NULL ||
          (cJSON_GetObjectItemCaseSensitive(cur, tok) != NULL ? !cJSON_ReplaceItemInObjectCaseSensitive(cur, tok, child)
                                                              : !cJSON_AddItemToObject(cur, tok, child))) {
        cJSON_Delete(value);
        return IOS_ENOMEM;
      }
    }
    cur = child;
    tok = next;
  }
  cJSON_Delete(value);
  ios_diag_set(NULL, dotted, "is not a valid dotted field name (e.g. sharing.policy)");
  return IOS_EINVAL;
}

/* Applies one "a.b.c=value" override to the user tree; paths are relative to the current directory. */
int ios_scenario_apply_set(cJSON *user, const char *assignment) {
  const char *eq = strchr(assignment, '=');
  if (eq == NULL || eq == assignment || eq - assignment >= 256) {
    ios_diag_set("--set", assignment, "must be KEY=VALUE with a dotted key, e.g. --set sharing.policy=fcfs");
    return IOS_EINVAL;
  }
  char key[256];
  snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
  if (!ios_scenario_valid_key(key)) {
    ios_diag_set("--set", key,
                 "is not a dotted field name: write names separated by single dots, e.g. --set "
                 "sharing.policy=fcfs or --set seed=3");
    return IOS_EINVAL;
  }
  cJSON *value = ios_value_from_cli(eq + 1); /* "50GBps", "1N1D": strings, as they would be in the file */
  if (value == NULL) return IOS_ENOMEM;
  return set_tree(user, key, value, "");
}

int ios_scenario_set_value(cJSON *user, const char *key, const cJSON *value, const char *dir) {
  if (!ios_scenario_valid_key(key)) {
    ios_diag_set(NULL, key, "is not a valid dotted field name (e.g. sharing.policy)");
    return IOS_EINVAL;
  }
  cJSON *copy = cJSON_Duplicate(value, 1);
  return copy != NULL ? set_tree(user, key, copy, dir) : IOS_ENOMEM;
}

int ios_scenario_rebase_value(cJSON *v, const char *dir) {
  cJSON *item;
  if (cJSON_IsArray(v))
    cJSON_ArrayForEach(item, v) if (ios_scenario_rebase_value(item, dir) != IOS_OK) return IOS_ENOMEM;
  if (!cJSON_IsString(v) || v->valuestring[0] == '/' || v->valuestring[0] == '$' || dir[0] == '\0') return IOS_OK;
  size_t n = strlen(dir) + strlen(v->valuestring) + 1;
  char *abs = malloc(n);
  if (abs == NULL) return IOS_ENOMEM;
  snprintf(abs, n, "%s%s", dir, v->valuestring);
  cJSON_SetValuestring(v, abs);
  free(abs);
  return IOS_OK;
}

/* Fields holding file paths (resolved against the scenario's directory), besides the workload sources' (their rows'
 * `paths`). */
static const char *const path_fields[] = {"platform", "calibration", "calibration.file", NULL};

int ios_scenario_path_field(int i, char *buf, size_t n) {
  for (int k = 0; path_fields[k] != NULL; k++)
    if (i-- == 0) return snprintf(buf, n, "%s", path_fields[k]) >= 0;
  for (int k = 0; ios_workload_sources[k].key != NULL; k++)
    for (int m = 0; ios_workload_sources[k].paths != NULL && ios_workload_sources[k].paths[m] != NULL; m++)
      if (i-- == 0) {
        const char *sub = ios_workload_sources[k].paths[m];
        return snprintf(buf, n, "workload.%s%s%s", ios_workload_sources[k].key, sub[0] ? "." : "", sub) >= 0;
      }
  return 0;
}
