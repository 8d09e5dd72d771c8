"""Real ACP agents for the tests, installed by the test set-up with the machine's npm into
`.cache/acp-agents` (never committed), at pinned versions: claude-agent-acp after 0.49.0
needs Node 22. Tests that need them are skipped, with the reason, where npm is missing
or cannot reach its registry. Each agent runs offline against `ScriptedModels`."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "acp-agents"
PACKAGES = {
    "@zed-industries/codex-acp": "0.16.0",
    "@agentclientprotocol/claude-agent-acp": "0.49.0",
    "@google/gemini-cli": "0.61.0",
}
INSTALL_TIMEOUT_S = 600
START_TIMEOUT_S = 120  # a loaded machine starts Node agents slowly


def installed() -> Path:
    """The folder of the agents' executables, installing them on first use."""
    bin_dir = CACHE / "node_modules" / ".bin"
    stamp = CACHE / "installed.json"
    if stamp.exists() and json.loads(stamp.read_text()) == PACKAGES:
        return bin_dir
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the real ACP agents cannot be fetched")
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and json.loads(stamp.read_text()) == PACKAGES:
            return bin_dir
        specs = [f"{name}@{version}" for name, version in PACKAGES.items()]
        try:
            done = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(CACHE), *specs],
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.skip(f"npm did not install the ACP agents within {INSTALL_TIMEOUT_S} s")
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            pytest.skip(f"npm could not install the ACP agents (offline?): {last}")
        stamp.write_text(json.dumps(PACKAGES))
    return bin_dir


def codex(bin_dir: Path, home: Path, models_url: str) -> dict[str, Any]:
    """A settings entry for Codex against the scripted Responses endpoint."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        'model = "gpt-5.2-codex"\nmodel_provider = "fake"\napproval_policy = "on-request"\n'
        '[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{models_url}/v1"\nwire_api = "responses"\nrequires_openai_auth = false\n'
    )
    return {
        "command": str(bin_dir / "codex-acp"),
        "env": {"CODEX_HOME": str(home)},
        "timeout": START_TIMEOUT_S,
    }


def gemini(bin_dir: Path, home: Path, models_url: str) -> dict[str, Any]:
    """A settings entry for Gemini CLI against the scripted Gemini endpoint."""
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "GOOGLE_GEMINI_BASE_URL": models_url,
        "GEMINI_API_KEY": "offline-dummy-key",
        "HOME": str(home),
        "GEMINI_CLI_NO_RELAUNCH": "true",
    }
    return {
        "command": str(bin_dir / "gemini"),
        "args": ["--acp", "-m", "gemini-2.5-pro"],
        "env": env,
        "timeout": START_TIMEOUT_S,
    }


def claude(bin_dir: Path, home: Path, models_url: str) -> dict[str, Any]:
    """A settings entry for Claude Code against the scripted Messages endpoint."""
    home.mkdir(parents=True, exist_ok=True)
    env = {
        "ANTHROPIC_BASE_URL": models_url,
        "ANTHROPIC_API_KEY": "sk-ant-offline-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "CLAUDE_CODE_ENABLE_TASKS": "0",  # TodoWrite rather than TaskCreate
        "HOME": str(home),
        "IS_SANDBOX": "1",  # runs as root here
    }
    return {"command": str(bin_dir / "claude-agent-acp"), "env": env, "timeout": START_TIMEOUT_S}


def told(traces: Path, models: Any, lines: int = 60) -> str:
    """What a failed real-agent test saw: the last lines of each agent process's traffic
    (`NIB_ACP_TRACE`) and the scripted model's requests, to find why a turn waited."""
    parts = []
    for trace in sorted(traces.glob("*.log")):
        tail = trace.read_bytes().decode("utf-8", "replace").splitlines()[-lines:]
        parts.append(
            f"--- ACP traffic of {trace.name} (last {len(tail)} lines)\n"
            + "\n".join(line[:600] for line in tail)
        )
    asked = [(len(r.get("tools") or []), json.dumps(r)[-300:]) for r in models.requests]
    parts.append(
        f"--- the model was asked {len(asked)} times, unanswered script: {len(models.script)}"
    )
    parts.extend(f"{n} tools: ...{tail}" for n, tail in asked[-8:])
    return "\n".join(parts)
