"""Checks the workflows' action pins against ci/actions.toml, the actions'
refs and the local stand-ins.

    python3 -m ci check-action-pins [--snapshots DIR] [--sync]

Every `uses: owner/repo@<sha> # <tag>` in .github/workflows must be an entry
of ci/actions.toml (same SHA, same tag), and every entry must be used. Each
entry's SHA must carry its tag in the refs of the action's repository
(`<DIR>/refs/<owner>+<repo>.txt`, lines `<sha> <ref>`; DIR is --snapshots,
$TORCH_ACTIONS_SNAPSHOTS, or the first `shared/actions` found beside the
checkout or above it). No machine here reaches GitHub, so these refs are the
only witness that a pin names what its comment says. A pin no refs confirm
fails unless its entry says why (`unconfirmed`); those are printed on every
run, never passed silently. Without any refs the other checks still run and
the run says that nothing was confirmed. Last, each pinned action must have
a local stand-in (ci/act/standins.py) that follows the pinned release, so
that the tag push run here (ci/rehearse/workflows.py) keeps working after a pin
moves.

--sync, after the workflows' pins moved (a Dependabot update rewrites the
`uses:` lines and their tag comments), writes their SHAs and tags into
ci/actions.toml; the checks then run on the result.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import sys

from ci.act.standins import STANDINS
from ci.plan.matrix import tomllib
from ci.proc import CI, ROOT

PINS = os.path.join(CI, "actions.toml")
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
# `uses: owner/repo[/path]@ref # comment`.
_USES = re.compile(r"^[ \t]*(?:-[ \t]*)?uses:[ \t]*([^\s#]+)[ \t]*(?:#[ \t]*(\S+))?", re.M)
_SHA = re.compile(r"^[0-9a-f]{40}$")


def load_pins(path: str = PINS) -> dict[str, dict]:
    """ci/actions.toml's entries by `repo@sha`."""
    with open(path, "rb") as f:
        entries = tomllib.load(f)["action"]
    pins = {}
    for entry in entries:
        missing = {"repo", "tag", "sha"} - set(entry)
        if missing or not _SHA.match(entry["sha"]):
            raise SystemExit(f"{path}: entry {entry} needs repo, tag and a 40-hex sha")
        pins[f"{entry['repo']}@{entry['sha']}"] = entry
    return pins


def remote_uses(text: str) -> list[tuple[int, str, str | None]]:
    """(line, `owner/repo@ref`, comment tag) for each remote action a workflow
    or an action.yml uses; local (./) and docker:// uses are not pins."""
    found = []
    for m in _USES.finditer(text):
        target = m.group(1)
        if target.startswith(("./", "docker://")):
            continue
        owner_repo, _, ref = target.partition("@")
        repo = "/".join(owner_repo.split("/")[:2])  # owner/repo/sub/path -> owner/repo
        found.append((text.count("\n", 0, m.start()) + 1, f"{repo}@{ref}", m.group(2)))
    return found


def workflow_uses(workflows: str = WORKFLOWS) -> list[tuple[str, str, str | None]]:
    """(file:line, `owner/repo@ref`, comment tag) for each remote action used."""
    found = []
    for path in sorted(glob.glob(os.path.join(workflows, "*.yml")) + glob.glob(os.path.join(workflows, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            uses = remote_uses(f.read())
        found += [(f"{os.path.relpath(path, ROOT)}:{line}", target, tag) for line, target, tag in uses]
    return found


def consistency_errors(pins: dict[str, dict], uses) -> list[str]:
    errors = []
    used = set()
    for where, target, tag in uses:
        ref = target.partition("@")[2]
        if not _SHA.match(ref):
            errors.append(f"{where}: {target} is not pinned by a full commit SHA")
        elif target not in pins:
            errors.append(f"{where}: {target} is not in ci/actions.toml (after a pin update: --sync)")
        elif tag != pins[target]["tag"]:
            errors.append(f"{where}: {target} is labelled {tag!r}; ci/actions.toml says {pins[target]['tag']!r} "
                          "(after a pin update: --sync)")
        used.add(target)
    for target in sorted(set(pins) - used):
        errors.append(f"ci/actions.toml: {target} is used by no workflow")
    return errors


def standin_errors(pins: dict[str, dict], standins=STANDINS) -> list[str]:
    """A pinned action without a local stand-in, or whose stand-in follows another release."""
    errors = []
    for target, entry in sorted(pins.items()):
        stand_in = standins.get(entry["repo"])
        if stand_in is None:
            errors.append(f"{entry['repo']} has no local stand-in in ci/act/standins.py: "
                          "the tag push run here (ci/rehearse/workflows.py) cannot run it")
        elif stand_in.follows != entry["tag"]:
            errors.append(f"{entry['repo']} is pinned at {entry['tag']}, but its local stand-in follows "
                          f"{stand_in.follows}: read the action's changelog between the two for changed "
                          "inputs, update ci/act/standins.py, then its `follows`")
    return errors


def sync_pins(uses, path: str = PINS) -> list[str]:
    """ci/actions.toml's sha and tag set to what the workflows pin, one repo at a time;
    returns what changed. Every use of a repo must pin the same commit."""
    wanted: dict[str, tuple[str, str | None]] = {}
    for where, target, tag in uses:
        repo, _, sha = target.partition("@")
        if wanted.setdefault(repo, (sha, tag)) != (sha, tag):
            raise SystemExit(f"{where}: {target} # {tag} differs from another use of {repo} "
                             f"({wanted[repo][0][:7]} # {wanted[repo][1]}): pin one commit everywhere first")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    changed = []
    for repo, (sha, tag) in sorted(wanted.items()):
        entry = re.compile(rf'(repo = "{re.escape(repo)}"\ntag = )"[^"]*"(\nsha = )"[0-9a-f]*"')
        if not entry.search(text):
            raise SystemExit(f"{path}: no entry for {repo}: add one (repo, tag, sha) by hand")
        new = entry.sub(lambda m: f'{m[1]}"{tag}"{m[2]}"{sha}"', text)
        if new != text:
            changed.append(f"{repo} -> {tag} ({sha[:7]})")
            text = new
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return changed


def snapshot_refs(snapshots: str, repo: str) -> set[tuple[str, str]] | None:
    path = os.path.join(snapshots, "refs", repo.replace("/", "+") + ".txt")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return {tuple(line.split(None, 1)) for line in (raw.strip() for raw in f)
                if line and not line.startswith("#") and len(line.split(None, 1)) == 2}


def snapshot_verdicts(pins: dict[str, dict], snapshots: str) -> tuple[list[str], list[str]]:
    """(errors, notes): a pin whose snapshot contradicts it, or that no snapshot
    confirms without saying why, is an error; a documented unconfirmed pin is a note."""
    errors, notes = [], []
    for target, entry in sorted(pins.items()):
        sha, tag, repo = entry["sha"], entry["tag"], entry["repo"]
        refs = snapshot_refs(snapshots, repo)
        if refs is not None and (sha, tag) in refs:
            if "unconfirmed" in entry:
                errors.append(f"{target} # {tag} is confirmed by the snapshot now: drop `unconfirmed` from ci/actions.toml")
            continue
        if refs is None:
            why = f"no snapshot of {repo} in {snapshots}/refs"
        else:
            tagged = sorted(s for s, r in refs if r == tag)
            carries = sorted(r for s, r in refs if s == sha)
            why = (f"the snapshot has {sha[:7]} as {', '.join(carries)}, not {tag}" if carries else
                   f"the snapshot has no commit {sha[:7]}" + (f"; {tag} is {tagged[0][:7]}" if tagged else ""))
        if "unconfirmed" in entry:
            notes.append(f"UNCONFIRMED {target} # {tag}: {why} ({entry['unconfirmed']})")
        else:
            errors.append(f"{target} # {tag}: {why}")
    return errors, notes


def find_snapshots(explicit: str | None) -> str | None:
    if explicit:
        return explicit
    if os.environ.get("TORCH_ACTIONS_SNAPSHOTS"):
        return os.environ["TORCH_ACTIONS_SNAPSHOTS"]
    here = ROOT
    while True:
        candidate = os.path.join(here, "shared", "actions")
        if os.path.isdir(os.path.join(candidate, "refs")):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshots", help="the actions' refs (a folder holding refs/)")
    parser.add_argument("--sync", action="store_true", help="write the workflows' pins into ci/actions.toml first")
    args = parser.parse_args(argv)
    if args.sync:
        for change in sync_pins(workflow_uses()):
            print(f"check_action_pins: ci/actions.toml: {change}")
    pins = load_pins()
    errors = consistency_errors(pins, workflow_uses()) + standin_errors(pins)
    snapshots = find_snapshots(args.snapshots)
    notes = []
    if snapshots is None:
        notes.append("no snapshots of the actions found (shared/actions, TORCH_ACTIONS_SNAPSHOTS): "
                     "the pins match ci/actions.toml, but none was confirmed")
    else:
        snapshot_errors, notes = snapshot_verdicts(pins, snapshots)
        errors += snapshot_errors
    for note in notes:
        print(f"check_action_pins: {note}")
    for error in errors:
        print(f"check_action_pins: ERROR {error}", file=sys.stderr)
    if not errors:
        confirmed = len(pins) - len(notes) if snapshots else 0
        print(f"check_action_pins: {len(pins)} pins match the workflows; {confirmed} confirmed by "
              f"{snapshots or 'no snapshot'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
