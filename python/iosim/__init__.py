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
import os as _os

_HERE = _os.path.dirname(_os.path.abspath(__file__))


def _load_core():
    return _importlib.import_module("._core", __name__)


def __getattr__(name):
    # a submodule of the package (`from . import campaign_io` asks for the attribute first): not the compiled module's
    # name, so that the pure-Python modules import without loading it (an ASan build's module needs its runtime)
    if name.startswith("__") or _os.path.exists(_os.path.join(_HERE, name + ".py")) or \
            _os.path.isdir(_os.path.join(_HERE, name)):
        raise AttributeError(name)
    try:
        return getattr(_load_core(), name)
    except AttributeError:
        raise AttributeError(f"module 'iosim' has no attribute {name!r}") from None


def __dir__():
    return sorted({n for n in globals() if not n.startswith("_")} | set(dir(_load_core())))
