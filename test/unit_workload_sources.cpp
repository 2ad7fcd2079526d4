// Unit tests of the workload sources' table (src/inputs/workload_sources.c, ios_workload.h): the scenario loader takes
// each source's default, type check and path fields from its row, so a source is one row. Each expectation below is
// derived from the rows themselves and from a scenario giving none, two or a wrongly typed source.
#include "ios_diag.h"
#include "ios_errors.h"
#include "ios_scenario.h"
#include "ios_scenario_parts.h"
#include "ios_workload.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

namespace {

struct Json {
  cJSON *v;
  explicit Json(cJSON *p) : v(p) {}
  explicit Json(const char *text) : v(cJSON_Parse(text)) {}
  ~Json() { cJSON_Delete(v); }
};

std::set<std::string> path_fields() {
  std::set<std::string> out;
  char buf[256];
  for (int i = 0; ios_scenario_path_field(i, buf, sizeof buf); i++)
    out.insert(buf);
  return out;
}

} // namespace

// System: the rows of ios_workload_sources. Expectations: the scenario's defaults hold workload.KEY at the row's
// default (and the file source's options beside it), in the table's order, before workload.only; a null default is a
// null field with the row's types; every path the row names is a path field, and nothing else of `workload` is.
TEST(WorkloadSources, DefaultsTypesAndPathsComeFromTheRows) {
  Json defaults(ios_scenario_defaults());
  ASSERT_NE(defaults.v, nullptr);
  const cJSON *wl = cJSON_GetObjectItemCaseSensitive(defaults.v, "workload");
  ASSERT_TRUE(cJSON_IsObject(wl));
  std::set<std::string> fields = path_fields(), expected_paths = {"platform", "calibration", "calibration.file"};
  const cJSON *member = wl->child;
  for (int k = 0; ios_workload_sources[k].key != nullptr; k++) {
    const ios_workload_source_t &src = ios_workload_sources[k];
    while (member != nullptr && std::strcmp(member->string, src.key) != 0)
      member = member->next; // in the table's order
    ASSERT_NE(member, nullptr) << src.key;
    Json def(src.def);
    EXPECT_TRUE(cJSON_Compare(member, def.v, 1)) << src.key;
    int types = 0;
    const char *need = nullptr;
    std::string path = std::string("workload.") + src.key;
    EXPECT_EQ(ios_scenario_null_field(path.c_str(), &types, &need), std::strcmp(src.def, "null") == 0) << src.key;
    if (std::strcmp(src.def, "null") == 0) {
      EXPECT_EQ(types, src.types);
      EXPECT_STREQ(need, src.need);
    }
    for (int m = 0; src.paths != nullptr && src.paths[m] != nullptr; m++)
      expected_paths.insert(path + (src.paths[m][0] ? "." : "") + src.paths[m]);
    EXPECT_NE(src.build, nullptr);
  }
  EXPECT_EQ(fields, expected_paths);
  EXPECT_STREQ(cJSON_GetArrayItem(wl, cJSON_GetArraySize(wl) - 1)->string, "only");
  EXPECT_TRUE(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(wl, "format"))); // the file source's options
}

// System: scenarios on platforms/pfs-single.xml giving no source, two sources (applications and generator), and
// workload.generator as a string. Expectations: no source and two sources are refused when the workload is built,
// the message listing every row's key (workload.KEY); the wrongly typed one at load, with the generator row's `need`.
TEST(WorkloadSources, NoneTwoAndWrongTypeAreRefusedWithTheRowsWords) {
  const char *cases[] = {
      "{\"platform\": \"platforms/pfs-single.xml\"}",
      "{\"platform\": \"platforms/pfs-single.xml\", \"workload\": {\"applications\": [{\"nodes\": 1, \"work\": 1, "
      "\"io\": 1}], \"generator\": {\"kind\": \"rr9549\"}}}"};
  for (const char *text : cases) {
    Json user(text);
    ios_scenario_t s;
    ASSERT_EQ(ios_scenario_from_json(user.v, IOSIM_SOURCE_DIR "/x.json", &s), IOS_OK) << ios_diag_message();
    ios_platform_t p;
    std::memset(&p, 0, sizeof p); // never read: the sources are counted first
    ios_workload_t w;
    EXPECT_EQ(ios_workload_build(&s, &p, &w), IOS_EINVAL);
    std::string msg = ios_diag_message();
    for (int k = 0; ios_workload_sources[k].key != nullptr; k++)
      EXPECT_NE(msg.find(std::string("workload.") + ios_workload_sources[k].key), std::string::npos) << msg;
    ios_scenario_free(&s);
  }
  Json wrong("{\"platform\": \"platforms/pfs-single.xml\", \"workload\": {\"generator\": \"rr9549\"}}");
  ios_scenario_t s;
  ASSERT_EQ(ios_scenario_from_json(wrong.v, IOSIM_SOURCE_DIR "/x.json", &s), IOS_EINVAL);
  std::string msg = ios_diag_message();
  int types = 0;
  const char *need = nullptr;
  ASSERT_TRUE(ios_scenario_null_field("workload.generator", &types, &need));
  EXPECT_NE(msg.find("workload.generator"), std::string::npos) << msg;
  EXPECT_NE(msg.find(need), std::string::npos) << msg;
}
