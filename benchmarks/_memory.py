"""Peak resident memory of a block of code, measured from ``/proc/self/status`` (Linux).

A background thread samples ``VmRSS`` every few milliseconds while the block runs. A library that
keeps the GIL through a long C call would starve that thread, so the kernel's own high-water mark
``VmHWM`` is reset on entry (writing ``5`` to ``/proc/self/clear_refs``) and read on exit as a
second opinion; the report uses the larger of the two peaks. Both are reported above the RSS
measured on entry, so the number is the memory the block itself added at its worst moment.
"""

import threading
from pathlib import Path

STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")


def read_status_kib(field):
    """The value in KiB of one ``/proc/self/status`` field (``"VmRSS"``, ``"VmHWM"``), or None.

    Examples
    --------
    >>> read_status_kib("VmRSS") > 0  # doctest: +SKIP
    True
    """
    try:
        for line in STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_high_water_mark():
    """Reset ``VmHWM`` to the current RSS; False when the kernel does not allow it."""
    try:
        CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


class PeakMemory:
    """Context manager measuring the peak RSS above its entry value, in MB.

    Parameters
    ----------
    interval : float, default=0.005
        Seconds between two ``VmRSS`` samples.

    Attributes
    ----------
    peak_mb : float or None
        Peak RSS above the entry baseline in MB (10**6 bytes), set on exit; None where
        ``/proc`` is not available.

    Examples
    --------
    >>> import numpy as np
    >>> with PeakMemory() as memory:  # doctest: +SKIP
    ...     block = np.ones(50_000_000)
    >>> round(memory.peak_mb)  # doctest: +SKIP
    400
    """

    def __init__(self, interval=0.005):
        self.interval = interval
        self.peak_mb = None
        self._stop = threading.Event()
        self._thread = None
        self._baseline = self._peak = None
        self._watermark_reset = False

    def _sample(self):
        while not self._stop.wait(self.interval):
            rss = read_status_kib("VmRSS")
            if rss is not None and rss > self._peak:
                self._peak = rss

    def __enter__(self):
        self._baseline = read_status_kib("VmRSS")
        if self._baseline is None:
            return self
        self._peak = self._baseline
        self._watermark_reset = _reset_high_water_mark()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        if self._thread is None:
            return False
        self._stop.set()
        self._thread.join()
        peak = max(self._peak, read_status_kib("VmRSS") or 0)
        if self._watermark_reset:
            peak = max(peak, read_status_kib("VmHWM") or 0)
        self.peak_mb = max(peak - self._baseline, 0) * 1024 / 1e6
        return False
