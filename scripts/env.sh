# Sourced by scripts/run and scripts/test: make .venv with everything installed.
# Python 3.11 takes PySide6 6.11.3 (6.12.0 aborts on 3.11); see pyproject.toml.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source "$ROOT/scripts/system-deps.sh"
PY="${NIB_PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
STAMP=".venv/.installed-$(cat pyproject.toml | sha256sum | cut -c1-16)"
if [ ! -f "$STAMP" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test,package,bench]"
  rm -f .venv/.installed-*
  touch "$STAMP"
fi
export PATH="$ROOT/.venv/bin:$PATH"
