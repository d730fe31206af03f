"""Every failure of the real console script is one line on stderr and exit 2 (130 when interrupted).

Exit 1 means "a gate failed", so a crash must never end with it; and an error found before scoring
must leave stdout and the output paths untouched.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.recording import write_recording

SCRIPT = Path(sys.executable).with_name("otel-groundedness")
RECORDING = Path(__file__).resolve().parents[1] / "data" / "otlp" / "demo-latest.jsonl"
NOT_UTF8_POLICY = b'{"locale": "en-US", "label_rule": "strict\xe9"}'
INVALID_POLICIES = {
    "kinds of the wrong type": json.dumps({"enabled_kinds": [[1]]}),
    "locale of the wrong type": json.dumps({"locale": ["en-US"]}),
    "number out of range": json.dumps({"min_alert_score": 7}),
    "not an object": "[1, 2]",
    "nested too deeply": "[" * 100_000,
    "integer of 5000 digits": '{"max_evidence_bytes": ' + "9" * 5000 + "}",
}


def _run(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=timeout, check=False
    )


def _assert_one_line_error(
    completed: subprocess.CompletedProcess[str], code: int = 2, *, mentions: str = ""
) -> str:
    assert "Traceback" not in completed.stderr, completed.stderr
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("otel-groundedness"), lines[0]
    assert mentions in lines[0]
    assert completed.returncode == code, completed.stderr
    return lines[0]


def _replay(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return _run("replay", *args, "--no-progress")


def test_a_number_with_5000_digits_is_invalid_input(tmp_path: Path) -> None:
    recording = tmp_path / "big-number.jsonl"
    recording.write_text(RECORDING.read_text() + '{"resourceSpans": [], "n": ' + "7" * 5000 + "}\n")
    _assert_one_line_error(_replay(recording), mentions="big-number.jsonl:3")


@pytest.mark.parametrize("option", ["--json", "--html", "--out"])
def test_an_output_path_that_is_a_directory_fails_before_the_summary(tmp_path: Path, option: str) -> None:
    completed = _replay(RECORDING, option, tmp_path)
    _assert_one_line_error(completed, mentions=str(tmp_path))
    assert completed.stdout == ""


@pytest.mark.parametrize("option", ["--json", "--html", "--out"])
def test_an_output_path_that_cannot_be_created_fails_before_the_summary(tmp_path: Path, option: str) -> None:
    (tmp_path / "file").write_text("a file, not a directory")
    target = tmp_path / "file" / "dir" / "report.out"
    completed = _replay(RECORDING, option, target)
    _assert_one_line_error(completed, mentions="report.out")
    assert completed.stdout == ""


@pytest.mark.skipif(not Path("/dev/full").is_char_device(), reason="needs /dev/full")
@pytest.mark.parametrize("option", ["--json", "--html", "--out"])
def test_a_full_disk_is_invalid_output(option: str) -> None:
    # A device is written in place (never replaced by a file); /dev/full fails every write with ENOSPC.
    completed = _replay(RECORDING, option, "/dev/full")
    _assert_one_line_error(completed, mentions="No space left on device")
    assert completed.stdout == ""
    assert Path("/dev/full").is_char_device()


def test_outputs_are_left_untouched_when_the_input_is_invalid(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("previous report")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(RECORDING.read_text() + "{oops\n")
    _assert_one_line_error(
        _replay(bad, "--json", report, "--html", tmp_path / "r.html"), mentions="bad.jsonl"
    )
    assert report.read_text() == "previous report"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.jsonl", "report.json"]


@pytest.mark.parametrize("command", ["replay", "score"])
def test_a_policy_file_that_is_not_utf8_is_invalid_input(tmp_path: Path, command: str) -> None:
    policy = tmp_path / "policy.json"
    policy.write_bytes(NOT_UTF8_POLICY)
    args = [RECORDING, "--no-progress"] if command == "replay" else ["--answer", "Total $1,243,500."]
    _assert_one_line_error(_run(command, *args, "--policy", policy), mentions="policy.json")


# One loader (GroundednessPolicy.from_file) behind every command's --policy.
_POLICY_COMMAND_ARGS: dict[str, list[str | Path]] = {
    "replay": [RECORDING, "--no-progress"],
    "score": ["--answer", "Total $1,243,500."],
    "gateway": ["--grpc-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0", "--prometheus-listen", "off"],
}


@pytest.mark.parametrize("command", _POLICY_COMMAND_ARGS)
@pytest.mark.parametrize("content", INVALID_POLICIES.values(), ids=INVALID_POLICIES.keys())
def test_an_invalid_policy_is_invalid_input(tmp_path: Path, command: str, content: str) -> None:
    policy = tmp_path / "policy.json"
    policy.write_text(content)
    args = _POLICY_COMMAND_ARGS[command]
    _assert_one_line_error(_run(command, *args, "--policy", policy), mentions="invalid policy")


def _input_file(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.input"
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "gzip":
        path.write_bytes(gzip.compress(RECORDING.read_bytes()))
    elif kind == "protobuf_garbage":
        path.write_bytes((12).to_bytes(4, "big") + bytes(range(200, 212)) + os.urandom(64))
    elif kind == "length_past_the_end":
        path.write_bytes((1 << 31).to_bytes(4, "big") + b"\x0a\x00")
    elif kind == "blank_lines":
        path.write_text("\n\n   \n")
    return path


@pytest.mark.parametrize(
    "kind", ["directory", "empty", "gzip", "protobuf_garbage", "length_past_the_end", "blank_lines"]
)
def test_unusable_input_files_are_invalid_input(tmp_path: Path, kind: str) -> None:
    path = _input_file(tmp_path, kind)
    _assert_one_line_error(_replay(path), mentions=path.name)


def test_a_missing_input_file_is_invalid_input(tmp_path: Path) -> None:
    _assert_one_line_error(_replay(tmp_path / "absent.jsonl"), mentions="absent.jsonl")


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux /proc")
def test_an_input_file_that_fails_to_read_is_invalid_input() -> None:
    # A regular file whose read fails with EIO (the process's own memory at address 0): an
    # unreadable file even for root, who may read files whatever their permission bits.
    _assert_one_line_error(_replay("/proc/self/mem"), mentions="/proc/self/mem")


@pytest.mark.parametrize("command", ["replay", "score"])
def test_a_closed_stdout_is_one_line_and_exit_2(command: str) -> None:
    args = [RECORDING, "--no-progress"] if command == "replay" else ["--answer", "Total $1,243,500."]
    process = subprocess.Popen(
        [str(SCRIPT), command, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head` does once it has read enough
    stderr = process.stderr.read()
    completed = subprocess.CompletedProcess(process.args, process.wait(timeout=120), "", stderr)
    _assert_one_line_error(completed, mentions="broken pipe")


def _sigint_as_in_a_terminal() -> None:
    """Give the child SIGINT's default action. A runner started in the background (``cmd &`` in a
    script, ``nohup``) ignores SIGINT, its children inherit that, and Python then installs no
    KeyboardInterrupt handler: the interrupt these tests send would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupt_exits_130_without_a_traceback(tmp_path: Path) -> None:
    recording = tmp_path / "long.jsonl"
    write_recording(recording, 4 * 1024 * 1024)
    process = subprocess.Popen(
        [str(SCRIPT), "replay", str(recording), "--no-progress", "--json", str(tmp_path / "r.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_sigint_as_in_a_terminal,
    )  # fmt: skip
    try:
        # Interrupt once the command has opened its input: it is then inside the replay, not starting up.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _has_open(process.pid, recording):
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    _assert_one_line_error(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), 130)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["long.jsonl"]


def test_ctrl_c_while_workers_score_stops_them_all(tmp_path: Path) -> None:
    recording = tmp_path / "long.jsonl"
    # Large enough that the replay is still scoring when Ctrl-C arrives (4 MiB once finished first).
    write_recording(recording, 24 * 1024 * 1024)
    args = ["replay", str(recording), "--no-progress", "--jobs", "2", "--json", str(tmp_path / "r.json")]
    process = subprocess.Popen(
        [str(SCRIPT), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_sigint_as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        children: list[int] = []
        while time.monotonic() < deadline and len(children := _children(process.pid)) < 2:
            time.sleep(0.02)
        assert len(children) >= 2, "the replay started no worker processes"
        time.sleep(2)  # the workers are past their start-up, scoring
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    _assert_one_line_error(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), 130)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["long.jsonl"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(map(_running, children)):
        time.sleep(0.05)
    assert not [pid for pid in children if _running(pid)]


def _children(pid: int) -> list[int]:
    """The worker processes of ``pid`` (multiprocessing's, started by spawn_main)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return [
            int(child) for child in children if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        ]
    except OSError:
        return []


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _has_open(pid: int, path: Path) -> bool:
    try:
        return any(os.readlink(fd) == str(path) for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def test_an_internal_error_is_one_line_and_not_a_gate_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from otel_groundedness.cli import main as cli_main
    from otel_groundedness.cli import replay_command

    def broken(args: object) -> int:
        raise RuntimeError("unexpected\nstate")

    monkeypatch.setattr(replay_command, "run", broken)
    monkeypatch.delenv("OTEL_GROUNDEDNESS_DEBUG", raising=False)
    assert cli_main.main(["replay", str(RECORDING)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" in err and "RuntimeError" in err
