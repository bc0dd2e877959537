#!/usr/bin/env python3
"""Train a small speech classifier on WAV files and write real torch.save checkpoints.

Each checkpoint step is written into a temporary directory and renamed into place, so a reader
(`stowage watch`, `stowage checkpoint publish`) never sees a half-written step. Every step
directory holds:
  model.pt        the model's state_dict (torch.save)
  optimizer.pt    the optimizer's state_dict (torch.save)
  provenance.json code commit, config SHA-256, data manifest SHA-256, seed, step, loss

The run also keeps its experiment capsule, experiment.json, in the run directory beside the steps:
experiment id, code commit and whether the tree was clean, config and data manifest SHA-256, seed,
runtime profile, entrypoint and arguments, hardware, and the run's final step. `stowage checkpoint
publish` reads it (a step lacking commit, config or data hash is archived but can never be released).

The capsule also records what `stowage capsule lint` asks of a run (docs/runs.md): the research question,
data manifest revision, protocol id and SHA-256, caps (--wall-time, --gpu-hours, --usd), the checkpoint
interval, the resume command, the expected outputs, and a documented native exception (host, toolchain,
reason) when STOWAGE_IMAGE_DIGEST does not name the container image.

Accounts its time (stowage_run.py: RUN_DIR/.stowage-run.jsonl, read by `stowage watch`): a start line, a
progress line at each saved step, a finish line (completed, stopped with the reason, failed with the error;
none for --stop-after, which plays a preempted pod), with wall, training, data-wait and checkpoint seconds.

Stops safely: at its own --wall-time cap, or when Stowage asks through the stop contract
(stowage_stop.py: a request file in the run directory and SIGUSR1), it saves the current step, answers, and
exits 0. A temporary step directory left by a killed run is removed before that step is written again.

--resume-from STEP_DIR loads model.pt and optimizer.pt of a step (e.g. one fetched with
`stowage checkpoint fetch --latest`) and continues with the next step. Training is full-batch and
deterministic, so the resumed run's losses equal the uninterrupted run's (see docs/design/checkpoints.md).

The task: tell a spoken digit (files under digits/) from any other prompt, from the clip's
log-magnitude spectrum averaged over time (torch.stft over the 16-bit PCM the standard library's wave
module reads). Runs on CPU with Debian's python3-torch, on the 32 sample prompts or on the full corpus
(Debian's asterisk-core-sounds-en-wav, 568 prompts, 94 of them under digits/; loading takes a few
seconds, 50 full-batch steps well under one; --min-step-seconds paces a step as on a slower machine):
  /usr/bin/python3 examples/pytorch/train.py --data examples/samples/speech-en-allison --out /tmp/ckpt
  /usr/bin/python3 examples/pytorch/train.py --data /usr/share/asterisk/sounds/en_US_f_Allison --out /tmp/ckpt
"""
import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
import wave

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stowage_stop import StopContract  # noqa: E402  (beside this file)
from stowage_run import RunLog  # noqa: E402

# what the run is judged by: fixed here, hashed into the capsule (protocolSha256)
PROTOCOL = {"id": "digits-vs-prompt-v1", "metric": "accuracy on the training clips", "split": "all clips, full batch"}


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def data_manifest(root: str) -> bytes:
    """JSONL of every .wav under root (path, bytes, sha256), sorted: what the run trained on."""
    lines = []
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".wav"):
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                lines.append(json.dumps({"path": rel, "bytes": os.path.getsize(full), "sha256": sha256_file(full)},
                                        sort_keys=True))
    return ("\n".join(sorted(lines)) + "\n").encode()


def code_clean() -> bool:
    """True when the checkout has no uncommitted change (None when git cannot tell)."""
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        status = subprocess.check_output(["git", "-C", here, "status", "--porcelain"], text=True,
                                         stderr=subprocess.DEVNULL)
        return status.strip() == ""
    except (OSError, subprocess.CalledProcessError):
        return None


def write_capsule(out: str, capsule: dict) -> None:
    """experiment.json beside the steps, written to a temporary name, fsynced and renamed."""
    tmp = os.path.join(out, ".experiment.json.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(capsule, handle, indent=2, sort_keys=True)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.rename(tmp, os.path.join(out, "experiment.json"))


def code_commit() -> str:
    if os.environ.get("STOWAGE_CODE_COMMIT"):
        return os.environ["STOWAGE_CODE_COMMIT"]
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        return subprocess.check_output(["git", "-C", here, "rev-parse", "HEAD"], text=True,
                                       stderr=subprocess.DEVNULL).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def features(path: str, n_fft: int) -> torch.Tensor:
    with wave.open(path, "rb") as clip:
        frames = clip.readframes(clip.getnframes())
        width = clip.getsampwidth()
    if width != 2:
        raise ValueError(f"{path}: expected 16-bit PCM, got {8 * width}-bit")
    samples = torch.frombuffer(bytearray(frames), dtype=torch.int16).float() / 32768.0
    if samples.numel() < n_fft:
        samples = torch.nn.functional.pad(samples, (0, n_fft - samples.numel()))
    spectrum = torch.stft(samples, n_fft=n_fft, hop_length=n_fft // 2, window=torch.hann_window(n_fft),
                          return_complex=True).abs()
    return torch.log1p(spectrum).mean(dim=1)


def load(root: str, n_fft: int):
    xs, ys = [], []
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name.endswith(".wav"):
                xs.append(features(os.path.join(folder, name), n_fft))
                ys.append(1 if os.path.basename(folder) == "digits" else 0)
    if not xs:
        raise SystemExit(f"no .wav files under {root}")
    return torch.stack(xs), torch.tensor(ys)


def save_step(out: str, step: int, model, optimizer, provenance: dict) -> str:
    final = os.path.join(out, f"step-{step:012d}")
    tmp = os.path.join(out, f".tmp-step-{step:012d}")
    if os.path.isdir(tmp):  # left by a killed run: incomplete, never published, written again
        for name in os.listdir(tmp):
            os.remove(os.path.join(tmp, name))
        os.rmdir(tmp)
    os.makedirs(tmp, exist_ok=False)
    torch.save(model.state_dict(), os.path.join(tmp, "model.pt"))
    torch.save(optimizer.state_dict(), os.path.join(tmp, "optimizer.pt"))
    with open(os.path.join(tmp, "provenance.json"), "w", encoding="utf-8") as handle:
        json.dump(provenance, handle, indent=2, sort_keys=True)
        handle.write("\n")
    for name in os.listdir(tmp):
        with open(os.path.join(tmp, name), "rb") as handle:
            os.fsync(handle.fileno())
    os.rename(tmp, final)  # atomic: the step appears complete or not at all
    return final


def seconds(text: str) -> float:
    """'90s', '30m', '6h', '2d' or '0' (no cap) in seconds, the forms `stowage capsule lint` accepts."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text.strip() == "0":
        return 0
    if len(text) < 2 or text[-1] not in units or not text[:-1].isdigit():
        raise SystemExit(f"--wall-time must look like 90s, 30m, 6h or 2d: {text}")
    return int(text[:-1]) * units[text[-1]]


def resume_args(argv: list) -> list:
    """argv without an earlier --resume-from and its value (the resume command adds its own)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--resume-from":
            skip = True
        elif not arg.startswith("--resume-from="):
            kept.append(arg)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="directory of .wav files (digits/ = class 1)")
    parser.add_argument("--out", required=True, help="run directory that receives step-NNNNNNNNNNNN/")
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--save-every", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--n-fft", type=int, default=256)
    parser.add_argument("--resume-from", help="a step directory (model.pt, optimizer.pt, provenance.json) to continue from")
    parser.add_argument("--print-every", type=int, default=0, help="print the loss every N steps (default: at saves)")
    parser.add_argument("--experiment-id", default="speech-digits")
    parser.add_argument("--stop-after", type=int, default=0,
                        help="stop after this step, as a preempted pod would (the capsule still names --steps)")
    parser.add_argument("--question", default="Can a 2-layer MLP on averaged log spectra tell spoken digits from other prompts?")
    parser.add_argument("--data-revision", default="speech-en-allison@local",
                        help="the data manifest's revision, e.g. the dataset revision it was sealed as")
    parser.add_argument("--wall-time", default="6h", help="wall-time cap (s, m, h, d), e.g. 6h: save and exit when reached")
    parser.add_argument("--gpu-hours", type=float, default=0.0, help="GPU-hour cap recorded in the capsule")
    parser.add_argument("--usd", type=float, default=1.0, help="money cap in US dollars recorded in the capsule")
    parser.add_argument("--min-step-seconds", type=float, default=0.0,
                        help="pace: each optimizer step takes at least this long (the rest is slept and counted as"
                             " training time), as on a slower machine, so a person or a test can act between steps")
    args = parser.parse_args()
    argv = sys.argv[1:]

    config = {"steps": args.steps, "save_every": args.save_every, "seed": args.seed, "lr": args.lr,
              "hidden": args.hidden, "n_fft": args.n_fft, "model": "mlp-2layer", "task": "digit-vs-prompt"}
    config_bytes = json.dumps(config, sort_keys=True).encode()
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    resumed = None
    if args.resume_from:
        with open(os.path.join(args.resume_from, "provenance.json"), encoding="utf-8") as handle:
            resumed = json.load(handle)["step"]
    log = RunLog(args.out, resumed)
    try:
        train(args, argv, config, config_bytes, log)
    except BaseException as error:  # a crash is accounted, then raised as before
        if not isinstance(error, SystemExit) or error.code not in (0, None):
            log.finished(log_step[0], "failed", f"{type(error).__name__}: {error}"[:500])
        raise


log_step = [0]  # the last step done, for the failure line


def train(args, argv, config, config_bytes, log) -> None:
    with log.data_wait():
        x, y = load(args.data, args.n_fft)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[1], args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    base = {"codeCommit": code_commit(), "configSha256": sha256_bytes(config_bytes),
            "dataManifestSha256": sha256_bytes(data_manifest(args.data)), "seed": args.seed,
            "config": config, "entrypoint": "examples/pytorch/train.py", "torch": torch.__version__}
    capsule = {
        "experimentId": args.experiment_id, "question": args.question, "codeCommit": base["codeCommit"],
        "codeClean": code_clean(), "configSha256": base["configSha256"],
        "dataManifestSha256": base["dataManifestSha256"], "dataManifestRevision": args.data_revision,
        "protocolId": PROTOCOL["id"], "protocolSha256": sha256_bytes(json.dumps(PROTOCOL, sort_keys=True).encode()),
        "seed": args.seed, "runtimeProfile": f"cpu-torch-{torch.__version__}",
        "entrypoint": base["entrypoint"], "args": argv, "finalStep": args.steps,
        "hardware": f"{os.cpu_count()} CPU, torch threads {torch.get_num_threads()}, no GPU",
        "caps": {"wallTime": args.wall_time, "gpuHours": args.gpu_hours, "usd": args.usd},
        "checkpointInterval": args.save_every,
        "resumeCommand": ["python3", "examples/pytorch/train.py"] + resume_args(argv) + ["--resume-from", "STEP_DIR"],
        "outputs": [os.path.join(args.out, "step-NNNNNNNNNNNN"), os.path.join(args.out, "experiment.json")]}
    if os.environ.get("STOWAGE_IMAGE_DIGEST"):
        capsule["imageDigest"] = os.environ["STOWAGE_IMAGE_DIGEST"]
    else:
        capsule["nativeException"] = {"host": platform.node() or "unknown",
                                      "toolchain": f"python {platform.python_version()}, torch {torch.__version__}",
                                      "reason": "run outside a container: STOWAGE_IMAGE_DIGEST names no image"}
    write_capsule(args.out, capsule)
    stop = StopContract(args.out)
    started = time.monotonic()
    wall_seconds = seconds(args.wall_time)
    first = 1
    if args.resume_from:
        model.load_state_dict(torch.load(os.path.join(args.resume_from, "model.pt")))
        optimizer.load_state_dict(torch.load(os.path.join(args.resume_from, "optimizer.pt")))
        with open(os.path.join(args.resume_from, "provenance.json"), encoding="utf-8") as handle:
            first = json.load(handle)["step"] + 1
        print(f"resumed from {args.resume_from} at step {first}", flush=True)
    step = first - 1
    for step in range(first, args.steps + 1):
        with log.training():
            began = time.monotonic()
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            rest = args.min_step_seconds - (time.monotonic() - began)
            if rest > 0:
                time.sleep(rest)
        log_step[0] = step
        if args.print_every and step % args.print_every == 0:
            print(f"step {step}: loss {loss.item():.8f}", flush=True)
        if step % args.save_every == 0:
            accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
            with log.checkpoint():
                path = save_step(args.out, step, model, optimizer,
                                 dict(base, step=step, loss=round(loss.item(), 6), accuracy=round(accuracy, 4)))
            log.progress(step)
            print(f"step {step}: loss {loss.item():.4f} accuracy {accuracy:.3f} -> {path}", flush=True)
        if args.stop_after and step >= args.stop_after:
            print(f"stopped after step {step} (--stop-after)", flush=True)
            return
        request = stop.requested()
        capped = wall_seconds and time.monotonic() - started >= wall_seconds
        if request or capped:
            path = os.path.join(args.out, f"step-{step:012d}")
            if step % args.save_every != 0:
                accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
                with log.checkpoint():
                    path = save_step(args.out, step, model, optimizer,
                                     dict(base, step=step, loss=round(loss.item(), 6), accuracy=round(accuracy, 4)))
            if request:
                stop.answer(request, step, path)
            why = f"stop requested ({request.get('reason')})" if request else f"wall-time cap {args.wall_time} reached"
            log.finished(step, "stopped", request.get("reason") if request else "wall-time")
            print(f"step {step}: {why}; saved {path}, exiting", flush=True)
            return
    log.finished(step, "completed")


if __name__ == "__main__":
    main()
