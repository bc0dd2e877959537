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

--resume-from STEP_DIR loads model.pt and optimizer.pt of a step (e.g. one fetched with
`stowage checkpoint fetch --latest`) and continues with the next step. Training is full-batch and
deterministic, so the resumed run's losses equal the uninterrupted run's (see docs/design/checkpoints.md).

The task: tell a spoken digit (files under digits/) from any other prompt, from the clip's
log-magnitude spectrum averaged over time (torch.stft). Runs on CPU with Debian's python3-torch:
  /usr/bin/python3 examples/pytorch/train.py --data examples/samples/speech-en-allison --out /tmp/ckpt
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import wave

import torch


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
    args = parser.parse_args()
    argv = sys.argv[1:]

    config = {"steps": args.steps, "save_every": args.save_every, "seed": args.seed, "lr": args.lr,
              "hidden": args.hidden, "n_fft": args.n_fft, "model": "mlp-2layer", "task": "digit-vs-prompt"}
    config_bytes = json.dumps(config, sort_keys=True).encode()
    torch.manual_seed(args.seed)
    x, y = load(args.data, args.n_fft)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[1], args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    os.makedirs(args.out, exist_ok=True)
    base = {"codeCommit": code_commit(), "configSha256": sha256_bytes(config_bytes),
            "dataManifestSha256": sha256_bytes(data_manifest(args.data)), "seed": args.seed,
            "config": config, "entrypoint": "examples/pytorch/train.py", "torch": torch.__version__}
    write_capsule(args.out, {
        "experimentId": args.experiment_id, "codeCommit": base["codeCommit"], "codeClean": code_clean(),
        "configSha256": base["configSha256"], "dataManifestSha256": base["dataManifestSha256"], "seed": args.seed,
        "runtimeProfile": f"cpu-torch-{torch.__version__}", "imageDigest": os.environ.get("STOWAGE_IMAGE_DIGEST"),
        "entrypoint": base["entrypoint"], "args": argv, "finalStep": args.steps,
        "hardware": f"{os.cpu_count()} CPU, torch threads {torch.get_num_threads()}, no GPU"})
    first = 1
    if args.resume_from:
        model.load_state_dict(torch.load(os.path.join(args.resume_from, "model.pt")))
        optimizer.load_state_dict(torch.load(os.path.join(args.resume_from, "optimizer.pt")))
        with open(os.path.join(args.resume_from, "provenance.json"), encoding="utf-8") as handle:
            first = json.load(handle)["step"] + 1
        print(f"resumed from {args.resume_from} at step {first}", flush=True)
    for step in range(first, args.steps + 1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if args.print_every and step % args.print_every == 0:
            print(f"step {step}: loss {loss.item():.8f}", flush=True)
        if step % args.save_every == 0:
            accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
            path = save_step(args.out, step, model, optimizer,
                             dict(base, step=step, loss=round(loss.item(), 6), accuracy=round(accuracy, 4)))
            print(f"step {step}: loss {loss.item():.4f} accuracy {accuracy:.3f} -> {path}", flush=True)
        if args.stop_after and step >= args.stop_after:
            print(f"stopped after step {step} (--stop-after)", flush=True)
            return


if __name__ == "__main__":
    main()
