"""CPU and memory of a running server process, read from /proc (Linux), to bound what one request costs.

CPU is utime + stime of the whole process; memory growth is the peak resident set during the request above the
resident set before it (the peak is reset through /proc/PID/clear_refs first, which the owner of the process
may do).
"""

import os
import time


class ServerGone(Exception):
    pass


class ServerProbe:
    def __init__(self, pid):
        self.pid = int(pid)
        self.ticks = os.sysconf("SC_CLK_TCK")

    def alive(self):
        try:
            with open("/proc/%d/stat" % self.pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False

    def cpu_seconds(self):
        try:
            with open("/proc/%d/stat" % self.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError as e:
            raise ServerGone(str(e))
        # Fields after "(comm)": state is index 0, utime index 11, stime index 12.
        return (int(fields[11]) + int(fields[12])) / self.ticks

    def _status_kb(self, key):
        try:
            with open("/proc/%d/status" % self.pid) as f:
                for line in f:
                    if line.startswith(key + ":"):
                        return int(line.split()[1])
        except OSError as e:
            raise ServerGone(str(e))
        raise ServerGone("no %s in /proc/%d/status" % (key, self.pid))

    def rss_kb(self):
        return self._status_kb("VmRSS")

    def peak_kb(self):
        return self._status_kb("VmHWM")

    def reset_peak(self):
        try:
            with open("/proc/%d/clear_refs" % self.pid, "w") as f:
                f.write("5")
            return True
        except OSError:
            return False

    def settle(self, limit_seconds, start_cpu):
        """Waits until the process stops using CPU (work a timed-out request left running is counted), at most
        until it used limit_seconds more than start_cpu."""
        last = self.cpu_seconds()
        for _ in range(100):
            time.sleep(0.2)
            now = self.cpu_seconds()
            if now - last < 0.03 or now - start_cpu > limit_seconds + 1:
                return now
            last = now
        return last


class Cost:
    """What one attack cost the server: cpu seconds, peak memory growth in MB, the reply (or the exception)."""

    def __init__(self, cpu, growth_mb, outcome):
        self.cpu, self.growth_mb, self.outcome = cpu, growth_mb, outcome

    def __str__(self):
        return "%.2f s CPU, +%.0f MB peak RSS" % (self.cpu, self.growth_mb)


def measure(probe, cpu_limit, attack):
    """Runs attack() (one or more requests) and returns its Cost; raises ServerGone when the server died."""
    # Without the reset (older kernels) growth is only seen above the earlier peak.
    rss = probe.rss_kb() if probe.reset_peak() else max(probe.rss_kb(), probe.peak_kb())
    start = probe.cpu_seconds()
    try:
        outcome = attack()
    except OSError as e:  # timeouts and resets: the reply never came
        outcome = e
    if not probe.alive():
        raise ServerGone("the server died")
    end = probe.settle(cpu_limit, start)
    return Cost(end - start, max(0, probe.peak_kb() - rss) / 1024.0, outcome)
