"""The host's settings: the environment first, then `settings.json` in the data directory.

The settings file holds the same names as the environment, e.g.
`{"NIB_PROVIDER": "openai", "NIB_OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}`.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.protocol import settings_file


class SettingsError(Exception):
    """A setting has a value the host cannot use; the message names the setting."""


@dataclass(frozen=True)
class Settings:
    provider: str = "demo"
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    model: str | None = None
    demo_step_delay_ms: int = 700
    max_steps: int = 100
    request_timeout_s: float = 60.0
    max_retries: int = 3
    stream: bool = True
    context_tokens: int | None = None  # NIB_CONTEXT_TOKENS: the model's window, if given

    def __repr__(self) -> str:  # never show the API key
        key = "set" if self.openai_api_key else "unset"
        return (
            f"Settings(provider={self.provider!r}, base_url={self.openai_base_url!r}, "
            f"model={self.model!r}, api_key={key})"
        )


def _int(values: Mapping[str, str], name: str, default: int, low: int) -> int:
    raw = values.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r}") from None
    if value < low:
        raise SettingsError(f"{name} must be at least {low}, not {value}")
    return value


def read_settings_file(data_dir: Path) -> dict[str, Any] | None:
    """`DIR/settings.json` as a JSON object (None when there is none); a file that cannot
    be read is a SettingsError naming it and the problem."""
    try:
        return settings_file.read_settings_file(data_dir)
    except settings_file.SettingsFileError as exc:
        raise SettingsError(str(exc)) from None


def load_settings(data_dir: Path | None, environ: Mapping[str, str] | None = None) -> Settings:
    env = dict(os.environ if environ is None else environ)
    values: dict[str, str] = {}
    if data_dir is not None:
        loaded = read_settings_file(data_dir)
        if loaded is not None:
            values.update({str(k): str(v) for k, v in loaded.items() if v is not None})
    values.update({k: v for k, v in env.items() if k.startswith("NIB_")})
    timeout = values.get("NIB_REQUEST_TIMEOUT_S", str(Settings.request_timeout_s))
    try:
        request_timeout = float(timeout)
    except ValueError:
        raise SettingsError(f"NIB_REQUEST_TIMEOUT_S must be a number, not {timeout!r}") from None
    default = Settings()
    return Settings(
        provider=values.get("NIB_PROVIDER", default.provider).strip().lower() or default.provider,
        openai_base_url=values.get("NIB_OPENAI_BASE_URL") or None,
        openai_api_key=values.get("NIB_OPENAI_API_KEY") or None,
        model=values.get("NIB_MODEL") or None,
        demo_step_delay_ms=_int(values, "NIB_DEMO_STEP_DELAY_MS", default.demo_step_delay_ms, 0),
        max_steps=_int(values, "NIB_MAX_STEPS", default.max_steps, 1),
        request_timeout_s=request_timeout,
        max_retries=_int(values, "NIB_MAX_RETRIES", default.max_retries, 0),
        stream=values.get("NIB_OPENAI_STREAM", "1").strip().lower() not in ("0", "false", "no"),
        context_tokens=_int(values, "NIB_CONTEXT_TOKENS", 0, 0) or None,
    )


_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
MIN_SECRET = 6  # shorter "keys" (a local server's "x") would blank ordinary words


class Secrets:
    """The credentials one host has loaded from its settings, hidden from every log record
    and every error it stores or sends. Owned by the host process and handed to what
    loads settings: nothing global, so one host (or test) never sees another's keys."""

    def __init__(self) -> None:
        self._keys: set[str] = set()

    def remember(self, settings: Settings) -> Settings:
        key = settings.openai_api_key
        if key and len(key) >= MIN_SECRET:
            self._keys.add(key)
        return settings

    def redact(self, text: str) -> str:
        """`text` without credentials: the user:password part of any URL, and the API
        keys remembered, wherever an endpoint echoed them."""
        text = _USERINFO.sub("***@", text)
        for key in self._keys:
            text = text.replace(key, "***")
        return text


class RedactingFilter(logging.Filter):
    """Credentials out of every log record (libraries log request URLs)."""

    def __init__(self, secrets: Secrets) -> None:
        super().__init__()
        self._secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = self._secrets.redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True
