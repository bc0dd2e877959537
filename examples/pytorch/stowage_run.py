"""The trainer's side of Stowage's run accounting (docs/runs.md), with the standard library only.

The trainer appends one JSON object a line to RUN_DIR/.stowage-run.jsonl; `stowage watch` reads each
complete line and publishes it as the event it names, which the ledger accounts (`stowage cost --run E/R`):

  {"event": "run.started",  "attemptId": A, "at": ISO-8601, "resumedFromStep": N or null}
  {"event": "run.progress", "attemptId": A, "at": ..., "step": N, "wallSeconds": ..., "trainingSeconds": ...,
   "dataWaitSeconds": ..., "checkpointSeconds": ...}
  {"event": "run.finished", ...the progress fields..., "outcome": "completed"|"stopped"|"failed"|"preempted",
   "reason": text or null}

Times are seconds since the attempt started, cumulative. A line is written in one write() ending in a newline
and fsynced, so the watch never reads half a line. A trainer that is killed writes no finish line: when the
next attempt starts, the ledger counts the killed one as preempted.

    log = RunLog(run_dir, resumed_from_step)
    with log.data_wait(): batch = next(loader)
    with log.training(): loss = step(batch)
    with log.checkpoint(): save_step(...); log.progress(step)
    log.finished(step, "completed")
"""
import contextlib
import datetime
import json
import os
import time
import uuid

NAME = ".stowage-run.jsonl"


class RunLog:
    """One attempt of a run: measures its time and appends its lines to the run file."""

    def __init__(self, run_dir: str, resumed_from_step=None):
        self.path = os.path.join(run_dir, NAME)
        self.attempt = uuid.uuid4().hex
        self.started = time.monotonic()
        self.seconds = {"trainingSeconds": 0.0, "dataWaitSeconds": 0.0, "checkpointSeconds": 0.0}
        self._write({"event": "run.started", "resumedFromStep": resumed_from_step})

    @contextlib.contextmanager
    def _timed(self, key: str):
        began = time.monotonic()
        try:
            yield
        finally:
            self.seconds[key] += time.monotonic() - began

    def training(self):
        """Time spent in optimizer steps: the effective training time."""
        return self._timed("trainingSeconds")

    def data_wait(self):
        """Time spent waiting for data."""
        return self._timed("dataWaitSeconds")

    def checkpoint(self):
        """Time the trainer is blocked writing a checkpoint."""
        return self._timed("checkpointSeconds")

    def progress(self, step: int) -> None:
        self._write(dict(self._times(), event="run.progress", step=step))

    def finished(self, step: int, outcome: str, reason=None) -> None:
        self._write(dict(self._times(), event="run.finished", step=step, outcome=outcome, reason=reason))

    def _times(self) -> dict:
        return dict({k: round(v, 6) for k, v in self.seconds.items()},
                    wallSeconds=round(time.monotonic() - self.started, 6))

    def _write(self, line: dict) -> None:
        line = dict(line, attemptId=self.attempt,
                    at=datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z"))
        data = (json.dumps(line, sort_keys=True) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
