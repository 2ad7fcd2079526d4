"""The lab's modules: folders a teacher writes, read and checked here (docs/lab.md, "Writing a module").

A module is a folder holding module.json (title, paper, objectives, the form's fields, the prediction, the
questions), the Markdown its `text` names, and the iosim scenario its `scenario` names (plus any file that scenario
uses). load_modules(DIR) reads every sub-folder that holds a module.json, in the order of their `order` (then their
names), and raises ModuleError naming the file, the field, the value and the fix at the first fault, so that a
broken module stops `iosim lab` at start (exit 2) rather than in front of a class.

Units: a field's value on the form is in its `unit`; multiplied by its `scale` it is the scenario's value (e.g.
GB/s on the form, scale 1e9, bytes/s in the scenario). Tolerances are in the metric's own unit (results.json's).
"""

import json
import math
import os
import re

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
MODULE_KEYS = {"title", "order", "paper", "summary", "objectives", "text", "scenario", "fields", "predict", "show",
               "compare", "questions", "needs"}
FIELD_KEYS = {"key", "label", "help", "choices", "min", "max", "step", "integer", "unit", "scale", "default"}
QUESTION_KEYS = {"id", "kind", "text", "set", "metric", "app", "resource", "tolerance", "choices", "best", "explain",
                 "hint"}
CHOICE_KEYS = {"label", "set"}
PREDICT_KEYS = {"metric", "app", "resource", "prompt"}
AGGREGATES = {"max": max, "min": min, "mean": lambda v: sum(v) / len(v),
              "max/mean": lambda v: max(v) / (sum(v) / len(v)) if sum(v) > 0 else float("nan")}
DATASETS = {"darshan-logs", "bez-forge-evaluation", "apex-workflows", "tokio-abc", "boito-queue-generator"}


class ModuleError(Exception):
    """A fault in a module's files: the message names the file, the field, the value and the fix."""


def _fail(path, field, msg):
    raise ModuleError(f"{path}: {field}: {msg}")


class Field:
    """One input of the module's form: a scenario key and the values a student may give it."""

    def __init__(self, path, where, d):
        if not isinstance(d, dict):
            _fail(path, where, f"{json.dumps(d)} is not an object; fix: give {{\"key\": ..., \"label\": ..., "
                  "\"choices\": [...] or \"min\"/\"max\", \"default\": ...}")
        for k in d:
            if k not in FIELD_KEYS:
                _fail(path, f"{where}.{k}", f"unknown key; fix: use one of {', '.join(sorted(FIELD_KEYS))}")
        for k in ("key", "label", "default"):
            if k not in d:
                _fail(path, where, f"no '{k}'; fix: give it (docs/lab.md, \"fields\")")
        self.key = d["key"]
        if not isinstance(self.key, str) or not KEY_RE.match(self.key):
            _fail(path, f"{where}.key", f"{json.dumps(self.key)} is not a dotted scenario key; fix: e.g. "
                  "\"sharing.policy\" or \"platform.ionodes\" (iosim help scenario)")
        self.label = _text(path, f"{where}.label", d["label"])
        self.help = _text(path, f"{where}.help", d.get("help", ""), empty=True)
        self.unit = _text(path, f"{where}.unit", d.get("unit", ""), empty=True)
        self.scale = d.get("scale", 1)
        if not _number(self.scale) or self.scale <= 0:
            _fail(path, f"{where}.scale", f"{json.dumps(self.scale)}; fix: a positive number (the scenario's value "
                  "is the form's value times scale, e.g. 1e9 for GB/s on the form and bytes/s in the scenario)")
        self.choices = None
        if "choices" in d:
            if any(k in d for k in ("min", "max", "step", "integer")):
                _fail(path, where, "has both 'choices' and a range; fix: give either choices or min/max")
            ch = d["choices"]
            if not isinstance(ch, list) or not ch:
                _fail(path, f"{where}.choices", f"{json.dumps(ch)}; fix: a non-empty list of values, or of "
                      "{\"value\": ..., \"label\": ...}")
            self.choices = []
            for i, c in enumerate(ch):
                if isinstance(c, dict):
                    if set(c) - {"value", "label"} or "value" not in c:
                        _fail(path, f"{where}.choices[{i}]", f"{json.dumps(c)}; fix: {{\"value\": ..., \"label\": "
                              "...}} (label optional)")
                    value, label = c["value"], c.get("label", str(c["value"]))
                else:
                    value, label = c, str(c)
                if not (isinstance(value, str) or _number(value)):
                    _fail(path, f"{where}.choices[{i}]", f"{json.dumps(value)}; fix: a text or a number")
                if isinstance(value, str) and not re.match(r"^[A-Za-z0-9_.+:/-]{1,200}$", value):
                    _fail(path, f"{where}.choices[{i}]", f"{json.dumps(value)}: only letters, digits and _ . + : / - "
                          "are allowed in a choice's value; fix: rename it")
                self.choices.append((value, _text(path, f"{where}.choices[{i}].label", label)))
            values = [v for v, _ in self.choices]
            if len(set(map(str, values))) != len(values):
                _fail(path, f"{where}.choices", "a value repeats; fix: list each value once")
        else:
            for k in ("min", "max"):
                if k not in d or not _number(d[k]):
                    _fail(path, f"{where}.{k}", f"{json.dumps(d.get(k))}; fix: a number field needs \"min\" and "
                          "\"max\" (in the form's unit), or give \"choices\"")
            self.min, self.max = float(d["min"]), float(d["max"])
            if self.min > self.max:
                _fail(path, f"{where}.min", f"{d['min']} > max {d['max']}; fix: min <= max")
            self.step = d.get("step")
            if self.step is not None and (not _number(self.step) or self.step <= 0):
                _fail(path, f"{where}.step", f"{json.dumps(self.step)}; fix: a positive number")
            self.integer = d.get("integer", False)
            if not isinstance(self.integer, bool):
                _fail(path, f"{where}.integer", f"{json.dumps(self.integer)}; fix: true or false")
        try:
            self.default = self.parse(d["default"])
        except ValueError as e:
            _fail(path, f"{where}.default", f"{e}; fix: a default the field accepts")

    def parse(self, value):
        """The form's value (text or number) checked: a choice's value, or a number in [min, max]; else
        ValueError with a message a student can act on."""
        if self.choices is not None:
            for v, _ in self.choices:
                if str(v) == str(value):
                    return v
            raise ValueError(f"{self.label}: '{_short(value)}' is not one of the choices "
                             f"({', '.join(str(v) for v, _ in self.choices)})")
        if isinstance(value, bool):
            raise ValueError(f"{self.label}: give a number")
        try:
            x = float(value) if not isinstance(value, str) else float(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{self.label}: '{_short(value)}' is not a number; give a number from "
                             f"{_g(self.min)} to {_g(self.max)}{' ' + self.unit if self.unit else ''}") from None
        if not math.isfinite(x) or x < self.min or x > self.max:
            raise ValueError(f"{self.label}: {_short(value)} is outside {_g(self.min)} to {_g(self.max)}"
                             f"{' ' + self.unit if self.unit else ''}")
        if self.integer:
            if x != int(x):
                raise ValueError(f"{self.label}: {_short(value)} is not a whole number")
            return int(x)
        return x

    def scenario_value(self, v):
        """The value as the scenario takes it (form value times scale), as a --set text."""
        if isinstance(v, str):
            return v
        x = v * self.scale
        if isinstance(v, int) and float(self.scale).is_integer():
            return str(int(x))
        return repr(float(x))

    def describe(self):
        """The field as the page draws it (JSON)."""
        d = {"key": self.key, "label": self.label, "help": self.help, "unit": self.unit, "default": self.default}
        if self.choices is not None:
            d["choices"] = [{"value": v, "label": l} for v, l in self.choices]
        else:
            d.update({"min": self.min, "max": self.max, "step": self.step or (1 if self.integer else "any"),
                      "integer": self.integer})
        return d


class Metric:
    """A number of a run: results.json's metrics[name] (or counts[name]); with "app", apps.csv's column `name` of that
    application; with "resource", resources.csv's column `name` of that resource, or its max, min, mean or max/mean
    over every resource (max/mean of `bytes`: 1 when every resource moved as many bytes, the OST balance)."""

    def __init__(self, path, where, d):
        self.name = d.get("metric")
        if not isinstance(self.name, str) or not re.match(r"^[A-Za-z0-9_]{1,80}$", self.name):
            _fail(path, f"{where}.metric", f"{json.dumps(self.name)}; fix: a metric of results.json (e.g. "
                  "\"min_yield\") or, with \"app\", a column of apps.csv (e.g. \"io_time_s\")")
        self.app = d.get("app")
        self.resource = d.get("resource")
        if self.app is not None and (not isinstance(self.app, str) or not self.app):
            _fail(path, f"{where}.app", f"{json.dumps(self.app)}; fix: an application's name as apps.csv gives it")
        if self.resource is not None and (not isinstance(self.resource, str) or not self.resource):
            _fail(path, f"{where}.resource", f"{json.dumps(self.resource)}; fix: a resource's name as resources.csv "
                  f"gives it, or one of {', '.join(AGGREGATES)} (over every resource)")
        if self.app is not None and self.resource is not None:
            _fail(path, where, "has both \"app\" and \"resource\"; fix: keep one")
        self.where = where

    def label(self):
        if self.app:
            return f"{self.name} of {self.app}"
        if self.resource in AGGREGATES:
            return f"{self.resource} of {self.name} over the resources"
        if self.resource:
            return f"{self.name} of {self.resource}"
        return self.name

    def unit(self):
        """(unit, factor) the page shows the value in: GB/s for bytes/s, GB for bytes, s, %, or none."""
        if self.resource == "max/mean":
            return "", 1.0
        if self.name.endswith("_Bps"):
            return "GB/s", 1e-9
        if self.name.endswith("_bytes") or self.name == "bytes":
            return "GB", 1e-9
        if self.name.endswith("_s"):
            return "s", 1.0
        if self.name.endswith("_pct"):
            return "%", 1.0
        return "", 1.0

    def value(self, result):
        """Its value in a run's result (runner.Result); KeyError naming what is missing."""
        if self.app is not None:
            return _column(result.apps, "apps.csv", "application", self.app, self.name)
        if self.resource is not None:
            if self.resource in AGGREGATES:
                vals = [r.get(self.name) for r in result.resources]
                if not vals or not all(isinstance(v, float) for v in vals):
                    raise KeyError(f"'{self.name}' is not a numeric column of resources.csv")
                return AGGREGATES[self.resource](vals)
            return _column(result.resources, "resources.csv", "resource", self.resource, self.name)
        if self.name not in result.metrics:
            raise KeyError(f"'{self.name}' is not in results.json's metrics (it has "
                           f"{', '.join(sorted(result.metrics)[:30])})")
        return result.metrics[self.name]


def _column(rows, file, what, name, col):
    for row in rows:
        if row.get("name") == name:
            if col not in row:
                raise KeyError(f"'{col}' is not a column of {file} (it has {', '.join(row)})")
            return row[col]
    raise KeyError(f"no {what} '{name}' in {file} (it has {', '.join(str(r.get('name')) for r in rows[:20])})")


class Question:
    """A question checked against a simulation: `number` (the value of a metric in one setting, within a
    tolerance) or `choice` (which of several settings gives the best value of a metric)."""

    def __init__(self, module, path, where, d):
        if not isinstance(d, dict):
            _fail(path, where, "not an object; fix: {\"id\": ..., \"text\": ..., \"metric\": ..., \"tolerance\": ...}")
        for k in d:
            if k not in QUESTION_KEYS:
                _fail(path, f"{where}.{k}", f"unknown key; fix: use one of {', '.join(sorted(QUESTION_KEYS))}")
        self.id = d.get("id")
        if not isinstance(self.id, str) or not ID_RE.match(self.id):
            _fail(path, f"{where}.id", f"{json.dumps(self.id)}; fix: a short name of lower-case letters, digits and "
                  "-, unique in the module (e.g. \"q1\")")
        self.kind = d.get("kind", "number")
        if self.kind not in ("number", "choice"):
            _fail(path, f"{where}.kind", f"{json.dumps(self.kind)}; fix: \"number\" (the default) or \"choice\"")
        self.text = _text(path, f"{where}.text", d.get("text"))
        self.explain = _text(path, f"{where}.explain", d.get("explain", ""), empty=True)
        self.hint = _text(path, f"{where}.hint", d.get("hint", ""), empty=True)
        self.metric = Metric(path, where, d)
        self.tolerance = _tolerance(path, f"{where}.tolerance", d.get("tolerance"), required=self.kind == "number")
        if self.kind == "number":
            for k in ("choices", "best"):
                if k in d:
                    _fail(path, f"{where}.{k}", "only a \"choice\" question has it; fix: remove it, or give "
                          "\"kind\": \"choice\"")
            self.settings = module.settings(path, f"{where}.set", d.get("set", {}))
            self.choices = []
        else:
            if "set" in d:
                _fail(path, f"{where}.set", "a choice question gives one \"set\" per choice; fix: move it into "
                      "each of \"choices\"")
            self.best = d.get("best")
            if self.best not in ("max", "min"):
                _fail(path, f"{where}.best", f"{json.dumps(self.best)}; fix: \"max\" (the highest value is right) "
                      "or \"min\"")
            ch = d.get("choices")
            if not isinstance(ch, list) or len(ch) < 2:
                _fail(path, f"{where}.choices", "fix: a list of at least two {\"label\": ..., \"set\": {...}}")
            self.choices = []
            for i, c in enumerate(ch):
                w = f"{where}.choices[{i}]"
                if not isinstance(c, dict) or set(c) - CHOICE_KEYS or "label" not in c:
                    _fail(path, w, f"{json.dumps(c)[:120]}; fix: {{\"label\": ..., \"set\": {{key: value}}}}")
                self.choices.append((_text(path, f"{w}.label", c["label"]),
                                     module.settings(path, f"{w}.set", c.get("set", {}))))
            self.settings = None

    def runs(self):
        """The settings whose runs check it."""
        return [self.settings] if self.kind == "number" else [s for _, s in self.choices]

    def describe(self):
        d = {"id": self.id, "kind": self.kind, "text": self.text, "metric": self.metric.label()}
        if self.kind == "choice":
            d["choices"] = [label for label, _ in self.choices]
        return d


class Module:
    def __init__(self, root, folder):
        self.dir = os.path.abspath(os.path.join(root, folder))
        self.id = folder
        path = os.path.join(self.dir, "module.json")
        self.path = path
        if not ID_RE.match(folder):
            _fail(path, "(folder name)", f"'{folder}'; fix: name the folder with lower-case letters, digits and - "
                  "(it is the module's address: /m/FOLDER)")
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except json.JSONDecodeError as e:
            raise ModuleError(f"{path}: line {e.lineno}, column {e.colno}: invalid JSON ({e.msg}); fix: correct the "
                              "syntax (a missing comma or quote, a trailing comma)") from None
        except OSError as e:
            raise ModuleError(f"{path}: cannot read it ({e.strerror}); fix: make it readable") from None
        if not isinstance(d, dict):
            _fail(path, "(top level)", "not a JSON object; fix: {\"title\": ..., \"scenario\": ..., ...}")
        for k in d:
            if k not in MODULE_KEYS:
                _fail(path, k, f"unknown key; fix: use one of {', '.join(sorted(MODULE_KEYS))}")
        for k in ("title", "paper", "objectives", "text", "scenario", "fields", "questions"):
            if k not in d:
                _fail(path, k, "missing; fix: give it (docs/lab.md, \"module.json\")")
        self.title = _text(path, "title", d["title"])
        self.paper = _text(path, "paper", d["paper"])
        self.summary = _text(path, "summary", d.get("summary", ""), empty=True)
        self.order = d.get("order", 1000)
        if not _number(self.order):
            _fail(path, "order", f"{json.dumps(self.order)}; fix: a number (modules are listed by it)")
        obj = d["objectives"]
        if not isinstance(obj, list) or not obj or not all(isinstance(o, str) and o.strip() for o in obj):
            _fail(path, "objectives", "fix: a non-empty list of texts, one learning objective each")
        self.objectives = obj
        self.text_path = self._file(path, "text", d["text"])
        try:
            with open(self.text_path, encoding="utf-8") as f:
                self.text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise ModuleError(f"{path}: text: cannot read {self.text_path} ({e}); fix: a UTF-8 Markdown file") \
                from None
        self.scenario = self._file(path, "scenario", d["scenario"])
        try:
            with open(self.scenario, encoding="utf-8") as f:
                json.load(f)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ModuleError(f"{path}: scenario: {self.scenario} is not a readable JSON file ({e}); fix: give an "
                              "iosim scenario (docs/scenario.md)") from None
        needs = d.get("needs", [])
        if not isinstance(needs, list) or any(n not in DATASETS for n in needs):
            _fail(path, "needs", f"{json.dumps(needs)}; fix: a list of dataset names among "
                  f"{', '.join(sorted(DATASETS))} (traces/README.md)")
        self.needs = needs
        fields = d["fields"]
        if not isinstance(fields, list) or not fields:
            _fail(path, "fields", "fix: a non-empty list of form fields (docs/lab.md, \"fields\")")
        self.fields = [Field(path, f"fields[{i}]", f) for i, f in enumerate(fields)]
        keys = [f.key for f in self.fields]
        for k in keys:
            if keys.count(k) > 1:
                _fail(path, "fields", f"key '{k}' appears twice; fix: one field per scenario key")
        self.by_key = {f.key: f for f in self.fields}
        pr = d.get("predict")
        self.predict = None
        if pr is not None:
            if not isinstance(pr, dict) or set(pr) - PREDICT_KEYS:
                _fail(path, "predict", f"fix: {{\"metric\": ..., \"prompt\": ...}} (keys {', '.join(sorted(PREDICT_KEYS))})")
            self.predict = Metric(path, "predict", pr)
            self.predict_prompt = _text(path, "predict.prompt", pr.get("prompt"))
        show = d.get("show", [])
        if not isinstance(show, list):
            _fail(path, "show", "fix: a list of metrics ({\"metric\": ..., \"app\": ...} or a name) shown after a run")
        self.show = [Metric(path, f"show[{i}]", s if isinstance(s, dict) else {"metric": s})
                     for i, s in enumerate(show)]
        self.compare = d.get("compare", True)
        if not isinstance(self.compare, bool):
            _fail(path, "compare", f"{json.dumps(self.compare)}; fix: true (side by side offered) or false")
        qs = d["questions"]
        if not isinstance(qs, list) or not qs:
            _fail(path, "questions", "fix: a non-empty list of questions (docs/lab.md, \"questions\")")
        self.questions = [Question(self, path, f"questions[{i}]", q) for i, q in enumerate(qs)]
        ids = [q.id for q in self.questions]
        for i in ids:
            if ids.count(i) > 1:
                _fail(path, "questions", f"id '{i}' appears twice; fix: give each question its own id")
        self.by_id = {q.id: q for q in self.questions}

    def _file(self, path, field, name):
        if not isinstance(name, str) or not name or os.path.isabs(name) or ".." in name.split("/"):
            _fail(path, field, f"{json.dumps(name)}; fix: a file name inside the module's folder")
        p = os.path.join(self.dir, name)
        if not os.path.isfile(p):
            _fail(path, field, f"{json.dumps(name)}: no such file in {self.dir}; fix: create it or correct the name")
        return p

    def settings(self, path, where, given, partial=True):
        """A complete setting of the form (every field, in field order) from `given` ({key: form value}): the
        absent fields at their defaults. Raises ModuleError (a module's own settings) naming `where`."""
        if not isinstance(given, dict):
            _fail(path, where, f"{json.dumps(given)[:120]}; fix: an object {{\"field key\": value}}")
        out = {}
        for k in given:
            if k not in self.by_key:
                _fail(path, f"{where}.{k}", f"not a field of this module; fix: use one of "
                      f"{', '.join(self.by_key)} (a question asks about settings the student can make on the form)")
        for f in self.fields:
            try:
                out[f.key] = f.parse(given[f.key]) if f.key in given else f.default
            except ValueError as e:
                _fail(path, f"{where}.{f.key}", f"{e}; fix: a value the form accepts")
        return out

    def form_settings(self, given):
        """A student's setting from the form ({key: text}); ValueError with a message for the page."""
        if not isinstance(given, dict):
            raise ValueError("the form's values are missing")
        for k in given:
            if k not in self.by_key:
                raise ValueError(f"'{_short(k)}' is not a setting of this module")
        return {f.key: f.parse(given[f.key]) if f.key in given else f.default for f in self.fields}

    def sets(self, settings):
        """The --set arguments of a setting (key=value texts, field order)."""
        return [f"{f.key}={f.scenario_value(settings[f.key])}" for f in self.fields]

    def describe(self):
        """What the page needs of the module (JSON)."""
        return {"id": self.id, "title": self.title, "paper": self.paper, "objectives": self.objectives,
                "fields": [f.describe() for f in self.fields], "compare": self.compare,
                "predict": {"metric": self.predict.label(), "prompt": self.predict_prompt,
                            "unit": self.predict.unit()[0]} if self.predict else None,
                "show": [m.label() for m in self.show], "questions": [q.describe() for q in self.questions]}


def load_modules(root):
    """Every module of the folder `root` (its sub-folders holding a module.json), sorted by order then name.
    Raises ModuleError."""
    if not os.path.isdir(root):
        raise ModuleError(f"{root}: not a folder; fix: give --modules a folder of modules (one sub-folder each, with "
                          "its module.json; docs/lab.md)")
    mods = []
    for name in sorted(os.listdir(root)):
        if os.path.isfile(os.path.join(root, name, "module.json")):
            mods.append(Module(root, name))
    if not mods:
        raise ModuleError(f"{root}: no module (no sub-folder holds a module.json); fix: give the folder of the "
                          "modules, e.g. deploy/lab (docs/lab.md)")
    mods.sort(key=lambda m: (m.order, m.id))
    return mods


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _text(path, field, v, empty=False):
    if not isinstance(v, str) or (not empty and not v.strip()):
        _fail(path, field, f"{json.dumps(v)[:80]}; fix: a {'' if empty else 'non-empty '}text")
    return v


def _tolerance(path, field, t, required):
    if t is None:
        if required:
            _fail(path, field, "missing; fix: {\"abs\": x} (|answer - value| <= x) or {\"rel\": x} "
                  "(|answer - value| <= x·|value|), in the metric's unit")
        return {"abs": 0.0}
    if not isinstance(t, dict) or not t or set(t) - {"abs", "rel"} or \
            not all(_number(v) and v >= 0 for v in t.values()):
        _fail(path, field, f"{json.dumps(t)}; fix: {{\"abs\": x}} or {{\"rel\": x}} (or both: either suffices), "
              "x >= 0")
    return {k: float(v) for k, v in t.items()}


def _short(v):
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."


def _g(x):
    return f"{x:g}"
