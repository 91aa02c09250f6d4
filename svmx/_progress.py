"""A minimal text progress bar on standard error, shown only when asked for."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TextIO

__all__ = ["ProgressBar"]


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

    Examples
    --------
    >>> import io
    >>> stream = io.StringIO()
    >>> with ProgressBar(4, "fits", stream=stream, width=4) as bar:
    ...     bar.update(2)
    >>> stream.getvalue().split("\\r")[-1]
    'fits [##..] 2/4\\n'
    """

    def __init__(
        self,
        total: int,
        description: str = "",
        enabled: bool = True,
        stream: TextIO | None = None,
        width: int = 30,
    ) -> None:
        self.total = max(int(total), 0)
        self.description = description
        self.enabled = bool(enabled)
        self.stream = stream
        self.width = width
        self.done = 0
        self._closed = False

    def _draw(self) -> None:
        filled = self.width if self.total == 0 else self.width * self.done // self.total
        bar = "#" * filled + "." * (self.width - filled)
        prefix = f"{self.description} " if self.description else ""
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(f"\r{prefix}[{bar}] {self.done}/{self.total}")
        stream.flush()

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
        self._draw()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if not self.enabled or self._closed:
            return
        self._closed = True
        self._draw()
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
