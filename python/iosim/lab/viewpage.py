"""The view the lab embeds: `iosim view`'s page (iosim.view) of one run, or of two side by side on one time axis,
with plotly.js loaded from the lab (one copy in the browser's cache) instead of inlined in every page."""

from .. import view, view_data
from ..campaign_io import InputError


class ViewError(Exception):
    pass


def html(dirs, labels, plotly_url, max_resources=8):
    """The page's HTML for the run folders `dirs` named `labels`; ViewError when a run cannot be drawn."""
    try:
        runs = []
        for d, label in zip(dirs, labels):
            run = view_data.read_run(d, label)
            view.limit_resources(run, max_resources)
            runs.append(run)
    except InputError as e:
        raise ViewError(str(e)) from None
    title = " | ".join(f"{r['label']} ({r['policies'].get('sharing')})" for r in runs)
    return view.page({"title": title, "runs": runs, "campaign": None}, title, plotly_src=plotly_url)
