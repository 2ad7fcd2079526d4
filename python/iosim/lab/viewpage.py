"""The view the lab embeds: `iosim view`'s page of one run, or two side by side on one time axis, with plotly.js
loaded from the lab (one copy in the browser's cache) instead of inlined in every page."""

import os
import sys
import threading

_ANALYSIS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "analysis")
if os.path.isdir(_ANALYSIS):  # until iosim view lives in the package (iosim.view)
    sys.path.insert(0, os.path.abspath(_ANALYSIS))

import view  # noqa: E402
import view_data  # noqa: E402
from campaign_io import InputError  # noqa: E402


class ViewError(Exception):
    pass


_LOCK = threading.Lock()


def html(dirs, labels, plotly_url, max_resources=8):
    """The page's HTML for the run folders `dirs` named `labels`."""
    try:
        runs = []
        for d, label in zip(dirs, labels):
            run = view_data.read_run(d, label)
            view.limit_resources(run, max_resources)
            runs.append(run)
    except InputError as e:
        raise ViewError(str(e)) from None
    title = " | ".join(f"{r['label']} ({r['policies'].get('sharing')})" for r in runs)
    with _LOCK:
        saved = view.plotly_source
        view.plotly_source = lambda: f'</script><script src="{plotly_url}">'
        try:
            return view.page({"title": title, "runs": runs, "campaign": None}, title)
        finally:
            view.plotly_source = saved
