"""Progress on standard error, shown only when asked for: a bar for many tasks, a
status line for one long fit.

Both redraw in place a few times a second on a terminal and write plain lines,
a few seconds apart, into a file or pipe, so that a redirected log stays short.
Work shorter than the first interval writes nothing but a bar's final line.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

__all__ = ["FitStatus", "ProgressBar", "Throttle", "is_terminal"]

# Seconds between two draws on a terminal, and between two lines into a file or pipe.
TERMINAL_INTERVAL = 0.25
FILE_INTERVAL = 2.0
# Erase the terminal line the cursor is on.
_ERASE_LINE = "\r\x1b[K"


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` (standard error when None) is an interactive terminal.

    Examples
    --------
    >>> import io
    >>> is_terminal(io.StringIO())
    False
    """
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):  # a closed or detached stream
        return False


class Throttle:
    """Whether it is time to draw again: every `interval` seconds, the first time one
    interval after the start.

    Parameters
    ----------
    interval : float
        Seconds between two draws.
    clock : callable, default=time.monotonic
        The time in seconds.

    Examples
    --------
    >>> now = [0.0]
    >>> throttle = Throttle(0.25, clock=lambda: now[0])
    >>> throttle.ready()
    False
    >>> now[0] = 0.3
    >>> throttle.ready(), throttle.ready()
    (True, False)
    """

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = float(interval)
        self.clock = clock
        self.last = clock()

    def ready(self) -> bool:
        """True (and the clock restarts) once `interval` seconds have passed."""
        now = self.clock()
        if now - self.last < self.interval:
            return False
        self.last = now
        return True


def _interval_for(terminal: bool) -> float:
    return TERMINAL_INTERVAL if terminal else FILE_INTERVAL


class ProgressBar:
    """Redraw ``description [#####.....] done/total`` in place on one line.

    Parameters
    ----------
    total : int
        Number of steps.
    description : str, default=""
        Text in front of the bar.
    enabled : bool, default=True
        When False every method is a no-op, so callers need no branches.
    stream : text stream, optional
        Where to draw; standard error by default.
    width : int, default=30
        Number of characters of the bar itself.
    terminal : bool, optional
        Whether to redraw in place (a terminal, at most four times a second) or to
        write plain lines (at most one every two seconds); by default, whether the
        stream is a terminal.
    clock : callable, default=time.monotonic
        The time in seconds, for the throttle.

    Examples
    --------
    >>> import io
    >>> stream = io.StringIO()
    >>> with ProgressBar(4, "fits", stream=stream, width=4) as bar:
    ...     bar.update(2)
    >>> stream.getvalue()
    'fits [##..] 2/4\\n'

    The final state is always drawn; the steps before it only as often as the
    throttle allows.
    """

    def __init__(
        self,
        total: int,
        description: str = "",
        enabled: bool = True,
        stream: TextIO | None = None,
        width: int = 30,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total = max(int(total), 0)
        self.description = description
        self.enabled = bool(enabled)
        self.stream = stream
        self.width = width
        self.terminal = is_terminal(stream) if terminal is None else bool(terminal)
        self.throttle = Throttle(_interval_for(self.terminal), clock)
        self.done = 0
        self._drawn_done = -1  # the count last drawn
        self._closed = False

    def _draw(self) -> None:
        filled = self.width if self.total == 0 else self.width * self.done // self.total
        bar = "#" * filled + "." * (self.width - filled)
        prefix = f"{self.description} " if self.description else ""
        stream = self.stream if self.stream is not None else sys.stderr
        text = f"{prefix}[{bar}] {self.done}/{self.total}"
        stream.write(f"\r{text}" if self.terminal else f"{text}\n")
        stream.flush()
        self._drawn_done = self.done

    def update(self, count: int = 1) -> None:
        """Advance by ``count`` steps and redraw.

        Parameters
        ----------
        count : int, default=1
            Steps completed since the last call.
        """
        if not self.enabled or self._closed:
            return
        self.done = min(self.done + count, self.total)
        if self.throttle.ready():
            self._draw()

    def close(self) -> None:
        """Draw the final state (and end the terminal's line)."""
        if not self.enabled or self._closed:
            return
        self._closed = True
        if self._drawn_done != self.done:
            self._draw()
        if self.terminal:
            stream = self.stream if self.stream is not None else sys.stderr
            stream.write("\n")
            stream.flush()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class FitStatus:
    """One line telling how far a long fit has come, on standard error.

    ``[svmx] SVC: pair 3/45: 12,000 iterations, gap 3.1e-02 (tol 0.001)``: the
    solver's iterations so far and its optimality gap (the maximal violation of
    the optimality conditions), which falls to `tol` when the solve ends. On a
    terminal the line is redrawn in place at most four times a second and erased
    before other output (`write_output`, `clear`); into a file or pipe a plain
    line is written at most every two seconds. A fit that ends within the first interval writes
    nothing. Updates may come from several threads (one-vs-one pairs).

    Parameters
    ----------
    prefix : str, default=""
        Text in front of each line.
    stream : text stream, optional
        Where to write; standard error (looked up at each write) by default.
    terminal : bool, optional
        Redraw in place (True) or write lines (False); by default, whether the
        stream is a terminal.
    clock : callable, default=time.monotonic
        The time in seconds, for the throttle.

    Examples
    --------
    >>> import io
    >>> now, stream = [0.0], io.StringIO()
    >>> status = FitStatus("[svmx] SVC: ", stream, clock=lambda: now[0])
    >>> status.update("", 1000, 0.5, 1e-3)      # within the first interval: silent
    >>> now[0] = 2.5
    >>> status.update("pair 1/3", 2000, 0.031, 1e-3)
    >>> stream.getvalue()
    '[svmx] SVC: pair 1/3: 2,000 iterations, gap 3.1e-02 (tol 0.001)\\n'
    """

    def __init__(self, prefix: str = "", stream: TextIO | None = None,
                 terminal: bool | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.prefix = prefix
        self.stream = stream
        self.terminal = is_terminal(stream) if terminal is None else bool(terminal)
        self.throttle = Throttle(_interval_for(self.terminal), clock)
        self._lock = threading.Lock()
        self._drawn = False
        self._held: list[str] = []

    def _write(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(text)
        stream.flush()

    def update(self, task: str, n_iter: int, gap: float, tol: float) -> None:
        """Report `n_iter` iterations and optimality gap `gap` (to fall below `tol`).

        Parameters
        ----------
        task : str
            Which problem of the fit (empty for a fit of one problem).
        n_iter : int
            Iterations of the solver so far.
        gap : float
            The solver's maximal violation of the optimality conditions.
        tol : float
            The gap at which the solver stops.
        """
        with self._lock:
            if not self.throttle.ready():
                return
            where = f"{task}: " if task else ""
            text = (f"{self.prefix}{where}{int(n_iter):,} iterations, "
                    f"gap {gap:.1e} (tol {tol:g})")
            if self.terminal:
                self._write(f"\r{text}\x1b[K")
                self._drawn = True
            else:
                self._write(f"{text}\n")

    def write_output(self, stream: TextIO, text: str) -> None:
        """Write other output (LIBSVM's) to `stream`, never on the status line's row.

        On a terminal that shows both, LIBSVM's progress markers (``.`` and ``*``,
        which carry what the status line shows) are held back and written with its
        next line of text, once the status line is erased; so the screen shows the
        status line while the solve runs, then LIBSVM's output intact. Into a file
        or pipe everything is written at once.
        """
        with self._lock:
            if (self.terminal and "\n" not in text and not text.strip(".*")
                    and is_terminal(stream)):
                self._held.append(text)
                return
            if "\n" in text and self._drawn:
                self._write(_ERASE_LINE)
                self._drawn = False
            held, self._held = "".join(self._held), []
            stream.write(held + text)
            stream.flush()

    def clear(self) -> None:
        """Erase the line from the terminal, if it is drawn (before other output)."""
        with self._lock:
            if self._drawn:
                self._write(_ERASE_LINE)
                self._drawn = False
