"""A progress bar on stderr for long computations, shown only on a terminal."""
from __future__ import annotations

import sys
import time


class Progress:
    """Callable that counts finished resamples and redraws one stderr line.

    Nothing is drawn when stderr is not a terminal (piped output, CI) or before
    ``delay`` seconds have passed, so quick runs stay quiet.
    """

    def __init__(self, label: str, total: int, *, stream=None, delay: float = 0.5) -> None:
        self.label, self.total, self.done = label, max(int(total), 1), 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start, self.delay, self.drawn = time.monotonic(), delay, False

    def __call__(self, finished: int) -> None:
        self.done = min(self.total, self.done + finished)
        if not self.enabled or time.monotonic() - self.start < self.delay:
            return
        share = self.done / self.total
        bar = "#" * int(30 * share)
        self.stream.write(f"\r{self.label} [{bar:<30}] {share:4.0%}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the line if anything was drawn."""
        if self.drawn:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def bootstrap_bar(enabled: bool, stages: int, n_resamples: int) -> Progress | None:
    """A bar over ``stages`` bootstraps of ``n_resamples`` each, or None when not ``enabled``."""
    return Progress("bootstrap", stages * n_resamples) if enabled else None
