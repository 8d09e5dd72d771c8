"""git as the tests and benchmarks run it: an identity, and none of the machine's own
configuration (a developer's global hooks, signing or aliases would change what git does)."""

from __future__ import annotations

import os

IDENTITY = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.org",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.org",
}


def git_env() -> dict[str, str]:
    """The environment less git's own variables, with IDENTITY and no global config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return {**env, **IDENTITY, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
