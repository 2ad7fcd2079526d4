// iosim unit tests — a calibration applied to a scenario (src/inputs/calibration.c, ios_calibration.h): the sharing
// parameters a calibration fills are the ones the policy's descriptor declares (ios_sharing_policy_t.calibrated), with
// no policy or parameter named by the calibration code; the scenario's "calibration" value forms; the platform
// fingerprint.
//
// The test-only sharing policy `test-calibrated` (registered here, never in the registry's table) declares three
// parameters: alpha (bytes/s, calibrated from the file's "alpha_per_ost_Bps"), beta (not calibrated), gamma (a count
// in [1, 10], calibrated from "gamma_count"). Adding a calibrated parameter is its entry in the descriptor's
// `calibrated` array (ios_sharing_policy_t.calibrated) and nothing else: the calibration file below fills alpha = 5e8
// and gamma = 4 for a scenario that gives beta = 3 only. The platform is an empty OST pool and apply_capacity is false:
// no capacity changes, so no SimGrid link is touched.
#include "ios_calibration.h"
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_policy.h"

#include "support.h"

#include <cjson/cJSON.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

using iosim_test::TempDir;

namespace {

int test_share(void *, const ios_share_view_t *in, const ios_params_t *, double *rate_out) {
  for (int i = 0; i < in->ntransfers; i++)
    rate_out[i] = in->t[i].cap;
  return IOS_OK;
}

const ios_param_spec_t test_params[] = {
    {"alpha", 0.0, "bytes/s", "a calibrated bandwidth", 0, 1e300, 0},
    {"beta", 1.0, "", "not calibrated", 0, 0, 0},
    {"gamma", 1.0, "", "a calibrated count", 1, 10, 1},
};
// the one place these calibrated parameters are declared: alpha <- alpha_per_ost_Bps, gamma <- gamma_count
const char *const test_calibrated[] = {"alpha_per_ost_Bps", nullptr, "gamma_count"};

const ios_sharing_policy_t test_policy = [] {
  ios_sharing_policy_t p{};
  p.name = "test-calibrated";
  p.description = "test only: declares calibrated parameters";
  p.source = "test/unit_calibration.cpp";
  p.nparams = 3;
  p.params = test_params;
  p.share = test_share;
  p.uncapped = 1;
  p.calibrated = test_calibrated;
  return p;
}();

void register_once() {
  if (ios_sharing_find("test-calibrated") == nullptr) {
    ASSERT_EQ(ios_sharing_register(&test_policy), IOS_OK);
  }
}

// A calibration file of one file system (c = 2e9 B/s per OST) with `sharing` (a JSON value).
std::string calibration(const std::string &sharing) {
  return R"({"format": "iosim-calibration/1", "window": {"newest_measurement": "2018-02-16T02:31:17Z"},
    "stale_after_days": 30, "platform": null, "file_systems": [{"system": "site", "fs": "scratch", "osts": 4,
    "capacity_Bps": 8e9, "ost_capacity_Bps": 2e9, "sharing": )" +
         sharing + R"(}], "held_out_error": {"jobs": 10, "median_ape": 0.05, "p75": 0.1, "p90": 0.2}})";
}

struct Applied {
  int rc = 0;
  std::string message;
  ios_scenario_t s{};
  ~Applied() { ios_scenario_free(&s); }
};

// Loads a scenario whose sharing is `sharing` (JSON) naming `cal_json` written to a file, and applies it.
void apply(Applied &out, const TempDir &dir, const std::string &sharing, const std::string &cal_json) {
  std::string cal = dir.write("cal.json", cal_json);
  std::string sc = R"({"platform": {"kind": "oss-ost", "compute": 2, "servers": 1, "osts_per_server": 4},
    "workload": {"applications": [{"name": "a", "nodes": 1, "phases": [{"write": 1e9}]}]},
    "sharing": )" + sharing +
                   R"(, "calibration": {"file": ")" + cal +
                   R"(", "apply_capacity": false}, "output": {"progress": false}})";
  cJSON *user = cJSON_Parse(sc.c_str());
  ASSERT_NE(user, nullptr);
  ASSERT_EQ(ios_scenario_from_json(user, "test", &out.s), IOS_OK) << ios_diag_message();
  cJSON_Delete(user);
  ios_platform_t p{};
  p.pool_role = "ost";
  out.rc = ios_calibration_apply(&out.s, &p);
  out.message = ios_diag_message();
}

int param(const ios_scenario_t &s, const char *name) {
  for (int i = 0; i < s.sharing->nparams; i++)
    if (std::strcmp(s.sharing->params[i].name, name) == 0) return i;
  return -1;
}

double record_num(const ios_scenario_t &s, const char *a, const char *b = nullptr) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(s.calibration_applied, a);
  if (b != nullptr) x = cJSON_GetObjectItemCaseSensitive(x, b);
  return cJSON_IsNumber(x) ? x->valuedouble : -1;
}

} // namespace

// The policy's declarations decide: alpha <- alpha_per_ost_Bps = 5e8, gamma <- gamma_count = 4; beta (not calibrated)
// keeps the scenario's 3; the resolved tree and the record say what was applied.
TEST(CalibrationParams, DeclaredParametersFilled) {
  register_once();
  TempDir dir;
  Applied a;
  apply(a, dir, R"({"policy": "test-calibrated", "beta": 3})",
        calibration(R"({"policy": "test-calibrated", "alpha_per_ost_Bps": 5e8, "gamma_count": 4, "beta": 99})"));
  ASSERT_EQ(a.rc, IOS_OK) << a.message;
  EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "alpha")], 5e8);
  EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "beta")], 3.0);
  EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "gamma")], 4.0);
  const cJSON *sh = cJSON_GetObjectItemCaseSensitive(a.s.resolved, "sharing");
  EXPECT_DOUBLE_EQ(cJSON_GetObjectItemCaseSensitive(sh, "alpha")->valuedouble, 5e8);
  EXPECT_DOUBLE_EQ(record_num(a.s, "sharing_params_applied", "alpha"), 5e8);
  EXPECT_DOUBLE_EQ(record_num(a.s, "sharing_params_applied", "gamma"), 4.0);
  EXPECT_EQ(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "sharing_params_applied"), "beta"),
            nullptr);
  EXPECT_TRUE(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "sharing_matches")));
  EXPECT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "capacity_changed")));
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "band")->valuestring, "transferred");
}

// A value the scenario gives itself is kept (alpha = 7); the other calibrated one is still filled.
TEST(CalibrationParams, ScenarioValueKept) {
  register_once();
  TempDir dir;
  Applied a;
  apply(a, dir, R"({"policy": "test-calibrated", "alpha": 7})",
        calibration(R"({"policy": "test-calibrated", "alpha_per_ost_Bps": 5e8, "gamma_count": 4})"));
  ASSERT_EQ(a.rc, IOS_OK) << a.message;
  EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "alpha")], 7.0);
  EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "gamma")], 4.0);
  EXPECT_DOUBLE_EQ(record_num(a.s, "sharing_params_applied", "alpha"), -1); // not applied
}

// Another policy in the scenario: nothing applied, and the record says the band's sharing is not the run's.
TEST(CalibrationParams, OtherPolicyKept) {
  register_once();
  TempDir dir;
  Applied a;
  apply(a, dir, R"({"policy": "maxmin"})",
        calibration(R"({"policy": "test-calibrated", "alpha_per_ost_Bps": 5e8, "gamma_count": 4})"));
  ASSERT_EQ(a.rc, IOS_OK) << a.message;
  EXPECT_TRUE(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "sharing_matches")));
  const cJSON *bs = cJSON_GetObjectItemCaseSensitive(a.s.calibration_applied, "band_sharing");
  EXPECT_STREQ(cJSON_GetObjectItemCaseSensitive(bs, "policy")->valuestring, "test-calibrated");
  EXPECT_DOUBLE_EQ(cJSON_GetObjectItemCaseSensitive(bs, "gamma")->valuedouble, 4.0);
}

// The parameter's own range decides what a calibration may give: gamma_count = 11 is outside [1, 10], 2.5 is not an
// integer, a missing key is refused; the scenario is left unchanged (no record, the defaults).
TEST(CalibrationParams, ValuesCheckedAgainstTheSpec) {
  register_once();
  const char *cases[][2] = {{"11", "is 11"}, {"2.5", "is 2.5"}, {"null", "is null"}};
  for (auto &c : cases) {
    SCOPED_TRACE(c[0]);
    TempDir dir;
    Applied a;
    apply(a, dir, R"({"policy": "test-calibrated"})",
          calibration(std::string(R"({"policy": "test-calibrated", "alpha_per_ost_Bps": 5e8, "gamma_count": )") + c[0] +
                      "}"));
    EXPECT_EQ(a.rc, IOS_EINVAL);
    EXPECT_NE(a.message.find(std::string("file_systems[].sharing.gamma_count: ") + c[1]), std::string::npos)
        << a.message;
    EXPECT_NE(a.message.find("in [1, 10], an integer; fix: iosim calibrate again"), std::string::npos) << a.message;
    EXPECT_EQ(a.s.calibration_applied, nullptr);
    EXPECT_DOUBLE_EQ(a.s.sharing_params.v[param(a.s, "gamma")], 1.0);
  }
}

// sharing.policy is looked up in the registry: an unknown name is refused with the registered names (the test
// policy among them).
TEST(CalibrationParams, UnknownPolicyListsTheRegistry) {
  register_once();
  TempDir dir;
  Applied a;
  apply(a, dir, R"({"policy": "maxmin"})", calibration(R"({"policy": "fair"})"));
  EXPECT_EQ(a.rc, IOS_EINVAL);
  EXPECT_NE(a.message.find("file_systems[].sharing.policy: is \"fair\", not a sharing policy of this iosim"),
            std::string::npos)
      << a.message;
  EXPECT_NE(a.message.find("test-calibrated"), std::string::npos) << a.message;
}

// The scenario's forms: a path (apply "auto"), the object with apply_capacity true, false or "auto"; bad values.
TEST(CalibrationSpec, Forms) {
  const char *path;
  ios_cal_apply_t apply;
  struct {
    const char *json, *path;
    ios_cal_apply_t apply;
  } ok[] = {{R"("c.json")", "c.json", IOS_CAL_APPLY_AUTO},
            {R"({"file": "c.json"})", "c.json", IOS_CAL_APPLY_AUTO},
            {R"({"file": "c.json", "apply_capacity": true})", "c.json", IOS_CAL_APPLY_YES},
            {R"({"file": "c.json", "apply_capacity": false})", "c.json", IOS_CAL_APPLY_NO},
            {R"({"file": "c.json", "apply_capacity": "auto"})", "c.json", IOS_CAL_APPLY_AUTO},
            {"null", nullptr, IOS_CAL_APPLY_AUTO}};
  for (auto &c : ok) {
    SCOPED_TRACE(c.json);
    cJSON *v = cJSON_Parse(c.json);
    ASSERT_EQ(ios_calibration_spec(v, "s.json", &path, &apply), IOS_OK) << ios_diag_message();
    EXPECT_EQ(path == nullptr ? std::string("none") : std::string(path), c.path ? c.path : "none");
    EXPECT_EQ(apply, c.apply);
    cJSON_Delete(v);
  }
  struct {
    const char *json, *message;
  } bad[] = {{R"({"file": "c.json", "apply_capacity": "yes"})", "calibration.apply_capacity: is \"yes\""},
             {R"({"apply_capacity": true})", "calibration.file: missing"},
             {R"({"file": "c.json", "aply": true})", "calibration: unknown field 'aply'"},
             {R"({"file": 3})", "calibration.file: is not a file path"}};
  for (auto &c : bad) {
    SCOPED_TRACE(c.json);
    cJSON *v = cJSON_Parse(c.json);
    EXPECT_EQ(ios_calibration_spec(v, "s.json", &path, &apply), IOS_EINVAL);
    EXPECT_NE(std::string(ios_diag_message()).find(c.message), std::string::npos) << ios_diag_message();
    cJSON_Delete(v);
  }
}

// FNV-1a 64's published test vectors: "" -> cbf29ce484222325 (the offset basis), "a" -> af63dc4c8601ec8c,
// "foobar" -> 85944171f73967e8.
TEST(CalibrationFingerprint, KnownVectors) {
  TempDir dir;
  char fp[32];
  const char *cases[][2] = {
      {"", "fnv1a64:cbf29ce484222325"}, {"a", "fnv1a64:af63dc4c8601ec8c"}, {"foobar", "fnv1a64:85944171f73967e8"}};
  for (auto &c : cases) {
    std::string f = dir.write(std::string("f") + std::to_string(std::strlen(c[0])), c[0]);
    ASSERT_EQ(ios_calibration_fingerprint(f.c_str(), fp, sizeof fp), IOS_OK);
    EXPECT_STREQ(fp, c[1]);
  }
  EXPECT_EQ(ios_calibration_fingerprint(dir.file("missing").c_str(), fp, sizeof fp), IOS_EIO);
  EXPECT_EQ(ios_calibration_parse_utc("2018-02-16T02:31:17Z"), 1518748277.0);
  EXPECT_EQ(ios_calibration_parse_utc("2018-02-16"), -1);
}
