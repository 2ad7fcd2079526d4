"""TOKIO-ABC jobs for the validation studies: iosim.tokio_data (the reader `iosim calibrate --tokio` uses, in the
installed package), with the datasets folder found from a checkout as iosim finds it: $IOSIM_DATA_DIR, else
../shared/datasets beside the source tree, else traces/datasets (`make data`)."""

import os

import iosim_path  # noqa: F401  (puts the iosim package on sys.path)
from iosim.tokio_data import *  # noqa: F401,F403  (FILES, GPFS_SERVERS, MIB, REQUIRED, read_summary, tidy)
from iosim.tokio_data import jobs as _jobs

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def data_dir():
    """$IOSIM_DATA_DIR/tokio-abc, else ../shared/datasets/tokio-abc beside the source tree, else
    traces/datasets/tokio-abc."""
    env = os.environ.get("IOSIM_DATA_DIR")
    if env:
        return os.path.join(env, "tokio-abc")
    shared = os.path.join(ROOT, "..", "shared", "datasets")
    return os.path.join(shared if os.path.isdir(shared) else os.path.join(ROOT, "traces", "datasets"), "tokio-abc")


def jobs(systems=tuple(FILES), directory=None):  # noqa: F405
    """iosim.tokio_data.jobs with this checkout's datasets folder by default."""
    return _jobs(systems, directory or data_dir())
