/* iosim lab: a module page. Builds the form from the module's fields, asks for a prediction, runs the setting (and
 * a second one side by side) through the lab's JSON API, shows the numbers and iosim view's page, and sends the
 * answers to the checker. Values on the form are in each field's unit; the server checks them again. */
(function () {
  "use strict";
  var SPEC = JSON.parse(document.getElementById("spec").textContent);
  var state = { runs: null, busy: false, predicted: false, last: null };
  window.iosimLab = state;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(v) {
    if (v === null || v === undefined) return "–";
    if (typeof v !== "number") return String(v);
    if (v !== 0 && (Math.abs(v) >= 1e7 || Math.abs(v) < 1e-4)) return v.toExponential(4);
    return String(Number(v.toPrecision(6)));
  }
  function api(method, url, body) {
    var opts = { method: method, headers: { "Content-Type": "application/json" } };
    if (body !== undefined) opts.body = JSON.stringify(body);
    return fetch(url, opts).then(function (r) {
      return r.json().catch(function () { return { error: "the lab answered " + r.status }; }).then(function (d) {
        if (!r.ok) throw new Error(d.error || ("the lab answered " + r.status));
        return d;
      });
    });
  }

  // ------------------------------------------------------------------------------------------------ the form
  function buildForm(box, suffix) {
    if (!box) return;
    SPEC.fields.forEach(function (f, i) {
      var id = "f-" + suffix + "-" + i;
      var label = el("label", { "for": id }, f.label);
      var wrap = el("div", { "class": "input" });
      var input;
      if (f.choices) {
        input = el("select", { id: id, name: f.key });
        f.choices.forEach(function (c) {
          var o = el("option", { value: String(c.value) }, c.label);
          if (String(c.value) === String(f["default"])) o.selected = true;
          input.appendChild(o);
        });
      } else {
        input = el("input", { id: id, name: f.key, type: "number", min: f.min, max: f.max, step: f.step,
          value: f["default"] });
      }
      input.dataset.key = f.key;
      wrap.appendChild(input);
      if (f.unit) wrap.appendChild(el("span", { "class": "unit" }, f.unit));
      box.appendChild(label);
      box.appendChild(wrap);
      if (f.help) box.appendChild(el("div", { "class": "help" }, f.help));
    });
  }
  function settingsOf(box) {
    var s = {};
    box.querySelectorAll("[data-key]").forEach(function (e) { s[e.dataset.key] = e.value; });
    return s;
  }
  function copyForm(from, to) {
    var v = settingsOf(from);
    to.querySelectorAll("[data-key]").forEach(function (e) { e.value = v[e.dataset.key]; });
  }

  // ------------------------------------------------------------------------------------------------ running
  function comparing() { var c = $("compare"); return !!(c && c.checked); }

  function predictionReady() {
    if (!SPEC.predict || state.predicted) return true;
    var ok = $("predict-a").value.trim() !== "";
    if (comparing()) ok = ok && $("predict-b").value.trim() !== "";
    return ok;
  }
  function updateRunButton() {
    var b = $("run");
    if (!b) return;
    b.disabled = state.busy || !predictionReady();
    b.title = b.disabled && !state.busy ? "type your prediction first (or run without predicting)" : "";
  }

  function setStatus(t) { $("status").textContent = t; }
  function showError(msg) {
    var e = $("error");
    e.textContent = msg;
    e.hidden = !msg;
  }

  function waitFor(id) {
    return api("GET", "/api/run/" + id + "?wait=10").then(function (d) {
      if (d.state === "running") return waitFor(id);
      return d;
    });
  }

  function run() {
    if (state.busy) return;
    showError("");
    var a = settingsOf($("form-a")), settings = [a];
    if (comparing()) settings.push(settingsOf($("form-b")));
    state.busy = true;
    updateRunButton();
    setStatus("simulating…");
    var t0 = Date.now();
    Promise.all(settings.map(function (s) { return api("POST", "/api/run", { module: SPEC.id, settings: s }); }))
      .then(function (started) { return Promise.all(started.map(function (d) { return waitFor(d.id); })); })
      .then(function (done) {
        var failed = done.filter(function (d) { return d.state === "failed"; });
        if (failed.length) {
          throw new Error((done.length > 1 ? "Setting " + (done[0].state === "failed" ? "A" : "B") + ": " : "") +
            (failed[0].bad_input ? "iosim refused this setting: " : "the simulation failed: ") + failed[0].error);
        }
        state.runs = done;
        state.last = { settings: settings, at: Date.now() };
        setStatus("done in " + ((Date.now() - t0) / 1000).toFixed(1) + " s");
        showResults(done);
        showView(done);
      })
      .catch(function (e) {
        setStatus("");
        showError(e.message);
      })
      .then(function () {
        state.busy = false;
        updateRunButton();
      });
  }

  function showResults(done) {
    var t = $("results"), two = done.length > 1, h = "<tr><th>metric</th>";
    var preds = [];
    if (SPEC.predict && !state.predicted) {
      preds.push(parseNumber($("predict-a").value));
      if (two) preds.push(parseNumber($("predict-b").value));
    }
    ["A", "B"].slice(0, done.length).forEach(function (k, i) {
      if (SPEC.predict) h += "<th>your prediction" + (two ? " (" + k + ")" : "") + "</th>";
      h += "<th>simulated" + (two ? " (" + k + ")" : "") + "</th>";
    });
    h += "</tr>";
    done[0].shown.forEach(function (row, r) {
      h += "<tr><td>" + escapeHtml(row.metric) + (row.unit ? " <span class=unit>(" + escapeHtml(row.unit) + ")</span>" : "") + "</td>";
      done.forEach(function (d, i) {
        var v = d.shown[r] ? d.shown[r].value : null;
        if (SPEC.predict) {
          var p = r === 0 && preds.length ? preds[i] : null, cls = "";
          if (p !== null && p !== undefined && v !== null) cls = Math.abs(p - v) <= 0.05 * Math.abs(v) ? "near" : "off";
          h += "<td class='" + cls + "'>" + (r === 0 ? (p === null || p === undefined ? "–" : fmt(p)) : "") + "</td>";
        }
        h += "<td class='sim'>" + fmt(v) + "</td>";
      });
      h += "</tr>";
    });
    t.innerHTML = h;
    t.hidden = false;
  }

  function showView(done) {
    var box = $("view-box"), f = $("view");
    var ids = done.map(function (d) { return d.id; }).join(",");
    box.hidden = false;
    f.onload = fitView;
    f.src = "/view?runs=" + ids + (done.length > 1 ? "&labels=" + encodeURIComponent("A|B") : "");
  }
  function fitView() { // the frame as tall as its page, so that the lab page scrolls, not the frame
    var f = $("view");
    try {
      var d = f.contentDocument;
      if (!d || !d.documentElement) return;
      var h = Math.max(400, d.documentElement.scrollHeight);
      if (Math.abs(f.clientHeight - h) > 4) f.style.height = h + "px";
      state.viewReady = !!(f.contentWindow.iosimView && f.contentWindow.iosimView.ready);
    } catch (e) { /* another origin: keep the fixed height */ }
  }
  setInterval(function () { if (!$("view-box") || $("view-box").hidden) return; fitView(); }, 700);

  // ------------------------------------------------------------------------------------------------ questions
  function parseNumber(t) {
    var s = String(t || "").trim().replace(",", "."), pct = /%$/.test(s);
    if (pct) s = s.slice(0, -1).trim();
    var m = /^([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*\/\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)$/.exec(s);
    var x = m ? parseFloat(m[1]) / parseFloat(m[2]) : (s === "" ? NaN : Number(s));
    if (!isFinite(x)) return null;
    return pct ? x / 100 : x;
  }
  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function answerOf(q) {
    if (q.dataset.kind === "number") return q.querySelector(".answer").value;
    var c = q.querySelector("input[type=radio]:checked");
    return c ? c.value : null;
  }

  function ask(q, reveal) {
    var fb = q.querySelector(".feedback"), answer = answerOf(q);
    if (!reveal && (answer === null || String(answer).trim() === "")) {
      fb.className = "feedback wrong";
      fb.textContent = q.dataset.kind === "number" ? "Type a number first." : "Choose one first.";
      fb.hidden = false;
      return;
    }
    fb.className = "feedback";
    fb.textContent = "checking against the simulation…";
    fb.hidden = false;
    var body = { module: SPEC.id, question: q.dataset.id, answer: answer };
    if (reveal) body.reveal = true;
    api("POST", "/api/answer", body).then(function (d) {
      fb.className = "feedback " + (d.correct === null || d.correct === undefined ? "shown" : d.correct ? "right" : "wrong");
      fb.innerHTML = "";
      fb.appendChild(el("p", { "class": "verdict" }, d.message));
      if (d.hint) { var hp = el("p", { "class": "hint" }); hp.innerHTML = "<b>Hint:</b> " + d.hint; fb.appendChild(hp); }
      if (d.explain) { var ex = el("div", { "class": "explain" }); ex.innerHTML = d.explain; fb.appendChild(ex); }
      q.dataset.result = d.correct === true ? "right" : d.correct === false ? "wrong" : "shown";
    }).catch(function (e) {
      fb.className = "feedback fault";
      fb.textContent = e.message;
      q.dataset.result = "fault";
    });
  }

  // ------------------------------------------------------------------------------------------------ start
  buildForm($("form-a"), "a");
  buildForm($("form-b"), "b");
  if ($("compare")) {
    $("compare").addEventListener("change", function () {
      var on = comparing();
      if (on && !$("setting-b").dataset.filled) {
        copyForm($("form-a"), $("form-b"));
        $("setting-b").dataset.filled = "1";
      }
      $("setting-b").hidden = !on;
      document.querySelectorAll(".for-b").forEach(function (e) { e.hidden = !on; });
      updateRunButton();
    });
  }
  ["predict-a", "predict-b"].forEach(function (id) {
    if ($(id)) $(id).addEventListener("input", updateRunButton);
  });
  if ($("no-predict")) {
    $("no-predict").addEventListener("click", function () {
      state.predicted = true;
      $("predict").classList.add("skipped");
      updateRunButton();
      run();
    });
  }
  if ($("run")) $("run").addEventListener("click", run);
  document.querySelectorAll(".q").forEach(function (q) {
    q.querySelector(".check").addEventListener("click", function () { ask(q, false); });
    q.querySelector(".reveal").addEventListener("click", function () { ask(q, true); });
    var inp = q.querySelector(".answer");
    if (inp) inp.addEventListener("keydown", function (e) { if (e.key === "Enter") ask(q, false); });
  });
  updateRunButton();
  state.ready = true;
})();
