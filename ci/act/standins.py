"""Local stand-ins for the GitHub-hosted actions the workflows use, for a tag
push run on this machine under act (ci/rehearse/workflows.py).

act maps every pinned action (ci/actions.toml) to ci/act/standin/, whose
main.cjs runs this file; GITHUB_ACTION_REPOSITORY names the action stood in
for and INPUT_<NAME> carries every input the step passed. Each stand-in
declares the inputs it honours, with the real action's defaults, at the
release it follows (the tag ci/actions.toml pins; ci/lint/action_pins.py
fails when the two part). Any other input fails the step, naming it, so a
workflow that starts using a new input fails here rather than on the first
real tag.

What each does: checkout clones the run's repository at the pushed ref;
setup-python gives a fresh venv of this machine's CPython of that version;
the artifact actions keep real files by name in the run's folder
(artifacts.py); configure-pages, deploy-pages and attest-build-provenance
need GitHub's services: they check what they can (the Pages artifact is
there, the attestation subjects exist) and say the rest is GitHub-only.

The environment ci/rehearse/workflows.py gives the jobs: TORCH_ACT_PYTHON (runs
this), TORCH_ACT_STANDINS (this folder), TORCH_ACT_ORIGIN (the clone that
checkout fetches from), TORCH_ACT_ARTIFACTS (the run's artifact folder).
"""
from __future__ import annotations

import dataclasses
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
from typing import Callable

from ci.act import artifacts


class StepError(Exception):
    """The step fails with this message (as the real action's error)."""


@dataclasses.dataclass(frozen=True)
class StandIn:
    repo: str
    follows: str  # the release whose inputs these are: ci/actions.toml's tag for the repo
    inputs: dict[str, str | None]  # the inputs honoured, with the real defaults (None: required)
    unimplemented: tuple[str, ...]  # the real action's other inputs, refused by name
    run: Callable[[dict[str, str]], None]


STANDINS: dict[str, StandIn] = {}


def standin(repo: str, follows: str, inputs: dict[str, str | None], unimplemented: tuple[str, ...] = ()):
    def register(run: Callable[[dict[str, str]], None]):
        STANDINS[repo] = StandIn(repo, follows, inputs, unimplemented, run)
        return run
    return register


def input_variable(name: str) -> str:
    """The environment variable the runner gives an input in (hyphens kept, as GitHub's runner does)."""
    return "INPUT_" + re.sub(r"[^A-Z0-9-]", "_", name.upper())


def read_inputs(stand_in: StandIn, environ: dict[str, str]) -> dict[str, str]:
    """The step's inputs, defaults filled in; unknown, unimplemented or missing required ones fail the step."""
    declared = {input_variable(n): n for n in stand_in.inputs}
    real = {input_variable(n): n for n in stand_in.unimplemented}
    where = f"{stand_in.repo} {stand_in.follows}"
    errors, values = [], {}
    for key, value in sorted(environ.items()):
        if not key.startswith("INPUT_"):
            continue
        if key in declared:
            values[declared[key]] = value
        elif key in real:
            errors.append(f"input '{real[key]}' of {where} is not implemented by its local stand-in "
                          "(ci/act/standins.py): teach the stand-in before the workflow uses it")
        else:
            errors.append(f"'{key[len('INPUT_'):].lower()}' is not an input of {where} "
                          f"(it has: {', '.join(sorted([*stand_in.inputs, *stand_in.unimplemented]))})")
    for name, default in stand_in.inputs.items():
        if values.get(name, "") == "":
            if default is None:
                errors.append(f"input required and not supplied: {name}")
            values[name] = default or ""
    if errors:
        raise StepError("; ".join(errors))
    return values


def boolean(inputs: dict[str, str], name: str) -> bool:
    """As the toolkit's getBooleanInput: true/True/TRUE or false/False/FALSE, nothing else."""
    value = inputs[name]
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    raise StepError(f"input '{name}' must be a boolean (true or false), not {value!r}")


def integer(inputs: dict[str, str], name: str) -> int:
    try:
        return int(inputs[name])
    except ValueError:
        raise StepError(f"input '{name}' must be a whole number, not {inputs[name]!r}") from None


def choice(inputs: dict[str, str], name: str, allowed: tuple[str, ...]) -> str:
    if inputs[name] not in allowed:
        raise StepError(f"input '{name}' must be one of {', '.join(allowed)}, not {inputs[name]!r}")
    return inputs[name]


def need_env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise StepError(f"{name} is not set: the local stand-ins run under python3 -m ci act-release")
    return value


def workspace() -> str:
    return need_env("GITHUB_WORKSPACE")


def inside_workspace(path: str) -> str:
    """A path input relative to the workspace, refused when it leaves it (as checkout refuses it)."""
    root = os.path.realpath(workspace())
    full = os.path.realpath(os.path.join(root, os.path.expanduser(path)))
    if os.path.commonpath([root, full]) != root:
        raise StepError(f"the path {path!r} is not under the workspace {root}")
    return full


def set_output(name: str, value: str) -> None:
    with open(need_env("GITHUB_OUTPUT"), "a") as f:
        f.write(f"{name}={value}\n")


def git(*args: str, cwd: str | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, text=True, capture_output=True)
    if proc.returncode != 0:
        raise StepError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout.strip()


@standin("actions/checkout", "v7.0.1",
         {"persist-credentials": "true", "path": "", "fetch-depth": "1"},
         ("repository", "ref", "token", "ssh-key", "ssh-known-hosts", "ssh-strict", "ssh-user", "clean",
          "filter", "sparse-checkout", "sparse-checkout-cone-mode", "fetch-tags", "show-progress", "lfs",
          "submodules", "set-safe-directory", "github-server-url"))
def checkout(inputs: dict[str, str]) -> None:
    """The run's commit, cloned from the local repository as GitHub clones it: at the pushed
    ref (detached at a tag), `fetch-depth` commits deep (0: all), origin the GitHub URL."""
    origin = need_env("TORCH_ACT_ORIGIN")
    dest = inside_workspace(inputs["path"])
    depth = integer(inputs, "fetch-depth")
    ref, sha = need_env("GITHUB_REF"), need_env("GITHUB_SHA")
    if os.path.isdir(dest):  # checkout's `clean`: what a job left there goes
        for entry in os.listdir(dest):
            path = os.path.join(dest, entry)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
    cmd = ["clone", "--quiet", "--no-local"] + (["--depth", str(depth)] if depth > 0 else [])
    short = re.sub(r"^refs/(tags|heads)/", "", ref)
    if short != ref:
        cmd += ["--branch", short]
    git(*cmd, "file://" + os.path.abspath(origin), dest)
    if short == ref:
        git("checkout", "--quiet", "--detach", sha, cwd=dest)
    head = git("rev-parse", "HEAD", cwd=dest)
    if head != sha:
        raise StepError(f"{ref} is {head} in {origin}, but the event's commit is {sha}")
    server, repository = need_env("GITHUB_SERVER_URL"), need_env("GITHUB_REPOSITORY")
    git("remote", "set-url", "origin", f"{server}/{repository}", cwd=dest)
    if boolean(inputs, "persist-credentials"):
        print("checkout: persist-credentials: no token exists in a local run, so none is stored")
    set_output("ref", ref)
    set_output("commit", sha)
    print(f"checkout: {repository}@{short} ({sha[:12]}) into {dest}, depth {depth or 'all'}")


@standin("actions/setup-python", "v7.0.0",
         {"python-version": ""},
         ("python-version-file", "cache", "architecture", "check-latest", "token", "cache-dependency-path",
          "update-environment", "allow-prereleases", "freethreaded", "pip-version"))
def setup_python(inputs: dict[str, str]) -> None:
    """A fresh venv of this machine's CPython of the version asked for, first on PATH, as the
    runner's tool-cache Python would be (what a job pip-installs stays out of the machine's)."""
    version = inputs["python-version"].strip()
    m = re.fullmatch(r"(3\.\d+)(\.\d+)?(t?)", version)
    if not m:
        raise StepError(f"python-version {version!r}: the local stand-in sets up CPython 3.X, 3.X.Y or 3.Xt")
    key = m[1] + m[3]
    from ci.local.cpython import discover_pythons  # ci/local/cpython.py: PATH, pyenv, /opt/python
    python = discover_pythons([key]).get(key)
    if not python:
        raise StepError(f"this machine has no CPython {key} (looked on PATH, in pyenv and /opt/python); "
                        f"install it, or build it with python3 -m ci build-cpython {key}")
    full = subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    if m[2] and full != m[1] + m[2]:
        raise StepError(f"python-version {version}: this machine's CPython {key} is {full}")
    venv = os.path.join(need_env("RUNNER_TEMP"), "setup-python", key)
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([python, "-m", "venv", venv], check=True)
    with open(need_env("GITHUB_PATH"), "a") as f:
        f.write(os.path.join(venv, "bin") + "\n")
    with open(need_env("GITHUB_ENV"), "a") as f:
        f.write(f"pythonLocation={venv}\n")
    set_output("python-version", full)
    set_output("python-path", os.path.join(venv, "bin", "python"))
    print(f"setup-python: CPython {full} from {python}, in a fresh venv {venv}")


@standin("actions/upload-artifact", "v7.0.0",
         {"name": "artifact", "path": None, "if-no-files-found": "warn", "overwrite": "false",
          "include-hidden-files": "false", "compression-level": "6", "retention-days": "", "archive": "true"})
def upload_artifact(inputs: dict[str, str]) -> None:
    files, root = artifacts.resolve_paths(inputs["path"], workspace(), boolean(inputs, "include-hidden-files"))
    if not files:
        mode = choice(inputs, "if-no-files-found", ("warn", "error", "ignore"))
        message = f"No files were found with the provided path: {inputs['path']}. No artifacts will be uploaded."
        if mode == "error":
            raise StepError(message)
        print(f"::warning::{message}" if mode == "warn" else message)
        return
    record = artifacts.upload(need_env("TORCH_ACT_ARTIFACTS"), inputs["name"], files, root,
                              overwrite=boolean(inputs, "overwrite"), archive=boolean(inputs, "archive"),
                              compression_level=integer(inputs, "compression-level"),
                              retention_days=integer(inputs, "retention-days") if inputs["retention-days"] else 0)
    run_url = f"{need_env('GITHUB_SERVER_URL')}/{need_env('GITHUB_REPOSITORY')}/actions/runs/{need_env('GITHUB_RUN_ID')}"
    set_output("artifact-id", str(record["id"]))
    set_output("artifact-url", f"{run_url}/artifacts/{record['id']}")
    set_output("artifact-digest", record["sha256"])
    print(f"upload-artifact: {record['name']}: {len(files)} files from {root} (sha256 {record['sha256']})")


@standin("actions/download-artifact", "v8.0.1",
         {"name": "", "pattern": "", "path": "", "merge-multiple": "false", "skip-decompress": "false",
          "digest-mismatch": "error"},
         ("artifact-ids", "github-token", "repository", "run-id"))
def download_artifact(inputs: dict[str, str]) -> None:
    """One artifact by name into `path`; otherwise every artifact (those matching `pattern`),
    each in a folder of its name under `path`, or all into `path` with merge-multiple."""
    store = need_env("TORCH_ACT_ARTIFACTS")
    dest = inside_workspace(inputs["path"]) if inputs["path"] else workspace()
    options = {"skip_decompress": boolean(inputs, "skip-decompress"),
               "digest_mismatch": choice(inputs, "digest-mismatch", ("error", "warn", "info", "ignore"))}
    if inputs["name"]:
        if inputs["pattern"]:
            print("::warning::download-artifact: both name and pattern given; the name is used")
        artifacts.download(store, inputs["name"], dest, **options)
        chosen = [inputs["name"]]
    else:
        merge = boolean(inputs, "merge-multiple")
        chosen = [n for n in artifacts.names(store) if not inputs["pattern"] or fnmatch.fnmatchcase(n, inputs["pattern"])]
        for name in chosen:
            artifacts.download(store, name, dest if merge else os.path.join(dest, name), **options)
    set_output("download-path", dest)
    print(f"download-artifact: Total of {len(chosen)} artifact(s) downloaded into {dest}: {', '.join(chosen)}")


@standin("actions/upload-pages-artifact", "v5.0.0",
         {"name": "github-pages", "path": "_site/", "retention-days": "1", "include-hidden-files": "false"})
def upload_pages_artifact(inputs: dict[str, str]) -> None:
    """The site folder as Pages takes it: artifact.tar (links followed, .git and .github and
    hidden files left out) uploaded as the artifact `name`."""
    tar = os.path.join(need_env("RUNNER_TEMP"), "artifact.tar")
    artifacts.pages_tar(inside_workspace(inputs["path"]), tar, boolean(inputs, "include-hidden-files"))
    record = artifacts.upload(need_env("TORCH_ACT_ARTIFACTS"), inputs["name"], [tar], os.path.dirname(tar),
                              retention_days=integer(inputs, "retention-days"))
    print(f"upload-pages-artifact: {inputs['path']} as {record['name']} (artifact.tar, {os.path.getsize(tar)} bytes)")


def github_only(repo: str, what: str) -> None:
    print(f"::notice::{repo}: {what} exists only on GitHub; in a local run this step checks its inputs and succeeds")


@standin("actions/configure-pages", "v5.0.0",
         {"static_site_generator": "", "generator_config_file": "", "token": "", "enablement": "false"})
def configure_pages(inputs: dict[str, str]) -> None:
    boolean(inputs, "enablement")
    github_only("actions/configure-pages", "the Pages API")


@standin("actions/deploy-pages", "v5.0.0",
         {"token": "", "timeout": "600000", "error_count": "10", "reporting_interval": "5000",
          "artifact_name": "github-pages", "preview": "false"})
def deploy_pages(inputs: dict[str, str]) -> None:
    """Checks that the artifact a deployment would take was uploaded; the deployment is GitHub's."""
    for name in ("timeout", "error_count", "reporting_interval"):
        integer(inputs, name)
    boolean(inputs, "preview")
    record = artifacts.record_of(need_env("TORCH_ACT_ARTIFACTS"), inputs["artifact_name"])
    print(f"deploy-pages: the {record['name']} artifact is there ({record['files']})")
    github_only("actions/deploy-pages", "deploying to Pages")


@standin("actions/attest-build-provenance", "v4.1.0",
         {"subject-path": "", "subject-digest": "", "subject-name": "", "subject-checksums": "",
          "push-to-registry": "false", "show-summary": "true", "github-token": ""})
def attest_build_provenance(inputs: dict[str, str]) -> None:
    """The subjects an attestation would cover, each with its sha256; signing is GitHub's."""
    boolean(inputs, "push-to-registry")
    boolean(inputs, "show-summary")
    given = [k for k in ("subject-path", "subject-digest", "subject-checksums") if inputs[k]]
    if len(given) != 1:
        raise StepError("exactly one of subject-path, subject-digest or subject-checksums must be given")
    if inputs["subject-digest"] and not inputs["subject-name"]:
        raise StepError("subject-name must be given with subject-digest")
    if inputs["subject-path"]:
        patterns = [p.strip() for p in re.split(r"[,\n]", inputs["subject-path"]) if p.strip()]
        subjects = sorted({f for p in patterns for f in glob.glob(os.path.join(workspace(), p), recursive=True)
                           if os.path.isfile(f)})
        if not subjects:
            raise StepError(f"Could not find subject at path {inputs['subject-path']}")
        for path in subjects:
            print(f"attest-build-provenance: subject {os.path.basename(path)} sha256:{artifacts.sha256(path)}")
    github_only("actions/attest-build-provenance", "signing with GitHub's OIDC token and its attestations API")


def main() -> int:
    # main.cjs set PYTHONPATH to the checkout to import this package; what a step runs must not see it (torch/).
    os.environ.pop("PYTHONPATH", None)
    repo = os.environ.get("GITHUB_ACTION_REPOSITORY", "")
    stand_in = STANDINS.get(repo)
    if stand_in is None:
        print(f"::error::no local stand-in for the action {repo or '(unnamed)'}: ci/act/standins.py has "
              f"{', '.join(sorted(STANDINS))}")
        return 1
    try:
        stand_in.run(read_inputs(stand_in, dict(os.environ)))
    except (StepError, artifacts.ArtifactError) as e:
        print(f"::error::{repo} (local stand-in): {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
