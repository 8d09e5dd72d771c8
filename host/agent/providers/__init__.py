"""Model providers behind one small interface; `make_provider` picks one from settings."""

from __future__ import annotations

from host.agent.providers.base import Provider, ProviderError
from host.config import Settings


def make_provider(settings: Settings) -> Provider:
    if settings.provider == "demo":
        from host.agent.providers.demo import DemoProvider

        return DemoProvider(settings.demo_step_delay_ms / 1000)
    if settings.provider == "openai":
        from host.agent.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(settings)
    raise ProviderError(
        f"unknown provider {settings.provider!r}: set NIB_PROVIDER to 'demo' or 'openai'"
    )
