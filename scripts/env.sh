# Sourced by scripts/run (NIB_SETUP=app) and scripts/test (NIB_SETUP=test): make .venv
# with what that needs installed: the app's packages, or those and the tests', the
# bundle's and the benchmarks'. Each step is said before it runs.
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
HASH="$(cat pyproject.toml | sha256sum | cut -c1-16)"
STAMP=".venv/.installed-${NIB_SETUP:-app}-$HASH"
if [ ! -f "$STAMP" ] && [ ! -f ".venv/.installed-test-$HASH" ]; then
  if [ "${NIB_SETUP:-app}" = test ]; then
    echo "setting up .venv: the app's Python packages and the tests', the bundle's and the benchmarks' (a few minutes the first time)"
    EXTRAS="[test,package,bench]"
  else
    echo "setting up .venv: the app's Python packages (a minute or two the first time)"
    EXTRAS=""
  fi
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".$EXTRAS"
  rm -f .venv/.installed-*
  touch "$STAMP"
fi
export PATH="$ROOT/.venv/bin:$PATH"
