"""Puts iosim's Python package (`iosim`: the library's module and the code of iosim's own commands, python/iosim/)
on sys.path for the scripts of analysis/, which import it (`import iosim_path` first). The first folder holding
iosim/__init__.py of: $IOSIM_PYTHONPATH; the build tree beside this checkout (build/python: with the compiled
module); the source tree (python/: the pure-Python modules only); an installed copy (PREFIX/lib/python3/dist-packages
beside PREFIX/share/iosim/analysis). Nothing is changed when `import iosim` already finds a package (PYTHONPATH)."""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("IOSIM_PYTHONPATH")
    if env:
        yield env
    yield os.path.join(HERE, "..", "build", "python")
    yield os.path.join(HERE, "..", "python")
    yield os.path.join(HERE, "..", "..", "..", "lib", "python3", "dist-packages")


def _find():
    spec = importlib.util.find_spec("iosim")
    if spec is not None and spec.submodule_search_locations:
        return None  # already a package on the path
    for d in _candidates():
        if os.path.isfile(os.path.join(d, "iosim", "__init__.py")):
            return os.path.abspath(d)
    sys.exit("iosim: error: cannot find iosim's Python package (python/iosim); fix: build iosim (make build) or "
             "set IOSIM_PYTHONPATH to the folder holding iosim/ (PREFIX/lib/python3/dist-packages after make install)")


_dir = _find()
if _dir is not None and _dir not in sys.path:
    sys.path.insert(0, _dir)


def package_dir():
    """The folder holding the iosim package that `import iosim` finds now."""
    return os.path.dirname(os.path.dirname(importlib.util.find_spec("iosim").origin))


def env(**extra):
    """os.environ with PYTHONPATH starting with package_dir() (for `python3 -m iosim.<module>` in a child), plus
    `extra`."""
    old = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=package_dir() + (os.pathsep + old if old else ""), **extra)
