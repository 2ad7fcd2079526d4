"""The lab's web application (Flask, served by waitress: Debian's python3-flask and python3-waitress).

Pages: / (the modules), /m/ID (a module: objectives, explanation, form, prediction, run, the view, questions),
/view?runs=ID[,ID] (iosim view of one run, or two side by side on one time axis). JSON: POST /api/run {module,
settings} -> {id, state}; GET /api/run/ID?wait=S -> {state, result | error}; POST /api/answer {module, question,
answer | reveal} -> {correct, message, explain}. Every bad request gets a 4xx with a message the page shows; no
traceback ever reaches a page (docs/lab.md).
"""

import json
import os
import re

import flask
import markdown
from markupsafe import Markup

from . import checker
from .runner import Busy, RunError
from . import viewpage

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTLY_JS = "/usr/share/python3-plotly/plotly.js"  # Debian python3-plotly (as iosim view)


def md(text, inline=False):
    """Markdown (a teacher's text) to HTML."""
    html = markdown.markdown(text or "", extensions=["tables", "fenced_code", "sane_lists"])
    if inline and html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return Markup(html)


def create_app(modules, runner, data_dir=None, missing=None):
    """The Flask application over `modules` (modules.Module, in order) and `runner` (runner.Runner). `missing`:
    {module id: message} for the modules whose datasets are not found (shown, not runnable)."""
    app = flask.Flask("iosim.lab", template_folder=os.path.join(HERE, "templates"),
                      static_folder=os.path.join(HERE, "static"), static_url_path="/static")
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=64 * 1024, TEMPLATES_AUTO_RELOAD=False)
    by_id = {m.id: m for m in modules}
    missing = missing or {}

    def module_of(mid):
        m = by_id.get(mid) if isinstance(mid, str) else None
        if m is None:
            flask.abort(flask.make_response(flask.jsonify(error=f"no module '{str(mid)[:40]}'"), 404))
        return m

    def bad(msg, code=400):
        return flask.make_response(flask.jsonify(error=msg), code)

    def view_error(msg, code):
        return flask.render_template("view_error.html", message=msg), code

    def body():
        if (flask.request.content_length or 0) > app.config["MAX_CONTENT_LENGTH"]:
            flask.abort(bad("the request is too large", 413))
        d = flask.request.get_json(silent=True)
        if not isinstance(d, dict):
            flask.abort(bad("the request is not a JSON object"))
        return d

    @app.get("/")
    def index():
        return flask.render_template("index.html", modules=modules, missing=missing, md=md)

    @app.get("/m/<mid>")
    def module_page(mid):
        m = by_id.get(mid)
        if m is None:
            return flask.render_template("error.html", message=f"No module '{mid[:40]}' in this lab.",
                                         modules=modules), 404
        return flask.render_template("module.html", m=m, md=md, missing=missing.get(m.id),
                                     spec=json.dumps(m.describe()).replace("</", "<\\/"), data_dir=data_dir)

    @app.post("/api/run")
    def api_run():
        d = body()
        m = module_of(d.get("module"))
        if m.id in missing:
            return bad(missing[m.id], 409)
        try:
            settings = m.form_settings(d.get("settings"))
        except ValueError as e:
            return bad(str(e))
        try:
            rid = runner.submit(m, settings)
        except Busy as e:
            return bad(str(e), 503)
        return flask.jsonify(id=rid, state=runner.state(rid))

    @app.get("/api/run/<rid>")
    def api_run_state(rid):
        try:
            wait = min(20.0, max(0.0, float(flask.request.args.get("wait", "0"))))
        except ValueError:
            wait = 0.0
        try:
            r = runner.result(rid, wait=wait)
        except KeyError:
            return bad(f"no run '{rid[:40]}'", 404)
        except RunError as e:
            return flask.jsonify(id=rid, state="failed", error=str(e), bad_input=e.bad_input)
        if r is None:
            return flask.jsonify(id=rid, state="running")
        mid = runner.meta.get(rid, (None, None))[0]
        m = by_id.get(mid)
        shown = []
        if m is not None:
            metrics = list(m.show)
            if m.predict is not None:
                metrics = [m.predict] + [x for x in metrics if x.label() != m.predict.label()]
            for x in metrics:
                unit, factor = x.unit()
                try:
                    v = x.value(r)
                    shown.append({"metric": x.label(), "unit": unit,
                                  "value": v * factor if isinstance(v, (int, float)) else v})
                except KeyError as e:
                    shown.append({"metric": x.label(), "unit": unit, "value": None, "why": str(e)})
        return flask.jsonify(id=rid, state="done", status=r.status, shown=shown, metrics=r.metrics,
                             apps=r.apps[:500], resources=r.resources[:500], view=flask.url_for("view", runs=rid))

    @app.get("/view")
    def view():
        ids = (flask.request.args.get("runs") or "").split(",")
        labels = (flask.request.args.get("labels") or "").split("|")
        if not 1 <= len(ids) <= 2:
            return view_error("Give one or two runs (/view?runs=ID or ?runs=ID,ID).", 400)
        dirs = []
        for rid in ids:
            d = runner.dir_of(rid)
            if d is None:
                return view_error(f"No finished run '{rid[:40]}' in this lab.", 404)
            dirs.append(d)
        if len(labels) != len(dirs) or not all(re.match(r"^[\w .,=:/+()-]{1,80}$", x) for x in labels):
            labels = ["A", "B"][:len(dirs)] if len(dirs) > 1 else ["your run"]
        try:
            html = viewpage.html(dirs, labels, plotly_url=flask.url_for("plotly"))
        except viewpage.ViewError as e:
            return view_error(f"iosim view cannot draw this run: {e}", 200)
        resp = flask.make_response(html)
        resp.headers["Content-Type"] = "text/html; charset=utf-8"
        return resp

    @app.get("/favicon.ico")
    def favicon():
        return "", 204

    @app.get("/plotly.js")
    def plotly():
        return flask.send_file(PLOTLY_JS, mimetype="application/javascript", max_age=86400)

    @app.post("/api/answer")
    def api_answer():
        d = body()
        m = module_of(d.get("module"))
        q = m.by_id.get(d.get("question")) if isinstance(d.get("question"), str) else None
        if q is None:
            return bad(f"no question '{str(d.get('question'))[:40]}' in module {m.id}", 404)
        if m.id in missing:
            return bad(missing[m.id], 409)
        try:
            values = [q.metric.value(runner.get(m, s, timeout=runner.timeout + 60)) for s in q.runs()]
        except Busy as e:
            return bad(str(e), 503)
        except (RunError, KeyError) as e:
            return bad(f"this question cannot be checked: {e}", 500)
        explain = md(q.explain) if q.explain else ""
        if d.get("reveal"):
            return flask.jsonify(correct=None, message=checker.reveal(q, values), explain=str(explain))
        try:
            if q.kind == "number":
                out = checker.check_number(q, d.get("answer"), values[0])
            else:
                out = checker.check_choice(q, d.get("answer"), values)
        except checker.AnswerError as e:
            return bad(str(e))
        out["explain"] = str(explain) if out["correct"] else ""
        out["hint"] = str(md(q.hint, inline=True)) if q.hint and not out["correct"] else ""
        return flask.jsonify(out)

    @app.errorhandler(404)
    def not_found(e):
        if flask.request.path.startswith("/api/"):
            return bad("no such address", 404)
        return flask.render_template("error.html", message="No such page in this lab.", modules=modules), 404

    @app.errorhandler(405)
    def not_allowed(e):
        return bad("method not allowed here", 405)

    @app.errorhandler(413)
    def too_large(e):
        return bad("the request is too large", 413)

    @app.errorhandler(Exception)
    def internal(e):
        if hasattr(e, "code") and hasattr(e, "get_response"):  # an HTTP error of werkzeug: as it is
            return e
        app.logger.exception("internal error")  # the trace goes to the server's log, never to the page
        return bad("internal error of the lab (its terminal says more)", 500)

    return app
