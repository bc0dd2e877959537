"""The trainer's side of Stowage's stop contract (docs/runs.md), with the standard library only.

When a run reaches its wall-time, GPU-hour or money cap, Stowage (`stowage run stop RUN_DIR`) writes
RUN_DIR/.stowage-stop-request.json ({"requestId", "reason", "requestedAt", "deadline"}) and sends SIGUSR1
to the trainer. The trainer, at its next step boundary, saves a checkpoint the usual way (temporary name,
fsync, rename), writes RUN_DIR/.stowage-stop-answer.json ({"requestId", "step", "dir"}) the same way, and
exits 0. Stowage waits until that step is published and verified, then terminates the pods and releases
the run's volumes through the gate. A trainer that does not answer before the deadline is stopped anyway.

    stop = StopContract(run_dir)           # installs the SIGUSR1 handler
    ...after each optimizer step:
    request = stop.requested()
    if request:
        path = save_step(...)              # the step directory, renamed into place
        stop.answer(request, step, path)
        sys.exit(0)
"""
import json
import os
import signal

REQUEST = ".stowage-stop-request.json"
ANSWER = ".stowage-stop-answer.json"


class StopContract:
    """Watches one run directory for Stowage's stop request and writes the answer."""

    def __init__(self, run_dir: str):
        self.run_dir = run_dir
        self.signalled = False
        if hasattr(signal, "SIGUSR1"):
            signal.signal(signal.SIGUSR1, self._on_signal)

    def _on_signal(self, signum, frame):  # only a flag: the step boundary does the work
        self.signalled = True

    def requested(self):
        """The pending request as a dict, or None (no request, or one this run directory already answered)."""
        request = _read(os.path.join(self.run_dir, REQUEST))
        if not isinstance(request, dict) or not request.get("requestId"):
            return None
        answer = _read(os.path.join(self.run_dir, ANSWER))
        if isinstance(answer, dict) and answer.get("requestId") == request["requestId"]:
            return None
        return request

    def answer(self, request: dict, step: int, step_dir: str) -> None:
        """Says that step_dir (already renamed into place under run_dir) is the step saved for request."""
        body = {"requestId": request["requestId"], "step": step, "dir": os.path.basename(step_dir)}
        tmp = os.path.join(self.run_dir, ANSWER + ".tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(body, handle, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.rename(tmp, os.path.join(self.run_dir, ANSWER))
        if hasattr(signal, "SIGUSR1"):
            # the trainer exits now; Stowage's SIGUSR1 may still be on its way (it is sent after the request file,
            # which a fast trainer can answer first), and Python drops its handlers while it shuts down, so the
            # signal's default action would end the answered trainer with 138 instead of 0
            signal.signal(signal.SIGUSR1, signal.SIG_IGN)


def _read(path: str):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None
