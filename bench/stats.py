"""Figures the benchmarks share."""

from __future__ import annotations


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile `p` (0-100) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """A process's resident set in MB (Linux); `field` "VmHWM": its peak so far."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return 0.0
