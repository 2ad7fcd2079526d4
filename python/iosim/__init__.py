"""iosim's Python package.

- The library's functions and classes (`iosim.share`, `iosim.allocate`, `iosim.Scenario`, ... docs/library.md) come
  from the compiled module iosim._core (pybind11 over libiosim.so), loaded on first use, so the pure-Python modules
  below import without it.
- The code iosim's own commands run, one module each, started as `python3 -m iosim.<name>` by the iosim binary:
  report (iosim report), view (iosim view), compare (iosim compare, iosim whatif), calibrate (iosim calibrate);
  what they share: campaign_io (reading runs, the Debian modules' check, the exit-2 convention), figures, gantt,
  view_data, whatif_band, fsmodel (the file-system model and its rolling calibration), tokio_data (the TOKIO-ABC
  summaries reader).
"""

import importlib as _importlib

def _load_core():
    return _importlib.import_module("._core", __name__)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_load_core(), name)
    except AttributeError:
        raise AttributeError(f"module 'iosim' has no attribute {name!r}") from None


def __dir__():
    return sorted({n for n in globals() if not n.startswith("_")} | set(dir(_load_core())))
