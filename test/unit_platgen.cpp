// Unit tests of the platform generator (src/ios_platgen.h), in-process: the XML text written for each kind (hosts,
// links, bandwidth strings, routes, following platforms/README.md), the router option, bandwidth unit strings, and
// every error path (the message names `where` and the parameter; nothing is written on failure).
#include <gtest/gtest.h>

#include <cjson/cJSON.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "ios_diag.h"
#include "ios_platgen.h"
#include "ios_policy.h"

namespace {

const char *const kWhere = "test.json: platform";

struct JsonDelete {
  void operator()(cJSON *p) const { cJSON_Delete(p); }
};
using Json = std::unique_ptr<cJSON, JsonDelete>;

Json parse(const std::string &text) {
  Json j(cJSON_Parse(text.c_str()));
  EXPECT_NE(j, nullptr) << "bad test JSON: " << text;
  return j;
}

// Result of ios_platgen_write: return code and everything written to the stream.
struct Gen {
  int rc = 0;
  std::string xml;
};

Gen generate(const std::string &spec_json, const char *origin = nullptr) {
  Gen g;
  Json spec = parse(spec_json);
  FILE *f = std::tmpfile();
  if (f == nullptr) {
    ADD_FAILURE() << "tmpfile failed";
    return g;
  }
  g.rc = ios_platgen_write(spec.get(), kWhere, origin, f);
  std::rewind(f);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    g.xml.append(buf, n);
  std::fclose(f);
  return g;
}

// Generates and expects success.
std::string xml_of(const std::string &spec_json) {
  Gen g = generate(spec_json);
  EXPECT_EQ(g.rc, IOS_OK) << spec_json << ": " << ios_diag_message();
  return g.xml;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    n++;
  return n;
}

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

std::string link_line(const std::string &id, const std::string &bw) {
  return "<link id=\"" + id + "\" bandwidth=\"" + bw + "\" latency=\"0\"/>";
}

std::string route_line(const std::string &src, const std::string &dst, const std::string &l1,
                       const std::string &l2 = "") {
  std::string s = "<route src=\"" + src + "\" dst=\"" + dst + "\"><link_ctn id=\"" + l1 + "\"/>";
  if (!l2.empty()) s += "<link_ctn id=\"" + l2 + "\"/>";
  return s + "</route>";
}

std::string host_line(const std::string &id, const std::string &role, const std::string &prop = "",
                      const std::string &value = "") {
  std::string s = "<host id=\"" + id + "\" speed=\"1Gf\"><prop id=\"role\" value=\"" + role + "\"/>";
  if (!prop.empty()) s += "<prop id=\"" + prop + "\" value=\"" + value + "\"/>";
  return s + "</host>";
}

// The text of the header comment (between "<!--" and "-->").
std::string comment_of(const std::string &xml) {
  size_t a = xml.find("<!--"), b = xml.find("-->");
  if (a == std::string::npos || b == std::string::npos || b < a) return "";
  return xml.substr(a + 4, b - a - 4);
}

// Expects `spec_json` to be rejected by ios_platgen_write with nothing written, and the message to name `where`
// and every string of `needles`.
void expect_rejected(const std::string &spec_json, std::initializer_list<std::string> needles) {
  ios_diag_set(nullptr, nullptr, "%s", "");
  Gen g = generate(spec_json);
  EXPECT_EQ(g.rc, IOS_EINVAL) << spec_json;
  EXPECT_EQ(g.xml, "") << spec_json << " wrote output although it is invalid";
  std::string msg = ios_diag_message();
  EXPECT_EQ(msg.rfind(kWhere, 0), 0u) << "message does not start with where: " << msg;
  for (const auto &n : needles)
    EXPECT_TRUE(has(msg, n)) << spec_json << ": message \"" << msg << "\" does not mention " << n;
}

} // namespace

// ------------------------------------------------------------------------------------------------ kinds

// System: forwarding, 4 compute nodes, 3 I/O nodes (other parameters at their defaults).
// Expectations: hosts c0..c3 (compute, nic_bw 12.5 GB/s = 12500000000Bps), controller, ion0..ion2 (ionode, link
// ionK), pfs (pfs, link gpfs) = 9 hosts; links compute_fabric, controller_link, ion0..2 (1.25 GB/s =
// 1250000000Bps), gpfs (20 GB/s) = 6 links; routes cK→fabric = [compute_fabric], fabric→controller, fabric↔ionK =
// [ionK, gpfs] and fabric↔pfs = [gpfs] = 9 routes.
TEST(Platgen, ForwardingThreeIonodes) {
  std::string x = xml_of(R"({"kind": "forwarding", "compute": 4, "ionodes": 3})");
  EXPECT_EQ(count(x, "<host "), 9u);
  EXPECT_EQ(count(x, "<link "), 6u);
  EXPECT_EQ(count(x, "<route "), 9u);
  EXPECT_EQ(count(x, "<zone "), 1u);
  EXPECT_TRUE(has(x, "<zone id=\"iosim-forwarding\" routing=\"DijkstraCache\">"));
  EXPECT_TRUE(has(x, "<router id=\"fabric\"/>"));
  EXPECT_TRUE(has(x, host_line("c3", "compute", "nic_bw", "12500000000Bps")));
  EXPECT_FALSE(has(x, "\"c4\""));
  EXPECT_TRUE(has(x, host_line("controller", "controller")));
  for (int k = 0; k < 3; k++) {
    std::string ion = "ion" + std::to_string(k);
    EXPECT_TRUE(has(x, host_line(ion, "ionode", "link", ion))) << ion;
    EXPECT_TRUE(has(x, link_line(ion, "1250000000Bps"))) << ion;
    EXPECT_TRUE(has(x, route_line("fabric", ion, ion, "gpfs"))) << ion;
  }
  EXPECT_FALSE(has(x, "ion3"));
  EXPECT_TRUE(has(x, host_line("pfs", "pfs", "link", "gpfs")));
  EXPECT_TRUE(has(x, link_line("gpfs", "20000000000Bps")));
  EXPECT_TRUE(has(x, route_line("fabric", "pfs", "gpfs")));
  EXPECT_TRUE(has(x, "<link id=\"compute_fabric\" bandwidth=\"1000TBps\" latency=\"0\" sharing_policy=\"FATPIPE\"/>"));
  EXPECT_TRUE(has(x, link_line("controller_link", "100GBps")));
  EXPECT_TRUE(has(x, route_line("c0", "fabric", "compute_fabric")));
  EXPECT_TRUE(has(x, route_line("fabric", "controller", "controller_link")));
  EXPECT_EQ(count(x, "latency=\"0\""), 6u);
  EXPECT_EQ(x.rfind("<?xml version='1.0'?>\n<!--\n", 0), 0u);
  EXPECT_TRUE(has(x, "<platform version=\"4.1\">"));
  const std::string tail = "  </zone>\n</platform>\n";
  EXPECT_EQ(x.substr(x.size() - tail.size()), tail);
}

// System: pfs-single with every default: C = 128, nic_bw = 1.2GiBps, pfs_bw = Cielo's 200 GiB/s scaled to C.
// Expectations: pfs_bw = 200 · 2^30 · 128 / 8894 = 27487790694400 / 8894 = 3090599358.48886889... B/s, whose
// shortest round-trip decimal form is 3090599358.4888687 (17 digits); nic_bw = 1.2 · 2^30 = 1288490188.8 B/s.
// 128 compute hosts + controller + pfs = 130 hosts; links compute_fabric, controller_link, pfs = 3.
TEST(Platgen, PfsSingleDefaults) {
  std::string x = xml_of(R"({"kind": "pfs-single"})");
  EXPECT_TRUE(has(x, link_line("pfs", "3090599358.4888687Bps")));
  EXPECT_TRUE(has(x, host_line("c127", "compute", "nic_bw", "1288490188.8Bps")));
  EXPECT_FALSE(has(x, "\"c128\""));
  EXPECT_EQ(count(x, "<host "), 130u);
  EXPECT_EQ(count(x, "<link "), 3u);
  EXPECT_EQ(count(x, "<route "), 130u);
  EXPECT_TRUE(has(x, host_line("pfs", "pfs", "link", "pfs")));
  EXPECT_TRUE(has(x, route_line("fabric", "pfs", "pfs")));
  EXPECT_TRUE(has(x, "<zone id=\"iosim-pfs-single\" routing=\"DijkstraCache\">"));
  // The full Cielo machine: 200 GiB/s × 8894 / 8894 = 214748364800 B/s exactly.
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "compute": 8894})"), link_line("pfs", "214748364800Bps")));
  // A given pfs_bw replaces the scaled default.
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "pfs_bw": "1GBps"})"), link_line("pfs", "1000000000Bps")));
}

// System: oss-ost with 3 servers × 2 OSTs, 2 compute nodes, ost_bw 800MBps.
// Expectations: hosts c0, c1, controller, oss0..oss2 (role oss, link ossI), ost0..ost5 (role ost, link ostK) = 12;
// links compute_fabric, controller_link, oss0..2 (12.5 GB/s), ost0..5 (8e8 B/s) = 11; route fabric↔ostK =
// [oss(K div 2), ostK]: ost0, ost1 → oss0, ost4, ost5 → oss2; fabric↔ossI = [ossI].
TEST(Platgen, OssOstServersAndOsts) {
  std::string x = xml_of(R"({"kind": "oss-ost", "compute": 2, "servers": 3, "osts_per_server": 2,
                             "ost_bw": "800MBps"})");
  EXPECT_EQ(count(x, "<host "), 12u);
  EXPECT_EQ(count(x, "<link "), 11u);
  EXPECT_EQ(count(x, "<route "), 12u);
  EXPECT_TRUE(has(x, host_line("oss2", "oss", "link", "oss2")));
  EXPECT_TRUE(has(x, host_line("ost5", "ost", "link", "ost5")));
  EXPECT_FALSE(has(x, "\"ost6\""));
  EXPECT_FALSE(has(x, "\"oss3\""));
  EXPECT_TRUE(has(x, link_line("oss1", "12500000000Bps")));
  EXPECT_TRUE(has(x, link_line("ost3", "800000000Bps")));
  EXPECT_TRUE(has(x, route_line("fabric", "oss1", "oss1")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost0", "oss0", "ost0")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost1", "oss0", "ost1")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost2", "oss1", "ost2")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost5", "oss2", "ost5")));
  EXPECT_TRUE(has(x, "<zone id=\"iosim-oss-ost\" routing=\"DijkstraCache\">"));
  // Defaults (PlaFRIM BeeGFS): 64 compute, 2 servers × 4 OSTs of 1.2 GB/s.
  std::string d = xml_of(R"({"kind": "oss-ost"})");
  EXPECT_EQ(count(d, "<host "), 64u + 1 + 2 + 8);
  EXPECT_TRUE(has(d, link_line("ost7", "1200000000Bps")));
  EXPECT_TRUE(has(d, route_line("fabric", "ost7", "oss1", "ost7")));
}

// System: forwarding with 3 compute nodes and routers = 2 of 5 GB/s.
// Expectations: links rtr0, rtr1 (5000000000Bps, latency 0), no rtr2; route cK → fabric = [compute_fabric,
// rtr(K mod 2)]: c0 → rtr0, c1 → rtr1, c2 → rtr0. Other routes unchanged. routers = 0: no rtr link at all.
TEST(Platgen, RoutersBetweenComputeAndStorage) {
  std::string x = xml_of(R"({"kind": "forwarding", "compute": 3, "ionodes": 1, "routers": 2, "router_bw": 5e9})");
  EXPECT_TRUE(has(x, link_line("rtr0", "5000000000Bps")));
  EXPECT_TRUE(has(x, link_line("rtr1", "5000000000Bps")));
  EXPECT_FALSE(has(x, "rtr2"));
  EXPECT_TRUE(has(x, route_line("c0", "fabric", "compute_fabric", "rtr0")));
  EXPECT_TRUE(has(x, route_line("c1", "fabric", "compute_fabric", "rtr1")));
  EXPECT_TRUE(has(x, route_line("c2", "fabric", "compute_fabric", "rtr0")));
  EXPECT_TRUE(has(x, route_line("fabric", "ion0", "ion0", "gpfs")));
  EXPECT_EQ(count(x, "<host "), 3u + 1 + 1 + 1); // routers are links only: no new host
  EXPECT_EQ(count(x, "<link "), 2u + 2 + 1 + 1);
  EXPECT_TRUE(has(comment_of(x), "routers=2 router_bw=5000000000Bps"));
  std::string none = xml_of(R"({"kind": "oss-ost", "compute": 3, "routers": 0})");
  EXPECT_FALSE(has(none, "rtr"));
  EXPECT_TRUE(has(none, route_line("c2", "fabric", "compute_fabric")));
  std::string one = xml_of(R"({"kind": "pfs-single", "compute": 2, "routers": 1})");
  EXPECT_TRUE(has(one, route_line("c1", "fabric", "compute_fabric", "rtr0")));
  EXPECT_TRUE(has(one, link_line("rtr0", "12500000000Bps"))); // default router_bw 12.5GBps
}

// ------------------------------------------------------------------------------------------------ units

// Expectations: "10Gb/s" = 10e9 bits/s / 8 = 1.25e9 B/s; "1.2GiB/s" = 1.2 · 2^30 = 1288490188.8; "100Gbps" =
// 12.5e9; a JSON number is bytes/s (3e9); 0.1 B/s prints as "0.1" (shortest form, 15 digits are enough);
// 0.1 + 0.2 = 0.30000000000000004 needs 17 digits; 1e16 prints "1e+16" (read back by SimGrid and strtod).
TEST(Platgen, BandwidthUnitsAndShortestDecimal) {
  EXPECT_TRUE(has(xml_of(R"({"kind": "forwarding", "compute": 1, "ionodes": 1, "nic_bw": "10Gb/s"})"),
                  host_line("c0", "compute", "nic_bw", "1250000000Bps")));
  std::string x = xml_of(R"({"kind": "forwarding", "compute": 1, "ionodes": 1, "ionode_bw": "1.2GiB/s",
                             "pfs_bw": "100Gbps", "nic_bw": 3e9})");
  EXPECT_TRUE(has(x, link_line("ion0", "1288490188.8Bps")));
  EXPECT_TRUE(has(x, link_line("gpfs", "12500000000Bps")));
  EXPECT_TRUE(has(x, host_line("c0", "compute", "nic_bw", "3000000000Bps")));
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "compute": 1, "pfs_bw": 0.1})"), link_line("pfs", "0.1Bps")));
  std::string odd = xml_of(R"({"kind": "pfs-single", "compute": 1, "pfs_bw": 0.30000000000000004})");
  EXPECT_TRUE(has(odd, link_line("pfs", "0.30000000000000004Bps"))) << odd;
  EXPECT_NE(std::strtod("0.3000000000000000", nullptr), 0.1 + 0.2); // 16 digits do not read back as 0.1 + 0.2
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "compute": 1, "pfs_bw": 1e16})"), link_line("pfs", "1e+16Bps")));
}

// ------------------------------------------------------------------------------------------------ header

// Expectations: the header lists every effective parameter (defaults included) after "Generated by iosim
// platform: kind=forwarding", quotes the origin, keeps the human summary, and holds no "--" (XML forbids it).
TEST(Platgen, HeaderCommentListsEffectiveParameters) {
  Gen g = generate(R"({"kind": "forwarding", "ionodes": 2})", "scenario x.json");
  ASSERT_EQ(g.rc, IOS_OK);
  std::string c = comment_of(g.xml);
  EXPECT_TRUE(has(c, "Generated by iosim platform: kind=forwarding compute=512 ionodes=2 nic_bw=12500000000Bps "
                     "ionode_bw=1250000000Bps pfs_bw=20000000000Bps routers=0 router_bw=12500000000Bps\n"))
      << c;
  EXPECT_TRUE(has(c, "scenario x.json"));
  EXPECT_TRUE(has(c, "I/O forwarding layer: 512 compute nodes"));
  EXPECT_TRUE(has(c, "2 I/O nodes ion0..ion1"));
  EXPECT_FALSE(has(c, "--"));
  EXPECT_EQ(count(g.xml, "<!--"), 1u);
  std::string p = comment_of(xml_of(R"({"kind": "pfs-single"})"));
  EXPECT_TRUE(has(p, "kind=pfs-single compute=128 nic_bw=1288490188.8Bps pfs_bw=3090599358.4888687Bps routers=0"));
  EXPECT_TRUE(has(p, "(200 GiB/s x 128 / 8894)"));
  std::string o = comment_of(xml_of(R"({"kind": "oss-ost"})"));
  EXPECT_TRUE(has(o, "kind=oss-ost compute=64 servers=2 osts_per_server=4 nic_bw=12500000000Bps "
                     "server_bw=12500000000Bps ost_bw=1200000000Bps routers=0 router_bw=12500000000Bps"));
  // An origin holding "--" would make the comment invalid XML: rejected, nothing written.
  Gen bad = generate(R"({"kind": "forwarding"})", "iosim platform --set x");
  EXPECT_EQ(bad.rc, IOS_EINVAL);
  EXPECT_EQ(bad.xml, "");
}

// ------------------------------------------------------------------------------------------------ errors

TEST(Platgen, RejectsUnknownKindListingTheKinds) {
  expect_rejected(R"({"kind": "burst-buffer"})", {"kind", "burst-buffer", "pfs-single", "forwarding", "oss-ost"});
  expect_rejected(R"({"ionodes": 3})", {"kind", "missing", "forwarding"});
  expect_rejected(R"({"kind": 3})", {"kind", "3"});
}

TEST(Platgen, RejectsUnknownParameterListingTheKindsParameters) {
  expect_rejected(R"({"kind": "forwarding", "servers": 2})",
                  {"servers", "forwarding", "compute", "ionodes", "nic_bw", "ionode_bw", "pfs_bw", "routers"});
  expect_rejected(R"({"kind": "oss-ost", "ost-bw": "1GBps"})", {"ost-bw", "ost_bw", "osts_per_server"});
  expect_rejected(R"({"kind": "pfs-single", "ionodes": 2})", {"ionodes", "pfs-single", "pfs_bw"});
}

TEST(Platgen, RejectsBadCounts) {
  expect_rejected(R"({"kind": "forwarding", "ionodes": 2.5})", {"ionodes", "2.5", "integer"});
  expect_rejected(R"({"kind": "forwarding", "ionodes": 0})", {"ionodes", "0", "from 1 to 1000000"});
  expect_rejected(R"({"kind": "forwarding", "ionodes": "3"})", {"ionodes", "\"3\"", "integer"});
  expect_rejected(R"({"kind": "pfs-single", "compute": -4})", {"compute", "-4"});
  expect_rejected(R"({"kind": "pfs-single", "compute": 1000001})", {"compute", "1000001"});
  expect_rejected(R"({"kind": "oss-ost", "servers": 0})", {"servers", "0"});
  expect_rejected(R"({"kind": "oss-ost", "osts_per_server": 0})", {"osts_per_server", "0"});
  expect_rejected(R"({"kind": "oss-ost", "servers": 1000, "osts_per_server": 1001})", {"osts_per_server", "1000000"});
  expect_rejected(R"({"kind": "forwarding", "routers": -1})", {"routers", "-1", "from 0"});
  expect_rejected(R"({"kind": "forwarding", "routers": true})", {"routers", "true"});
}

TEST(Platgen, RejectsBadBandwidths) {
  expect_rejected(R"({"kind": "forwarding", "nic_bw": -5})", {"nic_bw", "-5", "bandwidth"});
  expect_rejected(R"({"kind": "forwarding", "ionode_bw": 0})", {"ionode_bw", "0"});
  expect_rejected(R"({"kind": "forwarding", "pfs_bw": "fast"})", {"pfs_bw", "\"fast\"", "GBps"});
  expect_rejected(R"({"kind": "forwarding", "pfs_bw": "-1GBps"})", {"pfs_bw", "-1GBps"});
  expect_rejected(R"({"kind": "oss-ost", "ost_bw": "12 parsecs"})", {"ost_bw", "12 parsecs"});
  expect_rejected(R"({"kind": "oss-ost", "server_bw": "1e400GBps"})", {"server_bw", "1e400GBps"});
  expect_rejected(R"({"kind": "pfs-single", "router_bw": null})", {"router_bw", "null"});
  expect_rejected(R"({"kind": "pfs-single", "nic_bw": [1]})", {"nic_bw", "[1]"});
}

TEST(Platgen, RejectsNonObjectSpecAndDuplicates) {
  expect_rejected(R"(["forwarding"])", {"JSON object", "forwarding"});
  expect_rejected(R"("forwarding")", {"JSON object"});
  expect_rejected(R"({"kind": "forwarding", "ionodes": 2, "ionodes": 3})", {"ionodes", "twice"});
  ios_diag_set(nullptr, nullptr, "%s", "");
  EXPECT_EQ(ios_platgen_check(nullptr, kWhere), IOS_EINVAL);
  EXPECT_TRUE(has(ios_diag_message(), "JSON object"));
}

// ios_platgen_check checks kinds, names and JSON types only; value ranges are ios_platgen_write's.
TEST(Platgen, CheckLeavesRangesToWrite) {
  Json ok = parse(R"({"kind": "forwarding", "ionodes": 0, "nic_bw": "fast"})");
  EXPECT_EQ(ios_platgen_check(ok.get(), kWhere), IOS_OK);
  Json badtype = parse(R"({"kind": "forwarding", "ionodes": "many"})");
  EXPECT_EQ(ios_platgen_check(badtype.get(), kWhere), IOS_EINVAL);
  EXPECT_TRUE(has(ios_diag_message(), "ionodes"));
}

// A stream that cannot be written (opened read-only) gives IOS_EIO.
TEST(Platgen, WriteErrorIsEio) {
  FILE *f = std::fopen("/dev/null", "r");
  ASSERT_NE(f, nullptr);
  Json spec = parse(R"({"kind": "pfs-single", "compute": 2})");
  EXPECT_EQ(ios_platgen_write(spec.get(), kWhere, nullptr, f), IOS_EIO);
  std::fclose(f);
}
