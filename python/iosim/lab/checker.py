"""The lab's question checker: a student's answer against the simulation's own numbers (docs/lab.md, "questions").

A `number` question names a setting of the module's form, a metric (results.json's, or an application's column of
apps.csv) and a tolerance; the answer is right when |answer - value| <= abs, or <= rel·|value|, where value is the
metric of that setting's run. A `choice` question names several settings and whether the highest or the lowest
value of the metric is right; every choice within the tolerance (default 0) of the best is right. No answer is
written in the module: the runs give them, so a change of the engine or of the scenario changes the answers with it.
"""

import math
import re

FRACTION = re.compile(r"^\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*/\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\s*$")


class AnswerError(ValueError):
    """An answer that is not a number (or not a choice): the message says what to give."""


def parse_number(text):
    """A number typed by a student: 0.7281, 7.3e-1, 83/114, 73 %, with a comma as decimal point tolerated."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        x = float(text)
    else:
        s = str(text or "").strip().replace(",", ".")
        if not s:
            raise AnswerError("type a number first (e.g. 0.73, 83/114 or 73 %)")
        pct = s.endswith("%")
        if pct:
            s = s[:-1].strip()
        m = FRACTION.match(s)
        try:
            x = float(m.group(1)) / float(m.group(2)) if m else float(s)
        except (ValueError, ZeroDivisionError):
            raise AnswerError(f"'{str(text)[:30]}' is not a number: give e.g. 0.73, 83/114 or 73 %") from None
        if pct:
            x /= 100.0
    if not math.isfinite(x):
        raise AnswerError("give a finite number")
    return x


def within(answer, value, tol):
    """True when answer is within the tolerance {"abs": a, "rel": r} of value (either bound suffices)."""
    d = abs(answer - value)
    ok = False
    if "abs" in tol:
        ok = ok or d <= tol["abs"] * (1 + 1e-12) + 1e-300
    if "rel" in tol:
        ok = ok or d <= tol["rel"] * abs(value) * (1 + 1e-12)
    return ok


def fmt(v):
    """A value as the feedback prints it: 6 significant digits."""
    if not isinstance(v, (int, float)):
        return str(v)
    return f"{v:.6g}"


def tol_text(tol):
    parts = []
    if "abs" in tol:
        parts.append(f"±{tol['abs']:g}")
    if "rel" in tol:
        parts.append(f"±{100 * tol['rel']:g} %")
    return " or ".join(parts)


def check_number(question, answer_text, value):
    """{correct, value, answer, message} for a `number` question whose setting's run gives `value`."""
    a = parse_number(answer_text)
    ok = within(a, value, question.tolerance)
    what = question.metric.label()
    if ok:
        msg = f"Right: the simulation gives {what} = {fmt(value)} (your answer {fmt(a)}, tolerance " \
              f"{tol_text(question.tolerance)})."
    else:
        side = "high" if a > value else "low"
        msg = f"Not yet: {fmt(a)} is too {side} (tolerance {tol_text(question.tolerance)}). Look again at the " \
              f"run of this setting, or work it out by hand, and try again."
    return {"correct": ok, "answer": a, "value": value if ok else None, "message": msg}


def check_choice(question, answer_text, values):
    """{correct, right (labels), values, message} for a `choice` question; values[i] is choice i's metric."""
    labels = [label for label, _ in question.choices]
    if answer_text not in labels:
        raise AnswerError(f"choose one of: {', '.join(labels)}")
    best = max(values) if question.best == "max" else min(values)
    right = [lab for lab, v in zip(labels, values) if within(v, best, question.tolerance)]
    ok = answer_text in right
    what = question.metric.label()
    listing = ", ".join(f"{lab} {fmt(v)}" for lab, v in zip(labels, values))
    if ok:
        msg = f"Right: {what} is {'highest' if question.best == 'max' else 'lowest'} with {answer_text}. " \
              f"The simulation gives {listing}."
    else:
        msg = f"Not yet: {answer_text} does not give the {'highest' if question.best == 'max' else 'lowest'} " \
              f"{what}. Run the settings side by side and compare, then try again."
    return {"correct": ok, "answer": answer_text, "values": dict(zip(labels, values)) if ok else None,
            "right": right if ok else None, "message": msg}


def reveal(question, values):
    """The answer given away (the student asked): the simulated value(s) and the explanation."""
    if question.kind == "number":
        return f"The simulation gives {question.metric.label()} = {fmt(values[0])}."
    listing = ", ".join(f"{lab} {fmt(v)}" for (lab, _), v in zip(question.choices, values))
    return f"The simulation gives {listing}."
