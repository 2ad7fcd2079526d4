/* iosim view: draws the runs embedded in the page (python/iosim/view.py writes them into #iosim-data) with Plotly.
 * Per run: each resource's bandwidth over time stacked by application, each application's work, waiting and I/O at
 * the rate it received, its allocation; a time cursor shared by every panel, a table of each application's state at
 * the cursor (rate, bytes left, yield so far), zoom shared by every panel. For a campaign: the report's metrics as
 * interactive charts; a click on a run adds its view. Units: seconds, bytes, GB/s (10^9 bytes/s) on axes. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("iosim-data").textContent);
  // Applications: Paul Tol's "muted" scheme (distinguishable with the common colour-vision deficiencies) for the first
  // 9, then generated hues (golden-angle steps, three lightness levels), so that no two applications share a colour;
  // the page says when there are more than 9. Policies (campaign page): the Okabe-Ito scheme and a marker shape each,
  // never an application's colour.
  var PALETTE = ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499"];
  var POLICY_PALETTE = ["#000000", "#E69F00", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#F0E442"];
  var POLICY_SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "cross", "star", "hexagon", "triangle-down"];
  function appColour(k) {
    if (k < PALETTE.length) return PALETTE[k];
    var i = k - PALETTE.length, h = (i * 137.508) % 360, l = [38, 52, 30][i % 3], sat = [62, 48, 70][(i >> 1) % 3];
    return hslHex(h, sat, l);
  }
  function hslHex(h, sat, l) {
    sat /= 100;
    l /= 100;
    var a = sat * Math.min(l, 1 - l);
    function f(n) {
      var k = (n + h / 30) % 12, c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
      return ("0" + Math.round(255 * c).toString(16)).slice(-2);
    }
    return "#" + f(0) + f(8) + f(4);
  }
  // One fixed colour scale for I/O stretch and slowdown on every page: log2 of the value, 1 (as fast as alone) to 16
  // and beyond, with the values on its legend.
  var STRETCH_MAX = 16, STRETCH_TICKS = [1, 1.5, 2, 4, 8, 16];
  function stretchZ(s) { return Math.log(Math.min(STRETCH_MAX, Math.max(1, s))) / Math.LN2; }
  var WORK_COLOUR = "#BBBBBB";
  var MAX_EXACT = 4000; // breakpoints drawn exactly; beyond, rates are averaged over bins (bytes kept)
  var GB = 1e9;
  var shown = []; // indices into DATA.runs of the runs drawn, in column order
  var figs = []; // every Plotly div that has a time axis
  var cursor = 0;
  var range = null; // the shared time range [t0, t1], null = whole runs
  var syncing = false;

  // ------------------------------------------------------------------------------------------------ data
  function decode(b64, Type) {
    var s = atob(b64), n = s.length, u = new Uint8Array(n);
    for (var i = 0; i < n; i++) u[i] = s.charCodeAt(i);
    return new Type(u.buffer);
  }

  function cols(c, withRes, withBytes) {
    var o = { app: decode(c.app, Int32Array), t0: decode(c.t0, Float64Array), t1: decode(c.t1, Float64Array) };
    if (withRes) o.res = decode(c.res, Int32Array);
    if (withBytes) o.bytes = decode(c.bytes, Float64Array);
    o.n = o.app.length;
    return o;
  }

  var colourOf = {};
  (function () {
    var k = 0;
    DATA.runs.forEach(function (r) {
      r.apps.forEach(function (a) {
        if (!(a.name in colourOf)) colourOf[a.name] = appColour(k++);
      });
    });
  })();

  function prepare(run) {
    if (run.p) return run.p;
    var p = { seg: cols(run.seg, true, true), io: cols(run.io, false, true), work: cols(run.work) };
    var seg = p.seg;
    p.rate = new Float64Array(seg.n);
    for (var i = 0; i < seg.n; i++) p.rate[i] = seg.t1[i] > seg.t0[i] ? seg.bytes[i] / (seg.t1[i] - seg.t0[i]) : 0;
    var napps = run.apps.length;
    p.byApp = [];
    p.ioByApp = [];
    p.workByApp = [];
    for (var j = 0; j < napps; j++) {
      p.byApp.push([]);
      p.ioByApp.push([]);
      p.workByApp.push([]);
    }
    p.byRes = {};
    for (i = 0; i < seg.n; i++) {
      p.byApp[seg.app[i]].push(i);
      (p.byRes[seg.res[i]] = p.byRes[seg.res[i]] || []).push(i);
    }
    for (i = 0; i < p.io.n; i++) p.ioByApp[p.io.app[i]].push(i);
    for (i = 0; i < p.work.n; i++) p.workByApp[p.work.app[i]].push(i);
    var lo = Infinity, hi = -Infinity;
    run.apps.forEach(function (a) {
      if (a.start !== null && a.start < lo) lo = a.start;
      if (a.end !== null && a.end > hi) hi = a.end;
    });
    [p.seg, p.io, p.work].forEach(function (c) {
      for (var i = 0; i < c.n; i++) {
        if (c.t0[i] < lo) lo = c.t0[i];
        if (c.t1[i] > hi) hi = c.t1[i];
      }
    });
    if (run.window.end !== null && run.window.end > hi) hi = run.window.end;
    p.tmin = isFinite(lo) ? Math.min(lo, 0) : 0;
    p.tmax = isFinite(hi) ? hi : 1;
    run.p = p;
    return p;
  }

  function upperBound(a, v) { // first index with a[i] > v
    var lo = 0, hi = a.length;
    while (lo < hi) {
      var m = (lo + hi) >> 1;
      if (a[m] <= v) lo = m + 1;
      else hi = m;
    }
    return lo;
  }

  /* The rates of segments `idx` of run p over [x0, x1]: {x, exact, rate: {app: Float64Array(x.length)}}, rate[k]
   * holding over [x[k], x[k+1]) (the last point repeats the last value). Exactly at every breakpoint when there are
   * at most MAX_EXACT of them, else the mean over equal bins (each bin's bytes / its length). */
  function series(p, idx, x0, x1, apps) {
    var seg = p.seg, pts = [x0, x1], i, k;
    for (k = 0; k < idx.length; k++) {
      i = idx[k];
      if (seg.t1[i] < x0 || seg.t0[i] > x1) continue;
      if (seg.t0[i] > x0) pts.push(seg.t0[i]);
      if (seg.t1[i] < x1) pts.push(seg.t1[i]);
      if (pts.length > 2 * MAX_EXACT) break;
    }
    var exact = pts.length <= MAX_EXACT;
    var x;
    if (exact) {
      pts.sort(function (a, b) { return a - b; });
      x = [];
      for (k = 0; k < pts.length; k++) if (k === 0 || pts[k] !== pts[k - 1]) x.push(pts[k]);
    } else {
      var nb = Math.max(200, Math.min(2000, Math.floor(200000 / Math.max(1, apps))));
      x = [];
      for (k = 0; k <= nb; k++) x.push(x0 + (x1 - x0) * k / nb);
    }
    var n = x.length, xa = Float64Array.from(x), diff = {}, out = {};
    for (k = 0; k < idx.length; k++) {
      i = idx[k];
      var a = seg.t0[i], b = seg.t1[i], r = p.rate[i], app = seg.app[i];
      if (!(r > 0) || b <= x0 || a >= x1) continue;
      var d = diff[app] || (diff[app] = new Float64Array(n + 1));
      var lo = upperBound(xa, a) - 1, hi = upperBound(xa, b) - 1; // bins holding a and b
      if (lo < 0) lo = 0;
      if (exact) { // a and b are breakpoints (or outside [x0, x1])
        var s = a <= x0 ? 0 : lo, e = b >= x1 ? n - 1 : hi;
        d[s] += r;
        d[e] -= r;
      } else {
        var w = xa[1] - xa[0];
        if (lo === hi) { // within one bin
          var part = r * (Math.min(b, x1) - Math.max(a, x0)) / w;
          d[lo] += part;
          d[lo + 1] -= part;
        } else {
          var first = r * (xa[lo + 1] - Math.max(a, x0)) / w;
          d[lo] += first;
          d[lo + 1] -= first;
          if (hi < n - 1) {
            var last = r * (Math.min(b, x1) - xa[hi]) / w;
            d[hi] += last;
            d[hi + 1] -= last;
          }
          d[lo + 1] += r; // whole bins lo+1 .. hi-1
          d[Math.min(hi, n - 1)] -= r;
        }
      }
    }
    Object.keys(diff).forEach(function (app) {
      var d = diff[app], v = new Float64Array(n), acc = 0, top = 0;
      for (var k = 0; k < n; k++) {
        acc += d[k];
        top = Math.max(top, Math.abs(acc));
        v[k] = Math.abs(acc) <= 1e-9 * top ? 0 : acc; // rounding left by the differences: none
      }
      v[n - 1] = n > 1 ? v[n - 2] : v[0];
      out[app] = v;
    });
    return { x: x, exact: exact, rate: out };
  }

  /* Application j of run r at date t: {state, rate (bytes/s), left (bytes of its current operation), yield}. */
  function stateAt(ri, j, t) {
    var run = DATA.runs[ri], p = prepare(run), app = run.apps[j], seg = p.seg;
    var rate = 0, moved = 0, work = 0, state = "idle", left = null, op = -1;
    function movedBy(i, from, to) { // bytes segment i moved in [from, to]
      if (seg.t1[i] <= from || seg.t0[i] >= to) return seg.t1[i] === seg.t0[i] && seg.t0[i] >= from && seg.t0[i] <= to ? seg.bytes[i] : 0;
      if (seg.t0[i] >= from && seg.t1[i] <= to) return seg.bytes[i];
      return p.rate[i] * (Math.min(to, seg.t1[i]) - Math.max(from, seg.t0[i]));
    }
    p.byApp[j].forEach(function (i) {
      if (seg.t0[i] <= t && t < seg.t1[i]) rate += p.rate[i];
      moved += movedBy(i, -Infinity, t);
    });
    p.workByApp[j].forEach(function (i) {
      if (p.work.t0[i] < t) work += Math.min(t, p.work.t1[i]) - p.work.t0[i];
      if (p.work.t0[i] <= t && t < p.work.t1[i]) state = "work";
    });
    p.ioByApp[j].forEach(function (i) {
      if (p.io.t0[i] <= t && t < p.io.t1[i]) op = i;
    });
    if (op >= 0) {
      var done = 0;
      p.byApp[j].forEach(function (i) { done += movedBy(i, p.io.t0[op], t); });
      left = Math.max(0, p.io.bytes[op] - done);
      state = rate > 0 ? "I/O" : "waiting";
    }
    if (app.start !== null && t < app.start) state = "not started";
    if (app.end !== null && t >= app.end) state = "done";
    var tau = app.start === null ? 0 : app.start;
    var tEnd = app.end !== null && t > app.end ? app.end : t;
    var y = null;
    if (tEnd > tau && app.b > 0) {
      if (tEnd < t) { // done: its yield at its completion
        work = 0;
        moved = 0;
        p.workByApp[j].forEach(function (i) { work += p.work.t1[i] - p.work.t0[i]; });
        p.byApp[j].forEach(function (i) { moved += seg.bytes[i]; });
      }
      y = (work + moved / app.b) / (tEnd - tau);
    }
    return { state: state, rate: rate, left: left, yield: y, moved: moved, work: work };
  }

  // ------------------------------------------------------------------------------------------------ formatting
  function fmt(v, d) {
    if (v === null || v === undefined || (typeof v === "number" && !isFinite(v))) return "–";
    if (typeof v !== "number") return String(v);
    if (v !== 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3)) return v.toExponential(d || 4);
    return Number(v.toPrecision(d || 6)).toString();
  }
  function metricCell(name, v) {
    if (v === null || v === undefined) return "–";
    if (/_Bps$/.test(name)) return fmt(v / GB, 6) + " GB/s";
    if (/_s$/.test(name)) return fmt(v, 6) + " s";
    return fmt(v, 6);
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function el(tag, attrs, html) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (html !== undefined) e.innerHTML = html;
    return e;
  }

  // ------------------------------------------------------------------------------------------------ time axis
  function fullRange() {
    var lo = Infinity, hi = -Infinity;
    shown.forEach(function (ri) {
      var p = prepare(DATA.runs[ri]);
      lo = Math.min(lo, p.tmin);
      hi = Math.max(hi, p.tmax);
    });
    if (!isFinite(lo)) return [0, 1];
    return [lo, hi > lo ? hi : lo + 1];
  }
  function curRange() { return range || fullRange(); }

  function cursorShape(t) {
    return { type: "line", xref: "x", yref: "paper", x0: t, x1: t, y0: 0, y1: 1, line: { color: "#000", width: 1.5 } };
  }
  function windowShapes(run) {
    var s = [];
    if (run.window.end !== null) {
      [run.window.begin, run.window.end].forEach(function (t) {
        if (t !== null) s.push({ type: "line", xref: "x", yref: "paper", x0: t, x1: t, y0: 0, y1: 1,
          line: { color: "#777", width: 1, dash: "dash" } });
      });
    }
    return s;
  }
  /* A panel's layout. Its title goes above the figure as HTML (titleOf, set by draw), so that it wraps instead of
   * being cut and the toolbar never covers it; the legend sits below the axis title: LEGEND_GAP px under the plot
   * area, in a bottom margin that holds LEGEND_ROWS rows of entries. */
  var LEGEND_GAP = 58, LEGEND_ROWS = 2;
  function baseLayout(title, ytitle, height) {
    var m = { l: 70, r: 10, t: 28, b: LEGEND_GAP + 22 * LEGEND_ROWS };
    var plotH = Math.max(40, height - m.t - m.b);
    return {
      iosimTitle: title,
      height: height, margin: m,
      xaxis: { title: { text: "time (s)", standoff: 6 }, range: curRange().slice(), zeroline: false, automargin: false },
      yaxis: { title: { text: ytitle }, automargin: true }, hovermode: "x", showlegend: true,
      legend: { orientation: "h", y: -LEGEND_GAP / plotH, yanchor: "top", font: { size: 10 } }
    };
  }
  function titleOf(div, lay) {
    if (lay.iosimTitle === undefined) return;
    if (!div.iosimHead) {
      div.iosimHead = el("div", { "class": "panel-title" });
      div.parentNode.insertBefore(div.iosimHead, div);
    }
    div.iosimHead.textContent = lay.iosimTitle;
    delete lay.iosimTitle;
  }

  // ------------------------------------------------------------------------------------------------ panels
  function resourcePanel(div, ri, res) {
    var run = DATA.runs[ri], p = prepare(run), r = curRange();
    var sr = series(p, p.byRes[res.index] || [], r[0], r[1], run.apps.length);
    var traces = [], acc = new Float64Array(sr.x.length);
    run.apps.forEach(function (a, j) {
      var v = sr.rate[j];
      if (!v) return;
      var y = [], own = [];
      for (var k = 0; k < v.length; k++) {
        acc[k] += v[k];
        y.push(acc[k] / GB);
        own.push(v[k] / GB);
      }
      traces.push({ x: sr.x, y: y, customdata: own, name: a.name, legendgroup: a.name, type: "scatter",
        mode: "lines", line: { shape: "hv", width: 0.5, color: colourOf[a.name] }, fillcolor: colourOf[a.name],
        fill: traces.length ? "tonexty" : "tozeroy",
        hovertemplate: a.name + ": %{customdata:.4f} GB/s<extra></extra>" });
    });
    var lay = baseLayout(res.name + " (" + res.kind + ")" + (sr.exact ? "" : " — mean rates per bin of " +
      fmt((r[1] - r[0]) / (sr.x.length - 1), 3) + " s"), "bandwidth (GB/s)", 330);
    lay.shapes = [cursorShape(cursor)].concat(windowShapes(run));
    if (res.capacity) {
      lay.shapes.push({ type: "line", xref: "paper", x0: 0, x1: 1, y0: res.capacity / GB, y1: res.capacity / GB,
        line: { color: "#444", width: 1, dash: "dot" } });
      lay.yaxis.range = [0, 1.08 * res.capacity / GB];
    }
    div.iosim = { run: ri, kind: "resource", res: res.index, exact: sr.exact };
    return [traces, lay];
  }

  function appsPanel(div, ri) {
    var run = DATA.runs[ri], p = prepare(run), r = curRange(), n = run.apps.length;
    var traces = [], wx = [], wy = [], H = 0.8;
    var all = [];
    for (var j = 0; j < n; j++) all = all.concat(p.byApp[j]);
    var sr = series(p, all, r[0], r[1], n);
    function rect(xs, ys, a, b, y0, h) { xs.push(a, b, b, a, a, null); ys.push(y0, y0, y0 + h, y0 + h, y0, null); }
    run.apps.forEach(function (a, j) {
      var base = n - 1 - j;
      p.workByApp[j].forEach(function (i) { rect(wx, wy, p.work.t0[i], p.work.t1[i], base, H); });
      var px = [], py = [];
      p.ioByApp[j].forEach(function (i) { rect(px, py, p.io.t0[i], p.io.t1[i], base, H); });
      traces.push({ x: px, y: py, type: "scatter", mode: "lines", fill: "toself", name: a.name + " I/O pending",
        legendgroup: a.name, showlegend: false, line: { width: 0.5, color: colourOf[a.name] },
        fillcolor: pendingShade(colourOf[a.name]), hoverinfo: "skip" });
      var v = sr.rate[j] || new Float64Array(sr.x.length), y = [], own = [];
      var b = a.b > 0 ? a.b : 1;
      for (var k = 0; k < v.length; k++) {
        y.push(base + H * Math.min(1, v[k] / b));
        own.push([v[k] / GB, v[k] / b]);
      }
      traces.push({ x: [r[0], r[1]], y: [base, base], type: "scatter", mode: "lines", line: { width: 0 },
        showlegend: false, hoverinfo: "skip", legendgroup: a.name });
      traces.push({ x: sr.x, y: y, customdata: own, type: "scatter", mode: "lines", fill: "tonexty",
        name: a.name, legendgroup: a.name, line: { shape: "hv", width: 1, color: colourOf[a.name] },
        fillcolor: colourOf[a.name],
        hovertemplate: a.name + ": %{customdata[0]:.4f} GB/s (%{customdata[1]:.1%} of b)<extra></extra>" });
    });
    traces.unshift({ x: wx, y: wy, type: "scatter", mode: "lines", fill: "toself", name: "work phase",
      line: { width: 0, color: WORK_COLOUR }, fillcolor: WORK_COLOUR, hoverinfo: "skip" });
    var lay = baseLayout("Applications: work (grey), I/O pending (light), rate received (height = rate / b)",
      "application", 130 + 38 * n + 60);
    lay.yaxis = { tickvals: run.apps.map(function (a, j) { return n - 1 - j + H / 2; }),
      ticktext: run.apps.map(function (a) { return a.name; }), range: [-0.1, n], zeroline: false,
      title: { text: "application (row height = b)" } };
    lay.shapes = [cursorShape(cursor)].concat(windowShapes(run));
    div.iosim = { run: ri, kind: "apps", exact: sr.exact };
    return [traces, lay];
  }

  function allocPanel(div, ri) {
    var run = DATA.runs[ri], traces = {};
    run.alloc.forEach(function (al) {
      var a = run.apps[al.app];
      var t = traces[a.name] || (traces[a.name] = { type: "bar", orientation: "h", name: a.name,
        legendgroup: a.name, showlegend: false, marker: { color: colourOf[a.name] }, x: [], base: [], y: [],
        text: [], customdata: [], textposition: "inside", insidetextanchor: "middle",
        hovertemplate: "%{y}: %{customdata}<extra></extra>" });
      t.x.push(al.t1 - al.t0);
      t.base.push(al.t0);
      t.y.push(a.name);
      var list = al.resources.split(";").join(", ");
      t.text.push(list.length > 40 ? al.n + " resources" : list);
      t.customdata.push(al.n + " resource(s) from " + fmt(al.t0) + " to " + fmt(al.t1) + " s: " + list);
    });
    var lay = baseLayout("Allocation: the I/O resources each application holds (allocations.csv)", "application",
      120 + 26 * run.apps.length + 50);
    lay.yaxis = { type: "category", categoryorder: "array",
      categoryarray: run.apps.map(function (a) { return a.name; }).reverse(), title: { text: "application" } };
    lay.barmode = "overlay";
    lay.hovermode = "closest";
    lay.shapes = [cursorShape(cursor)].concat(windowShapes(run));
    div.iosim = { run: ri, kind: "alloc" };
    return [Object.keys(traces).map(function (k) { return traces[k]; }), lay];
  }

  /* The light shade of an application's colour for "I/O pending", dark enough to be seen on white: the opacity is
   * raised for light colours so that the shade's luminance stays at most 0.87 (white is 1). */
  function pendingShade(hex) {
    var v = parseInt(hex.slice(1), 16), rgb = [v >> 16, (v >> 8) & 255, v & 255].map(function (c) {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    var lum = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    var a = Math.min(0.6, Math.max(0.22, 0.13 / Math.max(0.05, 1 - lum)));
    return hexAlpha(hex, a);
  }
  function hexAlpha(hex, a) {
    var v = parseInt(hex.slice(1), 16);
    return "rgba(" + (v >> 16) + "," + ((v >> 8) & 255) + "," + (v & 255) + "," + a + ")";
  }

  var CONFIG = { displaylogo: false, responsive: true, modeBarButtonsToRemove: ["select2d", "lasso2d"] };

  function draw(div, builder) {
    var tl = builder(div);
    titleOf(div, tl[1]);
    Plotly.newPlot(div, tl[0], tl[1], CONFIG);
    div.iosimBuild = builder;
    figs.push(div);
    div.on("plotly_hover", function (ev) {
      if (ev && ev.xvals && ev.xvals.length) setCursor(ev.xvals[0]);
      else if (ev && ev.points && ev.points.length) setCursor(ev.points[0].x);
    });
    div.on("plotly_relayout", function (ev) { onZoom(div, ev); });
  }

  function onZoom(div, ev) {
    if (syncing) return;
    var next;
    if (ev["xaxis.autorange"]) next = null;
    else if (ev["xaxis.range[0]"] !== undefined) next = [ev["xaxis.range[0]"], ev["xaxis.range[1]"]];
    else if (ev["xaxis.range"]) next = ev["xaxis.range"].slice();
    else return;
    if (next === null ? range === null : range !== null && next[0] === range[0] && next[1] === range[1]) return;
    range = next; // (the panels redrawn below report the same range: no loop)
    redrawAll();
  }

  function redrawAll() {
    syncing = true;
    var r = curRange();
    figs.forEach(function (d) {
      if (!d.isConnected) return;
      if (d.iosim && (d.iosim.kind === "resource" || d.iosim.kind === "apps")) {
        var tl = d.iosimBuild(d);
        titleOf(d, tl[1]);
        Plotly.react(d, tl[0], tl[1], CONFIG);
      } else Plotly.relayout(d, { "xaxis.range": r.slice() });
    });
    syncing = false;
    updateSlider();
  }

  // ------------------------------------------------------------------------------------------------ cursor
  function setCursor(t) {
    if (typeof t !== "number" || !isFinite(t)) return;
    cursor = t;
    syncing = true;
    figs.forEach(function (d) {
      if (d.isConnected && d.layout && d.layout.shapes && d.layout.shapes.length)
        Plotly.relayout(d, { "shapes[0].x0": t, "shapes[0].x1": t });
    });
    syncing = false;
    var slider = document.getElementById("cursor");
    var r = curRange();
    slider.value = Math.round(1000 * (t - r[0]) / (r[1] - r[0]));
    document.getElementById("cursor-t").textContent = fmt(t, 6) + " s";
    shown.forEach(function (ri) { stateTable(ri); });
  }

  function updateSlider() {
    var r = curRange();
    document.getElementById("cursor-range").textContent = fmt(r[0], 5) + " – " + fmt(r[1], 5) + " s";
  }

  function stateTable(ri) {
    var run = DATA.runs[ri], box = document.getElementById("state-" + ri);
    if (!box) return;
    var rows = run.apps.map(function (a, j) {
      var s = stateAt(ri, j, cursor);
      return "<tr><td><span class=sw style='background:" + colourOf[a.name] + "'></span>" + esc(a.name) +
        "</td><td>" + s.state + "</td><td>" + (s.state === "I/O" || s.state === "waiting" ? fmt(s.rate / GB, 4) : "–") +
        "</td><td>" + (s.left === null ? "–" : fmt(s.left / GB, 5)) + "</td><td>" + fmt(s.yield, 4) + "</td></tr>";
    });
    box.innerHTML = "<table class=state><caption>At t = " + fmt(cursor, 6) + " s</caption><tr><th>application</th>" +
      "<th>state</th><th>rate (GB/s)</th><th>left of its I/O operation (GB)</th><th>yield so far</th></tr>" +
      rows.join("") + "</table>";
  }

  // ------------------------------------------------------------------------------------------------ overview
  /* The shown runs on one time axis of any length: the idle gaps in which no application of any shown run is running,
   * when longer than GAP_MIN of the busy time, are compressed to GAP_SHARE of the axis each, a busy period keeps a
   * width proportional to its length but at least MIN_SHARE (so a 1 s job years after the last one is a bar, not a
   * hairline). {periods: [[t0, t1]...], toX(t), ticks} or null when there is no such gap (real time then). */
  var GAP_MIN = 0.1, GAP_SHARE = 0.025, MIN_SHARE = 0.035, MAX_TICKS = 12;
  function busyAxis() {
    var spans = [];
    shown.forEach(function (ri) {
      var run = DATA.runs[ri], p = prepare(run);
      run.apps.forEach(function (a) {
        if (a.start !== null) spans.push([a.start, a.end !== null ? a.end : p.tmax]);
      });
    });
    if (!spans.length) return null;
    spans.sort(function (a, b) { return a[0] - b[0]; });
    var raw = [];
    spans.forEach(function (sp) {
      var last = raw[raw.length - 1];
      if (last && sp[0] <= last[1]) last[1] = Math.max(last[1], sp[1]);
      else raw.push([sp[0], sp[1]]);
    });
    var busy = raw.reduce(function (s, q) { return s + (q[1] - q[0]); }, 0) || 1;
    var periods = [raw[0].slice()];
    for (var i = 1; i < raw.length; i++) { // short gaps stay in real time
      var last = periods[periods.length - 1];
      if (raw[i][0] - last[1] <= GAP_MIN * busy) last[1] = raw[i][1];
      else periods.push(raw[i].slice());
    }
    if (periods.length < 2) return null;
    var len = periods.map(function (q) { return q[1] - q[0]; }), tot = len.reduce(function (s, v) { return s + v; }, 0);
    var w = len.map(function (v) { return Math.max(tot > 0 ? v / tot : 1, periods.length <= 25 ? MIN_SHARE : 0); });
    var wsum = w.reduce(function (s, v) { return s + v; }, 0), gaps = periods.length - 1;
    var scale = (1 - GAP_SHARE * gaps) / wsum;
    if (scale <= 0) { // thousands of periods: gaps share half the axis
      scale = 0.5 / wsum;
    }
    var gw = (1 - scale * wsum) / gaps, x0 = [], x = 0;
    periods.forEach(function (q, k) {
      x0.push(x);
      x += w[k] * scale + (k < gaps ? gw : 0);
    });
    function toX(t) {
      var k = upperBound(periods.map(function (q) { return q[0]; }), t) - 1;
      if (k < 0) return 0;
      var q = periods[k], pw = w[k] * scale;
      if (t <= q[1]) return x0[k] + (q[1] > q[0] ? pw * (t - q[0]) / (q[1] - q[0]) : 0);
      if (k === gaps) return x0[k] + pw;
      return x0[k] + pw + gw * (t - q[1]) / (periods[k + 1][0] - q[1]);
    }
    var every = Math.ceil(periods.length / MAX_TICKS), tickvals = [], ticktext = [];
    periods.forEach(function (q, k) {
      if (k % every) return;
      tickvals.push(x0[k]);
      ticktext.push(fmtTime(q[0]));
    });
    var gapMarks = [], bands = [];
    for (i = 0; i < gaps; i++) gapMarks.push({ x: x0[i] + w[i] * scale + gw / 2, len: periods[i + 1][0] - periods[i][1] });
    periods.forEach(function (q, k) { bands.push({ x0: x0[k], x1: x0[k] + w[k] * scale, len: q[1] - q[0] }); });
    return { periods: periods, toX: toX, tickvals: tickvals, ticktext: ticktext, gaps: gapMarks, bands: bands };
  }
  function fmtTime(t) { // a date on the overview's axis: seconds, or days beyond two
    return Math.abs(t) < 172800 ? fmt(t, 4) + " s" : fmt(t / 86400, 4) + " d";
  }

  /* The overview: one bar per job and run from its start to its end on one time axis (idle gaps cut for a stream),
   * coloured on the fixed I/O-stretch scale. With several runs, a job's runs are on adjacent rows and the jobs are
   * sorted by how much their I/O time changed between the first run and the others (the largest change first). */
  function overview() {
    var box = document.getElementById("overview");
    if (!box) return;
    box.innerHTML = "";
    if (!shown.length || DATA.campaign) return;
    var ax = busyAxis(), toX = ax ? ax.toX : function (t) { return t; };
    var jobs = {}, order = [];
    shown.forEach(function (ri, k) {
      DATA.runs[ri].apps.forEach(function (a, j) {
        if (a.start === null) return;
        if (!(a.name in jobs)) {
          jobs[a.name] = [];
          order.push(a.name);
        }
        jobs[a.name].push([ri, j, k]);
      });
    });
    var multi = shown.length > 1, first = shown[0];
    function change(name) { // the largest |change| of the job's I/O time against the first run, in s
      var ref = null, c = 0;
      jobs[name].forEach(function (q) { if (q[0] === first) ref = DATA.runs[q[0]].apps[q[1]].ioTime; });
      jobs[name].forEach(function (q) {
        var t = DATA.runs[q[0]].apps[q[1]].ioTime;
        if (ref !== null && t !== null && t !== undefined) c = Math.max(c, Math.abs(t - ref));
      });
      return jobs[name].length < shown.length ? Infinity : c; // a job missing from a run: first
    }
    if (multi) {
      var rank = {};
      order.forEach(function (n, k) { rank[n] = k; });
      var ch = {};
      order.forEach(function (n) { ch[n] = change(n); });
      order.sort(function (a, b) { return ch[b] - ch[a] || rank[a] - rank[b]; });
    }
    var rows = [], base = [], width = [], z = [], text = [], ids = [], grey = [], nostretch = 0;
    order.forEach(function (name) {
      jobs[name].forEach(function (q) {
        var ri = q[0], j = q[1], run = DATA.runs[ri], p = prepare(run), a = run.apps[j];
        var end = a.end !== null ? a.end : p.tmax, x0 = toX(a.start), x1 = toX(end);
        var st = a.stretch !== null && a.stretch !== undefined ? a.stretch : a.slowdown;
        rows.push(multi ? name + " · " + run.label : name);
        base.push(x0);
        width.push(Math.max(x1 - x0, ax ? 0.002 : (p.tmax - p.tmin) * 0.002));
        grey.push(st === null || st === undefined);
        if (st === null || st === undefined) nostretch++;
        z.push(st === null || st === undefined ? 0 : stretchZ(st));
        text.push(esc(a.name) + (multi ? " (" + esc(run.label) + ")" : "") + "<br>" + fmt(a.start, 6) + " – " +
          fmt(end, 6) + " s (" + fmtTime(end - a.start) + " long)<br>I/O time " + fmt(a.ioTime, 4) +
          " s, I/O stretch " + fmt(a.stretch, 4) + ", slowdown " + fmt(a.slowdown, 4) + "<br>click: its rates below");
        ids.push([ri, j]);
      });
    });
    var many = rows.length > 60, rowPx = many ? 13 : 22;
    box.appendChild(el("h2", {}, "Overview: each job from its start to its end, coloured by its I/O stretch"));
    box.appendChild(el("p", { "class": "note" }, (ax ? "Idle gaps (no job of any run shown running) are cut: each " +
      "is a narrow dotted band, marked with its length where there is room; the grey bands are the busy periods, " +
      "each labelled with its length, so that a short period drawn wide is not read as a long one. " : "") +
      (multi ? "A job's runs are on adjacent rows; the jobs whose I/O time changed most between the runs come " +
      "first. " : "") + "I/O stretch = the job's I/O time over the time its bytes take alone at its reference " +
      "bandwidth (1 = as fast as alone; apps.csv io_stretch); the colour scale is the same on every page" +
      (nostretch ? " (grey: no stretch in the run's records)" : "") + ". Click a bar to zoom the panels below onto " +
      "that job." + (Object.keys(colourOf).length > PALETTE.length ? " More than " + PALETTE.length +
      " applications: the colours after the ninth are generated hues (hover names each)." : "")));
    var d = el("div", { "class": "fig", id: "overview-fig" });
    box.appendChild(d);
    var idx = rows.map(function (r, k) { return k; });
    function pick(arr, want) { return idx.filter(function (k) { return grey[k] === want; }).map(function (k) { return arr[k]; }); }
    var traces = [{ type: "bar", orientation: "h", y: pick(rows, false), x: pick(width, false), base: pick(base, false),
      customdata: pick(idx, false), text: pick(text, false), hovertemplate: "%{text}<extra></extra>",
      textposition: "none",
      marker: { color: pick(z, false), cmin: 0, cmax: stretchZ(STRETCH_MAX), colorscale: "YlOrRd", reversescale: true,
        showscale: nostretch < rows.length, line: { width: 0.5, color: "#555" },
        colorbar: { title: { text: "I/O stretch", side: "right" }, thickness: 12, len: Math.min(1, 300 / (rowPx * rows.length + 90)),
          y: 1, yanchor: "top", tickvals: STRETCH_TICKS.map(stretchZ),
          ticktext: STRETCH_TICKS.map(function (v, k) { return k === 0 ? "1 (alone)" : k === STRETCH_TICKS.length - 1 ? "≥ " + v : String(v); }) } } }];
    if (nostretch) traces.push({ type: "bar", orientation: "h", y: pick(rows, true), x: pick(width, true),
      base: pick(base, true), customdata: pick(idx, true), text: pick(text, true),
      hovertemplate: "%{text}<extra></extra>", textposition: "none",
      marker: { color: "#BBBBBB", line: { width: 0.5, color: "#555" } } });
    var lay = { height: Math.max(180, 90 + rowPx * rows.length), margin: { l: 10, r: 10, t: 10, b: 50 },
      hovermode: "closest", showlegend: false, bargap: many ? 0.15 : 0.25, barmode: "overlay",
      yaxis: { type: "category", autorange: "reversed", automargin: true, fixedrange: true,
        categoryorder: "array", categoryarray: rows, tickfont: { size: many ? 9 : 12 } },
      xaxis: ax ? { tickvals: ax.tickvals, ticktext: ax.ticktext, range: [0, 1], showgrid: false, zeroline: false,
        fixedrange: true, title: { text: "time (s or days since the first release; idle gaps cut)", standoff: 4 } }
        : { title: { text: "time (s)", standoff: 4 }, zeroline: false, automargin: true },
      shapes: [], annotations: [] };
    if (ax) {
      var plotW = Math.max(300, (box.clientWidth || 1200) - 160); // labels that find no room are left out
      ax.bands.forEach(function (b) {
        lay.shapes.push({ type: "rect", xref: "x", yref: "paper", x0: b.x0, x1: b.x1, y0: 0, y1: 1, layer: "below",
          fillcolor: "#F2F2F2", line: { width: 0 } });
      });
      ax.gaps.forEach(function (g) {
        lay.shapes.push({ type: "line", xref: "x", yref: "paper", x0: g.x, x1: g.x, y0: 0, y1: 1,
          line: { color: "#999", width: 6, dash: "dot" }, opacity: 0.35 });
      });
      // labels above the plot: each busy period's length, then the gaps' where room is left; never two overlapping
      var labels = ax.bands.map(function (b) { return { x: (b.x0 + b.x1) / 2, text: fmtTime(b.len), colour: "#333" }; })
        .concat(ax.gaps.map(function (g) { return { x: g.x, text: "gap " + fmtTime(g.len), colour: "#888" }; }));
      var rowsOfLabels = [[], []];
      labels.forEach(function (lb) {
        var half = (lb.text.length * 5.5 / 2 + 3) / plotW;
        for (var r = 0; r < rowsOfLabels.length; r++) {
          var free = rowsOfLabels[r].every(function (o) { return Math.abs(o.x - lb.x) > o.half + half; });
          if (free) {
            rowsOfLabels[r].push({ x: lb.x, half: half });
            lay.annotations.push({ x: lb.x, y: 1, xref: "x", yref: "paper", yanchor: "bottom", yshift: 2 + 13 * r,
              showarrow: false, text: lb.text.replace(/ /g, "\u00a0"), font: { size: 9, color: lb.colour } });
            return;
          }
        }
      });
      lay.margin.t = 36;
    }
    Plotly.newPlot(d, traces, lay, { displaylogo: false, responsive: true, displayModeBar: false });
    d.on("plotly_click", function (ev) {
      if (!ev.points.length) return;
      var q = ids[ev.points[0].customdata];
      zoomToJob(q[0], q[1]);
    });
  }

  /* The panels zoomed onto job j of run ri (its start to its end, 3 % margins), the cursor at its start. */
  function zoomToJob(ri, j) {
    var run = DATA.runs[ri], a = run.apps[j], p = prepare(run);
    var t0 = a.start, t1 = a.end !== null ? a.end : p.tmax, pad = Math.max((t1 - t0) * 0.03, 1e-6);
    range = [t0 - pad, t1 + pad];
    redrawAll();
    setCursor(t0);
    var e = document.getElementById("run-" + ri);
    if (e && e.scrollIntoView) e.scrollIntoView();
  }

  /* The panels' first range: the whole runs, or for a stream (idle gaps cut in the overview) the job with the
   * longest I/O time, so that its rates are drawn exactly rather than as bins of a years-long axis. */
  function firstRange() {
    var ax = busyAxis();
    if (!ax) return null;
    var best = null;
    shown.forEach(function (ri) {
      DATA.runs[ri].apps.forEach(function (a, j) {
        if (a.start !== null && (best === null || (a.ioTime || 0) > best[2])) best = [ri, j, a.ioTime || 0];
      });
    });
    if (best === null) return null;
    var a = DATA.runs[best[0]].apps[best[1]], t1 = a.end !== null ? a.end : prepare(DATA.runs[best[0]]).tmax;
    var pad = Math.max((t1 - a.start) * 0.03, 1e-6);
    return [a.start - pad, t1 + pad];
  }

  /* Where the cursor starts: at the start of the first job that starts in the panels' range (never before it). */
  function firstCursor() {
    var r = curRange(), t = Infinity;
    shown.forEach(function (ri) {
      DATA.runs[ri].apps.forEach(function (a) {
        if (a.start !== null && a.start >= r[0] && a.start < t) t = a.start;
      });
    });
    return isFinite(t) && t <= r[1] ? t : r[0];
  }

  // ------------------------------------------------------------------------------------------------ runs
  function runTitle(run) {
    var p = run.policies;
    return esc(run.label) + " — sharing " + esc(p.sharing || "?") + ", allocation " + esc(p.allocation || "?") +
      ", placement " + esc(p.placement || "?");
  }

  /* The bandwidth the platform delivered to the run: the bytes its transfers moved over the time some transfer was
   * moving (the union of the segments' intervals), in bytes/s. */
  function delivered(ri) {
    var p = prepare(DATA.runs[ri]), seg = p.seg, iv = [], bytes = 0;
    for (var i = 0; i < seg.n; i++) {
      if (seg.t1[i] > seg.t0[i]) iv.push([seg.t0[i], seg.t1[i]]);
      if (isFinite(seg.bytes[i])) bytes += seg.bytes[i];
    }
    iv.sort(function (a, b) { return a[0] - b[0]; });
    var busy = 0, a = -Infinity, b = -Infinity;
    iv.forEach(function (q) {
      if (q[0] > b) {
        if (b > a) busy += b - a;
        a = q[0];
        b = q[1];
      } else if (q[1] > b) b = q[1];
    });
    if (b > a) busy += b - a;
    return busy > 0 ? bytes / busy : null;
  }

  /* A metric's cell; IPDPS'21 Eq. 2's aggregate bandwidth with the command line's caveat when it is above what the
   * platform can deliver (each job's mean rate over its own I/O time, summed, is then no delivered bandwidth). */
  function metricValue(ri, m) {
    var run = DATA.runs[ri], v = run.metrics[m];
    if (m === "aggregate_bandwidth_Bps" && v !== null && v !== undefined && run.capacity &&
        v > run.capacity * (1 + 1e-9))
      return "n/a <small class=caveat>(IPDPS'21 Eq. 2, each job's mean rate over its own I/O time summed, " +
        fmt(v / GB, 6) + " GB/s, is above the platform's " + fmt(run.capacity / GB, 6) +
        " GB/s: no bandwidth the platform delivered; docs/outputs.md)</small>";
    return metricCell(m, v);
  }

  function metricsTable() {
    var box = document.getElementById("metrics");
    if (!shown.length) {
      box.innerHTML = "";
      return;
    }
    var names = [];
    shown.forEach(function (ri) {
      Object.keys(DATA.runs[ri].metrics).forEach(function (m) { if (names.indexOf(m) < 0) names.push(m); });
    });
    var h = "<table class=metrics><tr><th>metric (results.json)</th>" + shown.map(function (ri) {
      var run = DATA.runs[ri];
      return "<th>" + esc(run.label) + "<br><small>" + esc(run.policies.sharing || "") + "</small></th>";
    }).join("") + "</tr>";
    names.forEach(function (m) {
      h += "<tr><td>" + esc(m) + "</td>" + shown.map(function (ri) {
        return "<td>" + metricValue(ri, m) + "</td>";
      }).join("") + "</tr>";
      if (m === "aggregate_bandwidth_Bps")
        h += "<tr><td>delivered bandwidth <small>(this page: bytes moved / time with a transfer moving)</small></td>" +
          shown.map(function (ri) { var v = delivered(ri); return "<td>" + (v === null ? "–" : fmt(v / GB, 6) + " GB/s") + "</td>"; }).join("") + "</tr>";
    });
    box.innerHTML = h + "</table>";
  }

  function renderRuns() {
    figs = figs.filter(function (d) { return d.iosim && d.iosim.kind === "campaign"; });
    var box = document.getElementById("runs");
    box.innerHTML = "";
    box.style.gridTemplateColumns = "repeat(" + Math.max(1, shown.length) + ", minmax(0, 1fr))";
    overview();
    shown.forEach(function (ri) {
      var run = DATA.runs[ri], col = el("div", { "class": "run", id: "run-" + ri });
      col.appendChild(el("h2", {}, runTitle(run)));
      col.appendChild(el("p", { "class": "note" }, "Records: " + esc(run.dir) + "/" + esc(run.source) +
        "; window [" + fmt(run.window.begin) + ", " + fmt(run.window.end) + "] s (dashed lines, " +
        esc(run.window.kind || "") + "); status " + esc(run.status || "")));
      col.appendChild(el("div", { "class": "statebox", id: "state-" + ri }));
      box.appendChild(col);
      run.resources.forEach(function (res) {
        var d = el("div", { "class": "fig", id: "res-" + ri + "-" + res.index });
        col.appendChild(d);
        draw(d, function (div) { return resourcePanel(div, ri, res); });
      });
      if (run.hiddenResources) col.appendChild(el("p", { "class": "note" }, esc(run.hiddenResources)));
      var a = el("div", { "class": "fig", id: "apps-" + ri });
      col.appendChild(a);
      draw(a, function (div) { return appsPanel(div, ri); });
      var al = el("div", { "class": "fig", id: "alloc-" + ri });
      col.appendChild(al);
      draw(al, function (div) { return allocPanel(div, ri); });
    });
    metricsTable();
    updateSlider();
    setCursor(cursor);
  }

  function showRun(ri, add) {
    if (add) {
      if (shown.indexOf(ri) < 0) shown.push(ri);
    } else shown = [ri];
    range = firstRange();
    renderRuns();
    var e = document.getElementById("run-" + ri);
    if (e && e.scrollIntoView) e.scrollIntoView();
  }

  // ------------------------------------------------------------------------------------------------ campaign
  function campaignSection() {
    var c = DATA.campaign, box = document.getElementById("campaign");
    if (!c) return;
    box.appendChild(el("h2", {}, "Campaign " + esc(c.title) + ": " + c.rows.length + " runs"));
    box.appendChild(el("p", { "class": "note" }, "Each point is a run: hover gives its id, parameters and value; " +
      "click shows its view below (shift-click adds it beside the others). Lines: the mean per " +
      esc(c.policy || "campaign") + ". " + esc(c.note || "")));
    var groups = {};
    c.rows.forEach(function (row, k) {
      var g = c.policy ? String(row.params[c.policy]) : "all runs";
      (groups[g] = groups[g] || []).push(k);
    });
    var gnames = Object.keys(groups).sort();
    // the policies' points side by side at each x (a small shift, a fraction of the smallest step between x values),
    // so that two policies with equal values stay two series
    var xvals = [];
    if (c.x) c.rows.forEach(function (row) { var x = row.params[c.x]; if (typeof x === "number" && xvals.indexOf(x) < 0) xvals.push(x); });
    xvals.sort(function (a, b) { return a - b; });
    var step = Infinity;
    for (var xi = 1; xi < xvals.length; xi++) step = Math.min(step, xvals[xi] - xvals[xi - 1]);
    if (!isFinite(step)) step = Math.abs(xvals[0] || 1);
    function dodge(gi) { return step * 0.12 * (gi - (gnames.length - 1) / 2) / Math.max(1, gnames.length / 2); }
    c.metrics.forEach(function (m) {
      var traces = [];
      gnames.forEach(function (g, gi) {
        var rows = groups[g].filter(function (k) { return c.rows[k].metrics[m] !== null; });
        var colour = POLICY_PALETTE[gi % POLICY_PALETTE.length];
        var symbol = POLICY_SYMBOLS[gi % POLICY_SYMBOLS.length] + (gi >= POLICY_PALETTE.length ? "-open" : "");
        var xs = rows.map(function (k) { return c.x ? c.rows[k].params[c.x] : g; });
        if (c.x && gnames.length > 1) xs = xs.map(function (x) { return typeof x === "number" ? x + dodge(gi) : x; });
        traces.push({ type: "scatter", mode: "markers", name: g, legendgroup: g, x: xs,
          y: rows.map(function (k) { return c.rows[k].metrics[m]; }),
          marker: { color: colour, symbol: symbol, size: 8, opacity: 0.75, line: { width: 1, color: colour } },
          customdata: rows, text: rows.map(function (k) { return hoverText(c, c.rows[k], m); }),
          hovertemplate: "%{text}<extra></extra>" });
        if (c.x) { // mean per x value
          var by = {};
          rows.forEach(function (k) {
            var xv = c.rows[k].params[c.x];
            (by[xv] = by[xv] || []).push(c.rows[k].metrics[m]);
          });
          var xk = Object.keys(by).map(Number).sort(function (a, b) { return a - b; });
          traces.push({ type: "scatter", mode: "lines", name: g + " mean", legendgroup: g, showlegend: false,
            x: xk, y: xk.map(function (v) { var a = by[v]; return a.reduce(function (s, q) { return s + q; }, 0) / a.length; }),
            line: { color: colour }, hoverinfo: "skip" });
        }
      });
      var d = el("div", { "class": "fig campaign-fig", id: "campaign-" + m });
      box.appendChild(d);
      var lay = { title: { text: m + (c.units[m] ? " (" + c.units[m] + ")" : ""), font: { size: 13 }, x: 0 },
        height: 320, margin: { l: 70, r: 10, t: 30, b: 50 }, hovermode: "closest",
        xaxis: { title: { text: c.x ? c.x + (c.units[c.x] ? " (" + c.units[c.x] + ")" : "") : (c.policy || "") },
          type: c.x ? (c.xlog ? "log" : "linear") : "category" },
        yaxis: { title: { text: m + (c.units[m] ? " (" + c.units[m] + ")" : "") } } };
      Plotly.newPlot(d, traces, lay, CONFIG);
      d.iosim = { kind: "campaign" };
      d.on("plotly_click", function (ev) {
        if (!ev.points.length || ev.points[0].customdata === undefined) return;
        var row = c.rows[ev.points[0].customdata];
        openRow(row, ev.event && ev.event.shiftKey);
      });
    });
    box.appendChild(el("div", { id: "campaign-msg", "class": "note" }));
  }

  function hoverText(c, row, m) {
    var s = "run " + row.run_id + "<br>" + Object.keys(row.params).map(function (k) {
      return esc(k) + " = " + esc(fmt(row.params[k]));
    }).join("<br>");
    return s + "<br><b>" + esc(m) + " = " + fmt(row.metrics[m]) + "</b>";
  }

  function openRow(row, add) {
    var msg = document.getElementById("campaign-msg");
    if (row.run === null || row.run === undefined) {
      msg.textContent = "Run " + row.run_id + ": its records are not in this page (" + row.why + "); open it " +
        "with: iosim view " + row.dir + " -o view.html";
      return;
    }
    msg.textContent = "";
    showRun(row.run, add);
  }

  // ------------------------------------------------------------------------------------------------ start
  function start() {
    document.getElementById("title").textContent = DATA.title;
    var slider = document.getElementById("cursor");
    slider.addEventListener("input", function () {
      var r = curRange();
      setCursor(r[0] + (r[1] - r[0]) * slider.value / 1000);
    });
    var timer = null;
    document.getElementById("play").addEventListener("click", function () {
      if (timer) {
        clearInterval(timer);
        timer = null;
        return;
      }
      timer = setInterval(function () {
        var r = curRange(), t = cursor + (r[1] - r[0]) / 200;
        if (t > r[1]) t = r[0];
        setCursor(t);
      }, 80);
    });
    document.getElementById("reset").addEventListener("click", function () {
      range = null;
      redrawAll();
    });
    campaignSection();
    shown = DATA.campaign ? [] : DATA.runs.map(function (r, i) { return i; });
    if (DATA.campaign && DATA.runs.length) shown = [0];
    range = firstRange();
    cursor = firstCursor();
    renderRuns();
    window.iosimView.ready = true;
  }

  window.iosimView = { data: DATA, stateAt: stateAt, setCursor: setCursor, showRun: showRun, series: series,
    prepare: prepare, cursor: function () { return cursor; }, busyAxis: busyAxis, zoomToJob: zoomToJob,
    range: function () { return curRange(); }, figures: function () { return figs; },
    colourOf: colourOf, ready: false };
  start();
})();
