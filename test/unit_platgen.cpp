// Unit tests of the platform generator (src/inputs/ios_platgen.h), in-process: the XML text written for each kind
// (hosts, links, bandwidth strings, routes, following platforms/README.md), the router option, bandwidth unit strings,
// the StorAlloc storage tier (kind storage: layouts, capacities, disk properties), and every error path (the message
// names `where` and the parameter; nothing is written on failure).
#include <gtest/gtest.h>

#include <cjson/cJSON.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <unistd.h>

#include "ios_diag.h"
#include "ios_cli.h"
#include "ios_platgen.h"
#include "ios_policy.h"
#include "support.h"

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

// A compute host's link to the compute zone's centre (platforms/README.md: one link up and down).
std::string host_link_line(const std::string &id, const std::string &link) {
  return "<host_link id=\"" + id + "\" up=\"" + link + "\" down=\"" + link + "\"/>";
}

// The zones every generated platform has: a root with full routing holding the compute star zone and the storage zone,
// and the route between them through the gateway compute_gw.
void expect_zones(const std::string &x, const std::string &root) {
  EXPECT_EQ(count(x, "<zone "), 3u);
  EXPECT_TRUE(has(x, "<zone id=\"" + root + "\" routing=\"Full\">"));
  EXPECT_TRUE(has(x, "<zone id=\"compute\" routing=\"Cluster\">"));
  EXPECT_TRUE(has(x, "<zone id=\"storage\" routing=\"Full\">"));
  EXPECT_TRUE(has(x, host_line("compute_gw", "none")));
  EXPECT_TRUE(has(x, host_link_line("compute_gw", "compute_fabric")));
  EXPECT_TRUE(has(x, "<zoneRoute src=\"compute\" dst=\"storage\" gw_src=\"compute_gw\" gw_dst=\"fabric\"><link_ctn "
                     "id=\"storage_fabric\"/></zoneRoute>"));
  EXPECT_TRUE(has(x, link_line("compute_fabric", "1000TBps")));
  EXPECT_TRUE(has(x, link_line("storage_fabric", "1000TBps")));
  EXPECT_FALSE(has(x, "FATPIPE"));
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
// Expectations: hosts c0..c3 (compute, nic_bw 12.5 GB/s = 12500000000Bps) and the gateway compute_gw in the compute
// zone; controller, ion0..ion2 (ionode, link ionK), pfs (pfs, link gpfs) in the storage zone = 10 hosts; links
// compute_fabric, storage_fabric, controller_link, ion0..2 (1.25 GB/s = 1250000000Bps), gpfs (20 GB/s) = 7 links;
// host links cK and compute_gw = [compute_fabric]; routes fabric→controller, fabric↔ionK = [ionK, gpfs] and
// fabric↔pfs = [gpfs] = 5 routes.
TEST(Platgen, ForwardingThreeIonodes) {
  std::string x = xml_of(R"({"kind": "forwarding", "compute": 4, "ionodes": 3})");
  EXPECT_EQ(count(x, "<host "), 10u);
  EXPECT_EQ(count(x, "<link "), 7u);
  EXPECT_EQ(count(x, "<route "), 5u);
  EXPECT_EQ(count(x, "<host_link "), 5u);
  expect_zones(x, "iosim-forwarding");
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
  EXPECT_TRUE(has(x, link_line("controller_link", "100GBps")));
  EXPECT_TRUE(has(x, host_link_line("c0", "compute_fabric")));
  EXPECT_TRUE(has(x, host_link_line("c3", "compute_fabric")));
  EXPECT_TRUE(has(x, route_line("fabric", "controller", "controller_link")));
  EXPECT_EQ(count(x, "latency=\"0\""), 7u);
  EXPECT_EQ(x.rfind("<?xml version='1.0'?>\n<!--\n", 0), 0u);
  EXPECT_TRUE(has(x, "<platform version=\"4.1\">"));
  const std::string tail = "  </zone>\n</platform>\n";
  EXPECT_EQ(x.substr(x.size() - tail.size()), tail);
}

// System: pfs-single with every default: C = 128, nic_bw = 1.2GiBps, pfs_bw = Cielo's 200 GiB/s scaled to C.
// Expectations: pfs_bw = 200 · 2^30 · 128 / 8894 = 27487790694400 / 8894 = 3090599358.48886889... B/s, whose
// shortest round-trip decimal form is 3090599358.4888687 (17 digits); nic_bw = 1.2 · 2^30 = 1288490188.8 B/s.
// 128 compute hosts + compute_gw + controller + pfs = 131 hosts; links compute_fabric, storage_fabric,
// controller_link, pfs = 4; routes fabric→controller, fabric→pfs = 2.
TEST(Platgen, PfsSingleDefaults) {
  std::string x = xml_of(R"({"kind": "pfs-single"})");
  EXPECT_TRUE(has(x, link_line("pfs", "3090599358.4888687Bps")));
  EXPECT_TRUE(has(x, host_line("c127", "compute", "nic_bw", "1288490188.8Bps")));
  EXPECT_FALSE(has(x, "\"c128\""));
  EXPECT_EQ(count(x, "<host "), 131u);
  EXPECT_EQ(count(x, "<link "), 4u);
  EXPECT_EQ(count(x, "<route "), 2u);
  EXPECT_TRUE(has(x, host_line("pfs", "pfs", "link", "pfs")));
  EXPECT_TRUE(has(x, route_line("fabric", "pfs", "pfs")));
  expect_zones(x, "iosim-pfs-single");
  // The full Cielo machine: 200 GiB/s × 8894 / 8894 = 214748364800 B/s exactly.
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "compute": 8894})"), link_line("pfs", "214748364800Bps")));
  // A given pfs_bw replaces the scaled default.
  EXPECT_TRUE(has(xml_of(R"({"kind": "pfs-single", "pfs_bw": "1GBps"})"), link_line("pfs", "1000000000Bps")));
}

// System: oss-ost with 3 servers × 2 OSTs, 2 compute nodes, ost_bw 800MBps.
// Expectations: hosts c0, c1, compute_gw, controller, oss0..oss2 (role oss, link ossI), ost0..ost5 (role ost, link
// ostK) = 13; links compute_fabric and storage_fabric (1000 TB/s, shared, not FATPIPE: SimGrid's max-min rescans a
// FATPIPE's flows, quadratic with striped jobs' thousands of flows), controller_link, oss0..2 (12.5 GB/s), ost0..5
// (8e8 B/s) = 12; route fabric↔ostK = [oss(K div 2), ostK]: ost0, ost1 → oss0, ost4, ost5 → oss2; fabric↔ossI =
// [ossI]; with the controller's, 10 routes.
TEST(Platgen, OssOstServersAndOsts) {
  std::string x = xml_of(R"({"kind": "oss-ost", "compute": 2, "servers": 3, "osts_per_server": 2,
                             "ost_bw": "800MBps"})");
  EXPECT_EQ(count(x, "<host "), 13u);
  EXPECT_EQ(count(x, "<link "), 12u);
  EXPECT_EQ(count(x, "<route "), 10u);
  EXPECT_TRUE(has(x, host_line("oss2", "oss", "link", "oss2")));
  EXPECT_TRUE(has(x, host_line("ost5", "ost", "link", "ost5")));
  EXPECT_FALSE(has(x, "\"ost6\""));
  EXPECT_FALSE(has(x, "\"oss3\""));
  EXPECT_TRUE(has(x, link_line("oss1", "12500000000Bps")));
  EXPECT_TRUE(has(x, link_line("ost3", "800000000Bps")));
  EXPECT_TRUE(has(x, link_line("compute_fabric", "1000TBps")));
  EXPECT_FALSE(has(x, "FATPIPE"));
  EXPECT_TRUE(has(x, route_line("fabric", "oss1", "oss1")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost0", "oss0", "ost0")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost1", "oss0", "ost1")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost2", "oss1", "ost2")));
  EXPECT_TRUE(has(x, route_line("fabric", "ost5", "oss2", "ost5")));
  expect_zones(x, "iosim-oss-ost");
  // Defaults (PlaFRIM BeeGFS): 64 compute, 2 servers × 4 OSTs of 1.2 GB/s.
  std::string d = xml_of(R"({"kind": "oss-ost"})");
  EXPECT_EQ(count(d, "<host "), 64u + 1 + 1 + 2 + 8);
  EXPECT_TRUE(has(d, link_line("ost7", "1200000000Bps")));
  EXPECT_TRUE(has(d, route_line("fabric", "ost7", "oss1", "ost7")));
}

// System: forwarding with 3 compute nodes and routers = 2 of 5 GB/s.
// Expectations: links rtr0, rtr1 (5000000000Bps, latency 0), no rtr2; host cK's link to the compute zone's centre is
// rtr(K mod 2): c0 → rtr0, c1 → rtr1, c2 → rtr0, so its route to the storage side is [rtr(K mod 2), compute_fabric,
// storage_fabric]. Other routes unchanged. routers = 0: no rtr link at all, host links are compute_fabric.
TEST(Platgen, RoutersBetweenComputeAndStorage) {
  std::string x = xml_of(R"({"kind": "forwarding", "compute": 3, "ionodes": 1, "routers": 2, "router_bw": 5e9})");
  EXPECT_TRUE(has(x, link_line("rtr0", "5000000000Bps")));
  EXPECT_TRUE(has(x, link_line("rtr1", "5000000000Bps")));
  EXPECT_FALSE(has(x, "rtr2"));
  EXPECT_TRUE(has(x, host_link_line("c0", "rtr0")));
  EXPECT_TRUE(has(x, host_link_line("c1", "rtr1")));
  EXPECT_TRUE(has(x, host_link_line("c2", "rtr0")));
  EXPECT_TRUE(has(x, route_line("fabric", "ion0", "ion0", "gpfs")));
  EXPECT_EQ(count(x, "<host "), 3u + 1 + 1 + 1 + 1); // routers are links only: no new host
  EXPECT_EQ(count(x, "<link "), 2u + 3 + 1 + 1);
  EXPECT_TRUE(has(comment_of(x), "routers=2 router_bw=5000000000Bps"));
  std::string none = xml_of(R"({"kind": "oss-ost", "compute": 3, "routers": 0})");
  EXPECT_FALSE(has(none, "rtr"));
  EXPECT_TRUE(has(none, host_link_line("c2", "compute_fabric")));
  std::string one = xml_of(R"({"kind": "pfs-single", "compute": 2, "routers": 1})");
  EXPECT_TRUE(has(one, host_link_line("c1", "rtr0")));
  EXPECT_TRUE(has(one, link_line("rtr0", "12500000000Bps"))); // default router_bw 12.5GBps
}

// System: oss-ost with 4 compute nodes, 3 routers, routers_per_client 2.
// Expectations: router_map cyclic: node k's first router is rtr(k mod 3) and its second rtr(k+1 mod 3): c0 lists
// "0,1" and keeps its host link rtr0; host c0.rtr1 (role none, client c0) is linked by rtr1; c3 lists "0,1" (3 mod 3
// = 0). 4 nodes + 4 alternative hosts + compute_gw + controller + 2 oss + 8 ost. router_map block: first router
// ⌊k·3/4⌋ = 0, 0,
// 1, 2 for k = 0..3: c1 lists "0,1", c2 "1,2", c3 "2,0" with host c3.rtr0. The header names both options; with the
// defaults (1, cyclic) neither the header nor any host changes.
TEST(Platgen, RouterChoicesPerComputeNode) {
  std::string x = xml_of(R"({"kind": "oss-ost", "compute": 4, "routers": 3, "routers_per_client": 2})");
  EXPECT_TRUE(has(x, "<host id=\"c0\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" "
                     "value=\"12500000000Bps\"/><prop id=\"routers\" value=\"0,1\"/></host>"));
  EXPECT_TRUE(has(x, "<host id=\"c3\" speed=\"1Gf\"><prop id=\"role\" value=\"compute\"/><prop id=\"nic_bw\" "
                     "value=\"12500000000Bps\"/><prop id=\"routers\" value=\"0,1\"/></host>"));
  EXPECT_TRUE(has(x, host_line("c0.rtr1", "none", "client", "c0")));
  EXPECT_TRUE(has(x, host_link_line("c0", "rtr0")));
  EXPECT_TRUE(has(x, host_link_line("c0.rtr1", "rtr1")));
  EXPECT_TRUE(has(x, host_link_line("c2.rtr0", "rtr0")));
  EXPECT_EQ(count(x, "<host "), 4u + 4 + 1 + 1 + 2 + 8);
  EXPECT_TRUE(has(comment_of(x), "routers=3 router_bw=12500000000Bps routers_per_client=2\n"));
  std::string b =
      xml_of(R"({"kind": "oss-ost", "compute": 4, "routers": 3, "routers_per_client": 2, "router_map": "block"})");
  EXPECT_TRUE(has(b, "<prop id=\"routers\" value=\"0,1\"/></host>"));
  EXPECT_TRUE(has(b, host_link_line("c1", "rtr0")));
  EXPECT_TRUE(has(b, host_link_line("c2", "rtr1")));
  EXPECT_TRUE(has(b, host_link_line("c3", "rtr2")));
  EXPECT_TRUE(has(b, host_link_line("c3.rtr0", "rtr0")));
  EXPECT_TRUE(has(b, "value=\"2,0\""));
  EXPECT_TRUE(has(comment_of(b), "routers_per_client=2 router_map=block\n"));
  std::string d = xml_of(R"({"kind": "oss-ost", "compute": 4, "routers": 3})");
  EXPECT_FALSE(has(d, "routers_per_client"));
  EXPECT_FALSE(has(d, "prop id=\"routers\""));
  EXPECT_FALSE(has(d, "<host id=\"c0.rtr"));
  expect_rejected(R"({"kind": "oss-ost", "routers": 2, "routers_per_client": 3})", {"routers_per_client", "at most 2"});
  expect_rejected(R"({"kind": "oss-ost", "routers_per_client": 2})", {"routers_per_client", "at most 1"});
  expect_rejected(R"({"kind": "oss-ost", "routers": 2, "router_map": "nearest"})", {"router_map", "nearest", "block"});
  expect_rejected(R"({"kind": "oss-ost", "routers": 2, "router_map": 1})", {"router_map", "cyclic"});
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

// ------------------------------------------------------------------------------------------------ storage (StorAlloc)

namespace {

// The host line of disk `id` of storage node `node` (platforms/README.md, role disk).
std::string disk_line(const std::string &id, const std::string &node, const std::string &capacity,
                      const std::string &read_bw) {
  return "<host id=\"" + id + "\" speed=\"1Gf\"><prop id=\"role\" value=\"disk\"/><prop id=\"link\" value=\"" + id +
         "\"/><prop id=\"node\" value=\"" + node + "\"/><prop id=\"capacity\" value=\"" + capacity +
         "\"/><prop id=\"read_bw\" value=\"" + read_bw + "\"/></host>";
}

// The lines of disk `id` whose read bandwidth differs from its write bandwidth: its host (read_host "<id>_read"),
// the read host, its write, read and device links ("<id>_io" of max(read, write)), and its two routes of three links.
std::vector<std::string> read_write_disk_lines(const std::string &id, const std::string &node,
                                               const std::string &capacity, const std::string &write_bw,
                                               const std::string &read_bw, const std::string &device_bw) {
  const std::string rd = id + "_read", io = id + "_io";
  auto route3 = [&](const std::string &dst, const std::string &mid) {
    return "<route src=\"fabric\" dst=\"" + dst + "\"><link_ctn id=\"" + node + "\"/><link_ctn id=\"" + mid +
           "\"/><link_ctn id=\"" + io + "\"/></route>";
  };
  return {"<host id=\"" + id + "\" speed=\"1Gf\"><prop id=\"role\" value=\"disk\"/><prop id=\"link\" value=\"" + id +
              "\"/><prop id=\"node\" value=\"" + node + "\"/><prop id=\"capacity\" value=\"" + capacity +
              "\"/><prop id=\"read_host\" value=\"" + rd + "\"/></host>",
          host_line(rd, "none", "link", rd),
          link_line(id, write_bw),
          link_line(rd, read_bw),
          link_line(io, device_bw),
          route3(id, id),
          route3(rd, rd)};
}

// The spec written in the header's first line ("Generated by iosim platform: kind=K p=v ..."), as JSON: values
// that read fully as numbers are numbers, the others strings.
std::string header_spec(const std::string &xml) {
  std::string c = comment_of(xml);
  const std::string tag = "Generated by iosim platform: ";
  size_t a = c.find(tag);
  if (a == std::string::npos) return "";
  std::string line = c.substr(a + tag.size(), c.find('\n', a) - a - tag.size()), json = "{";
  for (size_t pos = 0; pos < line.size();) {
    size_t end = line.find(' ', pos), eq = line.find('=', pos);
    if (end == std::string::npos) end = line.size();
    std::string key = line.substr(pos, eq - pos), value = line.substr(eq + 1, end - eq - 1);
    char *stop = nullptr;
    std::strtod(value.c_str(), &stop);
    bool number = !value.empty() && *stop == '\0';
    json += (json.size() > 1 ? ", \"" : "\"") + key + "\": " + (number ? value : "\"" + value + "\"");
    pos = end + 1;
  }
  return json + "}";
}

} // namespace

// System: storage, 2 compute nodes, layout nNnD (the default) of 32 TB (the default): StorAlloc Table 4, 4 nodes of
// 2 NVMe SSDs, 100 Gb/s node links.
// Expectations: disks of 32e12 / 8 = 4e12 bytes ("4000000000000"), write links 2.93 GB/s (2930000000Bps), read
// links 3.13 GB/s (3130000000Bps) to their read hosts, device links max(3.13, 2.93) = 3130000000Bps; node links
// 100 Gb/s = 12500000000Bps; PFS link gpfs 20 GB/s. Hosts c0, c1, compute_gw, controller, node0..node3 (storage),
// node0d0..node3d1 (disk), their 8 read hosts, pfs = 2 + 1 + 1 + 4 + 8 + 8 + 1 = 25; links compute_fabric,
// storage_fabric, controller_link, 4 node links, 8 x 3 disk links, gpfs = 32; routes controller, 8 disks and 8 read
// hosts ([NODE, NODEdK or NODEdK_read, NODEdK_io]) and pfs ([gpfs]) = 18 (no route to a storage node host).
TEST(Platgen, StorageNnNdDefaults) {
  std::string x = xml_of(R"({"kind": "storage", "compute": 2})");
  EXPECT_EQ(count(x, "<host "), 25u);
  EXPECT_EQ(count(x, "<link "), 32u);
  EXPECT_EQ(count(x, "<route "), 18u);
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"storage\"/>"), 4u);
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"disk\"/>"), 8u);
  expect_zones(x, "iosim-storage");
  EXPECT_TRUE(has(x, "<router id=\"fabric\"/>"));
  EXPECT_TRUE(has(x, host_line("c1", "compute", "nic_bw", "12500000000Bps")));
  EXPECT_TRUE(has(x, host_line("controller", "controller")));
  for (int v = 0; v < 4; v++) {
    std::string node = "node" + std::to_string(v);
    EXPECT_TRUE(has(x, host_line(node, "storage", "link", node))) << node;
    EXPECT_TRUE(has(x, link_line(node, "12500000000Bps"))) << node;
    EXPECT_FALSE(has(x, "dst=\"" + node + "\"")) << node;
    for (int k = 0; k < 2; k++) {
      std::string disk = node + "d" + std::to_string(k);
      for (const std::string &line :
           read_write_disk_lines(disk, node, "4000000000000", "2930000000Bps", "3130000000Bps", "3130000000Bps"))
        EXPECT_TRUE(has(x, line)) << line;
    }
    EXPECT_FALSE(has(x, "\"" + node + "d2\""));
  }
  EXPECT_FALSE(has(x, "node4"));
  EXPECT_TRUE(has(x, host_line("pfs", "pfs", "link", "gpfs")));
  EXPECT_TRUE(has(x, link_line("gpfs", "20000000000Bps")));
  EXPECT_TRUE(has(x, route_line("fabric", "pfs", "gpfs")));
  EXPECT_TRUE(has(x, host_link_line("c1", "compute_fabric")));
  EXPECT_TRUE(has(x, route_line("fabric", "controller", "controller_link")));
  EXPECT_EQ(count(x, "latency=\"0\""), 32u);
  // Default compute count: 64.
  std::string d = xml_of(R"({"kind": "storage"})");
  EXPECT_TRUE(has(d, "\"c63\""));
  EXPECT_FALSE(has(d, "\"c64\""));
}

// System: storage 1N1D of 8 TB (StorAlloc's single RAID-10 volume).
// Expectations: one storage node node0 and one disk node0d0 of 8e12 bytes, write link 1.465 GB/s (1465000000Bps),
// read link and device link 1.565 GB/s (1565000000Bps); the same XML with capacity as a number of bytes (8e12).
TEST(Platgen, StorageOneNodeOneDisk) {
  std::string x = xml_of(R"({"kind": "storage", "compute": 1, "layout": "1N1D", "capacity": "8TB"})");
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"storage\"/>"), 1u);
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"disk\"/>"), 1u);
  EXPECT_TRUE(has(x, host_line("node0", "storage", "link", "node0")));
  for (const std::string &line :
       read_write_disk_lines("node0d0", "node0", "8000000000000", "1465000000Bps", "1565000000Bps", "1565000000Bps"))
    EXPECT_TRUE(has(x, line)) << line;
  EXPECT_FALSE(has(x, "node1"));
  EXPECT_FALSE(has(x, "node0d1"));
  EXPECT_EQ(count(x, "<host "), 1u + 1 + 1 + 1 + 1 + 1 + 1);
  std::string c = comment_of(x);
  EXPECT_TRUE(has(c, "1 storage node node0 (link of 12.5 GB/s = 100 Gb/s) with 1 disk each")) << c;
  EXPECT_TRUE(has(c, "1 disk of 8 TB, write 1.465 GB/s, read 1.565 GB/s")) << c;
  EXPECT_EQ(xml_of(R"({"kind": "storage", "compute": 1, "layout": "1N1D", "capacity": 8e12})"), x);
  // 1NnD of 16 TB: one node, 8 disks of 2e12 bytes at 2.93 GB/s.
  std::string n = xml_of(R"({"kind": "storage", "compute": 1, "layout": "1NnD", "capacity": "16TB"})");
  EXPECT_TRUE(has(n, read_write_disk_lines("node0d7", "node0", "2000000000000", "2930000000Bps", "3130000000Bps",
                                           "3130000000Bps")[0]));
  EXPECT_FALSE(has(n, "node0d8"));
  EXPECT_FALSE(has(n, "node1"));
}

// System: storage table5 (StorAlloc Table 5, 32 TB): 2 SSD nodes ssd0, ssd1 of 5 disks of 1.6 TB at 2.93 GB/s
// (read = write) with 200 Gb/s links, and 4 HDD nodes hdd0..hdd3 of 2 disks of 2 TB at 0.08 GB/s with 100 Gb/s links.
// Expectations: 6 storage hosts, 2 × 5 + 4 × 2 = 18 disk hosts; ssd links 25000000000Bps, ssd disks capacity
// 1600000000000 and link/read 2930000000Bps; hdd links 12500000000Bps, hdd disks 2000000000000 at 80000000Bps;
// 10 × 1.6 + 8 × 2 = 32 TB. The header describes both kinds of node.
TEST(Platgen, StorageTable5) {
  std::string x = xml_of(R"({"kind": "storage", "compute": 1, "layout": "table5"})");
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"storage\"/>"), 6u);
  EXPECT_EQ(count(x, "<prop id=\"role\" value=\"disk\"/>"), 18u);
  for (int v = 0; v < 2; v++) {
    std::string node = "ssd" + std::to_string(v);
    EXPECT_TRUE(has(x, host_line(node, "storage", "link", node)));
    EXPECT_TRUE(has(x, link_line(node, "25000000000Bps")));
    for (int k = 0; k < 5; k++) {
      std::string disk = node + "d" + std::to_string(k);
      EXPECT_TRUE(has(x, disk_line(disk, node, "1600000000000", "2930000000Bps"))) << disk;
      EXPECT_TRUE(has(x, link_line(disk, "2930000000Bps"))) << disk;
      EXPECT_TRUE(has(x, route_line("fabric", disk, node, disk))) << disk;
    }
  }
  for (int v = 0; v < 4; v++) {
    std::string node = "hdd" + std::to_string(v);
    EXPECT_TRUE(has(x, host_line(node, "storage", "link", node)));
    EXPECT_TRUE(has(x, link_line(node, "12500000000Bps")));
    for (int k = 0; k < 2; k++) {
      std::string disk = node + "d" + std::to_string(k);
      EXPECT_TRUE(has(x, disk_line(disk, node, "2000000000000", "80000000Bps"))) << disk;
      EXPECT_TRUE(has(x, link_line(disk, "80000000Bps"))) << disk;
      EXPECT_TRUE(has(x, route_line("fabric", disk, node, disk))) << disk;
    }
  }
  EXPECT_FALSE(has(x, "ssd2"));
  EXPECT_FALSE(has(x, "ssd0d5"));
  EXPECT_FALSE(has(x, "hdd4"));
  EXPECT_FALSE(has(x, "hdd0d2"));
  EXPECT_FALSE(has(x, "node0"));
  std::string c = comment_of(x);
  EXPECT_TRUE(has(c, "layout=table5 capacity=32000000000000 ")) << c;
  EXPECT_TRUE(has(c, "2 storage nodes ssd0..ssd1 (links of 25 GB/s = 200 Gb/s) with 5 disks each")) << c;
  EXPECT_TRUE(has(c, "10 disks of 1.6 TB, write 2.93 GB/s, read 2.93 GB/s")) << c;
  EXPECT_TRUE(has(c, "4 storage nodes hdd0..hdd3 (links of 12.5 GB/s = 100 Gb/s) with 2 disks each")) << c;
  EXPECT_TRUE(has(c, "8 disks of 2 TB, write 0.08 GB/s, read 0.08 GB/s")) << c;
  // 32 TB given explicitly is table5's own capacity.
  EXPECT_EQ(xml_of(R"({"kind": "storage", "compute": 1, "layout": "table5", "capacity": "32TB"})"), x);
}

// Layout names are case-insensitive; the header spells the canonical name.
TEST(Platgen, StorageLayoutIsCaseInsensitive) {
  std::string canonical = xml_of(R"({"kind": "storage", "compute": 1, "layout": "nNnD"})");
  EXPECT_EQ(xml_of(R"({"kind": "storage", "compute": 1, "layout": "NNND"})"), canonical);
  EXPECT_EQ(xml_of(R"({"kind": "storage", "compute": 1, "layout": "nnnd"})"), canonical);
  EXPECT_TRUE(has(comment_of(canonical), " layout=nNnD "));
  EXPECT_EQ(xml_of(R"({"kind": "storage", "compute": 1, "layout": "TABLE5"})"),
            xml_of(R"({"kind": "storage", "compute": 1, "layout": "table5"})"));
}

// Expectations: the header's first line lists every effective parameter in order (capacity in plain bytes) and
// is itself a valid spec that regenerates the very same XML; the summary names the layout, the disks and the PFS.
TEST(Platgen, StorageHeaderIsAValidSpec) {
  std::string x = xml_of(R"({"kind": "storage"})");
  std::string c = comment_of(x);
  EXPECT_TRUE(has(c, "Generated by iosim platform: kind=storage compute=64 layout=nNnD capacity=32000000000000 "
                     "nic_bw=12500000000Bps pfs_bw=20000000000Bps routers=0 router_bw=12500000000Bps\n"))
      << c;
  EXPECT_TRUE(has(c, "Storage tier (StorAlloc nNnD, 32 TB in all): 64 compute nodes")) << c;
  EXPECT_TRUE(has(c, "4 storage nodes node0..node3 (links of 12.5 GB/s = 100 Gb/s) with 2 disks each")) << c;
  EXPECT_TRUE(has(c, "8 disks of 4 TB, write 2.93 GB/s, read 3.13 GB/s")) << c;
  EXPECT_TRUE(has(c, "link gpfs, 20 GB/s")) << c;
  EXPECT_FALSE(has(c, "--"));
  for (const char *spec : {R"({"kind": "storage"})", R"({"kind": "storage", "layout": "table5", "compute": 3})",
                           R"({"kind": "storage", "layout": "1nnd", "capacity": "1.5TiB", "pfs_bw": "7Gb/s"})"}) {
    std::string a = xml_of(spec), again = header_spec(a);
    EXPECT_EQ(xml_of(again), a) << spec << " -> " << again;
  }
}

// System: storage with 3 compute nodes and 2 routers: host cK is linked by rtr(K mod 2) as for the other kinds; the
// disk routes are unchanged.
TEST(Platgen, StorageWithRouters) {
  std::string x = xml_of(R"({"kind": "storage", "compute": 3, "layout": "nN1D", "routers": 2, "router_bw": "5GBps"})");
  EXPECT_TRUE(has(x, link_line("rtr1", "5000000000Bps")));
  EXPECT_TRUE(has(x, host_link_line("c2", "rtr0")));
  EXPECT_TRUE(has(x, host_link_line("c1", "rtr1")));
  EXPECT_TRUE(has(x, read_write_disk_lines("node7d0", "node7", "4000000000000", "2930000000Bps", "3130000000Bps",
                                           "3130000000Bps")[5])); // nN1D: 8 nodes of 1 disk
  EXPECT_FALSE(has(x, "node8"));
}

TEST(Platgen, StorageRejectsBadLayout) {
  expect_rejected(R"({"kind": "storage", "layout": "2N2D"})",
                  {"layout", "\"2N2D\"", "1N1D", "1NnD", "nN1D", "nNnD", "table5"});
  expect_rejected(R"({"kind": "storage", "layout": 4})", {"layout", "4", "string", "nNnD", "table5"});
  expect_rejected(R"({"kind": "storage", "layout": ""})", {"layout", "1N1D"});
  expect_rejected(R"({"kind": "forwarding", "layout": "nNnD"})", {"layout", "forwarding", "ionodes"});
  expect_rejected(R"({"kind": "storage", "ionodes": 2})", {"ionodes", "storage", "layout", "capacity", "pfs_bw"});
}

TEST(Platgen, StorageRejectsBadCapacity) {
  expect_rejected(R"({"kind": "storage", "capacity": "-3TB"})", {"capacity", "-3TB", "size"});
  expect_rejected(R"({"kind": "storage", "capacity": "abc"})", {"capacity", "abc", "32TB"});
  expect_rejected(R"({"kind": "storage", "capacity": 0})", {"capacity", "0", "positive"});
  expect_rejected(R"({"kind": "storage", "capacity": -1e12})", {"capacity", "-1000000000000"});
  expect_rejected(R"({"kind": "storage", "capacity": true})", {"capacity", "true", "size"});
  expect_rejected(
      R"({"kind": "storage", "layout": "table5", "capacity": "16TB"})",
      {"capacity", "16TB", "table5 is 32 TB by definition (StorAlloc Table 5)", "drop capacity", "give 32TB"});
}

// ios_platgen_check accepts a string layout and a number or string capacity (values are ios_platgen_write's), and
// rejects the wrong JSON types naming the parameter.
TEST(Platgen, StorageCheckTypes) {
  Json ok = parse(R"({"kind": "storage", "layout": "1NnD", "capacity": "16TB"})");
  EXPECT_EQ(ios_platgen_check(ok.get(), kWhere), IOS_OK) << ios_diag_message();
  Json num = parse(R"({"kind": "storage", "layout": "whatever", "capacity": 16e12})");
  EXPECT_EQ(ios_platgen_check(num.get(), kWhere), IOS_OK) << ios_diag_message();
  Json badlayout = parse(R"({"kind": "storage", "layout": 1})");
  EXPECT_EQ(ios_platgen_check(badlayout.get(), kWhere), IOS_EINVAL);
  EXPECT_TRUE(has(ios_diag_message(), "layout"));
  Json badcap = parse(R"({"kind": "storage", "capacity": [32]})");
  EXPECT_EQ(ios_platgen_check(badcap.get(), kWhere), IOS_EINVAL);
  EXPECT_TRUE(has(ios_diag_message(), "capacity"));
}

// The command line: `iosim platform storage --set layout=table5 --set compute=2 -o FILE` writes table5's platform
// (a --set value that is not JSON is a string); a bad layout exits with code 2 and writes nothing.
TEST(Platgen, StorageCommandLine) {
  iosim_test::TempDir tmp; // removed with its content on every exit
  std::string out = tmp.file("storage.xml");
  char *path = &out[0];
  char a0[] = "platform", a1[] = "storage", s[] = "--set", l[] = "layout=table5", c[] = "compute=2", o[] = "-o";
  char *argv[] = {a0, a1, s, l, s, c, o, path, nullptr};
  ASSERT_EQ(ios_cli_platform(8, argv), 0) << ios_diag_message();
  std::string xml;
  if (FILE *f = std::fopen(path, "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      xml.append(buf, n);
    std::fclose(f);
  }
  std::remove(path);
  EXPECT_EQ(xml, xml_of(R"({"kind": "storage", "compute": 2, "layout": "table5"})"));
  char bad[] = "layout=9N9D";
  char *argv2[] = {a0, a1, s, bad, o, path, nullptr};
  EXPECT_EQ(ios_cli_platform(6, argv2), 2);
  EXPECT_TRUE(has(ios_diag_message(), "9N9D"));
  FILE *left = std::fopen(path, "r");
  EXPECT_EQ(left, nullptr) << "a failed run left " << path;
  if (left != nullptr) std::fclose(left);
  std::remove(path);
}

// ------------------------------------------------------------------------------------------------ generated files

// Expectations: the committed platforms are exactly what `iosim platform` writes for the spec in their header
// (ios_platgen_is_generated: the loader then needs no probe in a child); a generated file with one byte changed,
// another header or none is not; a file that cannot be read is not. The file is written in the working directory
// (the build tree) and removed.
TEST(Platgen, GeneratedFilesAreRecognisedByteForByte) {
  for (const char *f : {"/platforms/pfs-single.xml", "/platforms/mn4-forwarding.xml", "/platforms/plafrim-beegfs.xml"})
    EXPECT_EQ(ios_platgen_is_generated((std::string(IOSIM_SOURCE_DIR) + f).c_str()), 1)
        << f << ": regenerate it with `iosim platform` (its header gives the parameters)";
  const std::string path = "platgen-is-generated-test.xml";
  auto write = [&](const std::string &text) {
    FILE *f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  Gen g = generate(R"({"kind": "oss-ost", "compute": 3, "routers": 2, "routers_per_client": 2})", "a test");
  ASSERT_EQ(g.rc, IOS_OK);
  write(g.xml);
  EXPECT_EQ(ios_platgen_is_generated(path.c_str()), 1);
  std::string edited = g.xml;
  size_t at = edited.find("1200000000Bps");
  ASSERT_NE(at, std::string::npos);
  edited[at] = '2'; // an OST at 2.2 GB/s
  write(edited);
  EXPECT_EQ(ios_platgen_is_generated(path.c_str()), 0);
  write(g.xml.substr(g.xml.find("<!DOCTYPE"))); // no header
  EXPECT_EQ(ios_platgen_is_generated(path.c_str()), 0);
  std::remove(path.c_str());
  EXPECT_EQ(ios_platgen_is_generated(path.c_str()), 0);
}
