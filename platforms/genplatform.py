#!/usr/bin/env python3
"""Generate SimGrid platform XML files for iosim.

Three kinds of platform can be generated:

  pfs-single  compute nodes writing directly to one shared parallel file
              system (PFS) of aggregate bandwidth B.
  forwarding  compute nodes writing through a layer of I/O forwarding nodes,
              each forwarded write also crossing the PFS behind them.
  oss-ost     compute nodes writing to the OSTs (storage targets) of a few
              object storage servers (OSS), BeeGFS/Lustre style.

Every generated platform follows the conventions iosim relies on (see
platforms/README.md):

  * one top zone with DijkstraCache routing (Dijkstra shortest paths, cached),
    a star around the router "fabric";
  * every link has latency 0 (with SimGrid's CM02 network model, flow weights
    depend on route latency, and iosim needs them to depend on nothing else);
  * every host has speed 1Gf and a "role" property (compute, ionode, oss, ost,
    pfs or controller);
  * compute hosts c0..c{C-1} carry a "nic_bw" property (applied by iosim as an
    application-side cap, not as a link) and reach the fabric through one
    shared, FATPIPE, practically infinite link "compute_fabric";
  * I/O resource hosts (roles ionode, ost, pfs) carry a "link" property naming
    the link that stands for their bandwidth;
  * a host "controller" reaches the fabric through "controller_link".

Examples (run from the repository root):

  python3 platforms/genplatform.py pfs-single -o platforms/pfs-single.xml
  python3 platforms/genplatform.py forwarding --ionodes 24 -o /tmp/fwd24.xml
  python3 platforms/genplatform.py oss-ost --servers 4 -o /tmp/beegfs4.xml

Only the Python 3 standard library is used.
"""

import argparse
import re
import shlex
import sys
from xml.sax.saxutils import quoteattr

# --------------------------------------------------------------------------
# Constants shared by all platform kinds
# --------------------------------------------------------------------------

HOST_SPEED = "1Gf"
# The compute side must never be a bottleneck: one FATPIPE link (each flow
# gets the full bandwidth, flows do not share it) with a huge bandwidth.
COMPUTE_FABRIC_BW = "1000TBps"
# The controller only exchanges small control messages; any value works.
CONTROLLER_BW = "100GBps"

# APEX workflows report (LANL/NERSC/SNL, 2016), Cielo: 8,894 compute nodes,
# 200 GiB/s aggregate PFS bandwidth, 1.2 GiB/s per node.
CIELO_NODES = 8894
CIELO_PFS_BYTES_PER_S = 200 * 2**30
CIELO_NIC_BW = "1.2GiBps"

# Bandwidth strings accepted by SimGrid 3.32 (src/xbt/xbt_parse_units.cpp):
# a number, an optional decimal (k M G T P E) or binary (Ki Mi Gi Ti Pi Ei)
# prefix, then Bps (bytes/s) or bps (bits/s).  Note: "kBps" is lower-case k,
# "KBps" is rejected, "KiBps" is accepted.
BANDWIDTH_RE = re.compile(
    r"^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?[Bb]ps$")


def bandwidth(text):
    """argparse type: a SimGrid bandwidth string such as "12.5GBps"."""
    if not BANDWIDTH_RE.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a SimGrid bandwidth (examples: 12.5GBps, "
            f"1.2GiBps, 100Gbps, 3090599358.5Bps)")
    return text


def positive_int(text):
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def cielo_scaled_pfs_bw(compute):
    """Cielo's 200 GiB/s scaled to `compute` nodes, in bytes per second.

    repr() of a float gives the shortest string that reads back as the very
    same double, so SimGrid gets exactly the computed value.
    """
    return repr(CIELO_PFS_BYTES_PER_S * compute / CIELO_NODES) + "Bps"


# --------------------------------------------------------------------------
# A tiny platform model and its XML writer
# --------------------------------------------------------------------------

class Platform:
    """Hosts, links and routes of a one-zone star platform."""

    def __init__(self, zone_id):
        self.zone_id = zone_id
        self.hosts = []    # (id, [(prop, value), ...])
        self.links = []    # (id, bandwidth, sharing_policy or None)
        self.routes = []   # (src, dst, [link ids])

    def add_host(self, host_id, role, **props):
        """Add a host with its role and extra properties (in that order)."""
        self.hosts.append((host_id, [("role", role)] + list(props.items())))

    def add_link(self, link_id, bw, sharing_policy=None):
        self.links.append((link_id, bw, sharing_policy))

    def add_route(self, src, dst, link_ids):
        """Add a (symmetrical) route; the reverse route uses the links reversed.

        Note: when SimGrid's Dijkstra composes a host-to-host route, the links
        of each multi-link hop come out in reverse order (same set of links).
        """
        self.routes.append((src, dst, list(link_ids)))

    def to_xml(self, comment):
        """Render the platform as SimGrid XML (DTD version 4.1)."""
        out = ["<?xml version='1.0'?>",
               xml_comment(comment),
               '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
               '<platform version="4.1">',
               f"  <zone id={quoteattr(self.zone_id)} routing=\"DijkstraCache\">"]
        for host_id, props in self.hosts:
            prop_xml = "".join(f"<prop id={quoteattr(name)} value={quoteattr(value)}/>"
                               for name, value in props)
            out.append(f"    <host id={quoteattr(host_id)} speed=\"{HOST_SPEED}\">"
                       f"{prop_xml}</host>")
        out.append('    <router id="fabric"/>')
        for link_id, bw, policy in self.links:
            extra = f" sharing_policy={quoteattr(policy)}" if policy else ""
            out.append(f"    <link id={quoteattr(link_id)} bandwidth={quoteattr(bw)}"
                       f" latency=\"0\"{extra}/>")
        for src, dst, link_ids in self.routes:
            ctn_xml = "".join(f"<link_ctn id={quoteattr(link_id)}/>" for link_id in link_ids)
            out.append(f"    <route src={quoteattr(src)} dst={quoteattr(dst)}>{ctn_xml}</route>")
        out.append("  </zone>")
        out.append("</platform>")
        return "\n".join(out) + "\n"


def xml_comment(text):
    """Wrap text in an XML comment.

    XML forbids "--" inside a comment (and a comment ending in "-"), yet a
    command line may contain "--ionodes"; such pairs are written "- -".
    """
    if "--" in text:
        while "--" in text:
            text = text.replace("--", "- -")
        text += '\n(XML comments cannot hold a double hyphen: read "- -" as two hyphens.)'
    lines = text.rstrip("-").split("\n")
    return "<!--\n" + "\n".join("  " + line if line else "" for line in lines) + "\n-->"


def add_common(p, compute, nic_bw):
    """Compute hosts, their shared fabric link, and the controller."""
    for k in range(compute):
        p.add_host(f"c{k}", "compute", nic_bw=nic_bw)
    p.add_host("controller", "controller")
    p.add_link("compute_fabric", COMPUTE_FABRIC_BW, "FATPIPE")
    p.add_link("controller_link", CONTROLLER_BW)
    for k in range(compute):
        p.add_route(f"c{k}", "fabric", ["compute_fabric"])
    p.add_route("fabric", "controller", ["controller_link"])


# --------------------------------------------------------------------------
# The three platform kinds
# --------------------------------------------------------------------------

def build_pfs_single(args):
    """C compute nodes and one PFS host whose link `pfs` has bandwidth B."""
    scaled = args.pfs_bw is None
    if scaled:
        args.pfs_bw = cielo_scaled_pfs_bw(args.compute)
    p = Platform("iosim-pfs-single")
    add_common(p, args.compute, args.nic_bw)
    p.add_host("pfs", "pfs", link="pfs")
    p.add_link("pfs", args.pfs_bw)
    p.add_route("fabric", "pfs", ["pfs"])
    about = (
        f"Single shared parallel file system: {args.compute} compute nodes\n"
        f"(per-node NIC cap nic_bw={args.nic_bw}) all reach one PFS host whose\n"
        f"link 'pfs' has the aggregate bandwidth {args.pfs_bw}"
        f"{' (200 GiB/s x %d / 8894)' % args.compute if scaled else ''}.\n"
        f"Defaults: APEX Cielo (1.2 GiB/s per node; 200 GiB/s for 8,894 nodes),\n"
        f"the PFS bandwidth being scaled to the number of compute nodes:\n"
        f"200 GiB/s x C / 8894.")
    return p, about


def build_forwarding(args):
    """C compute nodes, F I/O nodes, and the PFS (GPFS) behind them."""
    p = Platform("iosim-forwarding")
    add_common(p, args.compute, args.nic_bw)
    for k in range(args.ionodes):
        p.add_host(f"ion{k}", "ionode", link=f"ion{k}")
    p.add_host("pfs", "pfs", link="gpfs")
    for k in range(args.ionodes):
        p.add_link(f"ion{k}", args.ionode_bw)
    p.add_link("gpfs", args.pfs_bw)
    for k in range(args.ionodes):
        # A forwarded write is one flow over the I/O node and the PFS behind it.
        p.add_route("fabric", f"ion{k}", [f"ion{k}", "gpfs"])
    # Direct PFS access, for an application given 0 I/O nodes.
    p.add_route("fabric", "pfs", ["gpfs"])
    about = (
        f"I/O forwarding layer: {args.compute} compute nodes (nic_bw={args.nic_bw}),\n"
        f"{args.ionodes} I/O nodes ion0..ion{args.ionodes - 1} of {args.ionode_bw} each,\n"
        f"all forwarding to one shared PFS (link 'gpfs', {args.pfs_bw}).\n"
        f"Route to ionK = [ionK, gpfs]; route to host 'pfs' = [gpfs] (direct access).\n"
        f"Defaults: MareNostrum 4-like, 12 I/O nodes with GPFS behind,\n"
        f"100 Gb/s Omni-Path compute NICs.")
    return p, about


def build_oss_ost(args):
    """C compute nodes, S object storage servers with T OSTs each."""
    servers, per = args.servers, args.osts_per_server
    p = Platform("iosim-oss-ost")
    add_common(p, args.compute, args.nic_bw)
    for i in range(servers):
        p.add_host(f"oss{i}", "oss", link=f"oss{i}")
    for k in range(servers * per):
        p.add_host(f"ost{k}", "ost", link=f"ost{k}")
    for i in range(servers):
        p.add_link(f"oss{i}", args.server_bw)
    for k in range(servers * per):
        p.add_link(f"ost{k}", args.ost_bw)      # "OST as a link"
    for i in range(servers):
        p.add_route("fabric", f"oss{i}", [f"oss{i}"])
    for k in range(servers * per):
        p.add_route("fabric", f"ost{k}", [f"oss{k // per}", f"ost{k}"])
    about = (
        f"Object storage: {args.compute} compute nodes (nic_bw={args.nic_bw}),\n"
        f"{servers} servers oss0..oss{servers - 1} (network {args.server_bw} each),\n"
        f"each with {per} OSTs ({servers * per} in all, {args.ost_bw} each).\n"
        f"Route to ostK = [oss(K div {per}), ostK].\n"
        f"Defaults: PlaFRIM BeeGFS, 2 servers x 4 OSTs, 100 Gb/s Omni-Path.")
    return p, about


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Generate a SimGrid platform XML file for iosim.",
        epilog="See platforms/README.md for the conventions and the sources "
               "of the default values.")
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")

    def add_kind(name, builder, help_text):
        sub = kinds.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("-o", "--output", required=True,
                         help="output XML file ('-' for standard output)")
        sub.set_defaults(builder=builder)
        return sub

    sub = add_kind("pfs-single", build_pfs_single,
                   "compute nodes and one shared PFS (APEX Cielo defaults)")
    sub.add_argument("--compute", type=positive_int, default=128,
                     help="number of compute nodes C (default: %(default)s)")
    sub.add_argument("--nic-bw", type=bandwidth, default=CIELO_NIC_BW,
                     help="per-node NIC bandwidth (default: %(default)s)")
    sub.add_argument("--pfs-bw", type=bandwidth, default=None,
                     help="PFS aggregate bandwidth (default: Cielo's 200 GiB/s "
                          "x C / 8894, in Bps)")

    sub = add_kind("forwarding", build_forwarding,
                   "compute nodes, I/O forwarding nodes and a PFS behind them "
                   "(MareNostrum 4-like defaults)")
    sub.add_argument("--compute", type=positive_int, default=512,
                     help="number of compute nodes C (default: %(default)s)")
    sub.add_argument("--ionodes", type=positive_int, default=12,
                     help="number of I/O nodes F (default: %(default)s)")
    sub.add_argument("--nic-bw", type=bandwidth, default="12.5GBps",
                     help="per-node NIC bandwidth (default: %(default)s, "
                          "100 Gb/s Omni-Path)")
    sub.add_argument("--ionode-bw", type=bandwidth, default="1.25GBps",
                     help="bandwidth of each I/O node (default: %(default)s)")
    sub.add_argument("--pfs-bw", type=bandwidth, default="20GBps",
                     help="bandwidth of the PFS behind the I/O nodes "
                          "(default: %(default)s)")

    sub = add_kind("oss-ost", build_oss_ost,
                   "compute nodes and storage servers with OSTs "
                   "(PlaFRIM BeeGFS defaults)")
    sub.add_argument("--compute", type=positive_int, default=64,
                     help="number of compute nodes C (default: %(default)s)")
    sub.add_argument("--servers", type=positive_int, default=2,
                     help="number of storage servers S (default: %(default)s)")
    sub.add_argument("--osts-per-server", type=positive_int, default=4,
                     help="OSTs per server T (default: %(default)s)")
    sub.add_argument("--nic-bw", type=bandwidth, default="12.5GBps",
                     help="per-node NIC bandwidth (default: %(default)s, "
                          "100 Gb/s Omni-Path)")
    sub.add_argument("--server-bw", type=bandwidth, default="12.5GBps",
                     help="network bandwidth of each server (default: %(default)s)")
    sub.add_argument("--ost-bw", type=bandwidth, default="1.2GBps",
                     help="bandwidth of each OST device (default: %(default)s)")
    return parser.parse_args(argv)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    platform, about = args.builder(args)
    command = "python3 " + shlex.join([sys.argv[0]] + list(argv))
    comment = f"Generated by: {command}\n\n{about}"
    xml = platform.to_xml(comment)
    if args.output == "-":
        sys.stdout.write(xml)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(xml)


if __name__ == "__main__":
    main()
