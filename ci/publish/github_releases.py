"""The project's GitHub Releases: where every variant wheel lives, and what the
Pages indexes are rebuilt from on each release (ci/publish/release.py index).

    python -m ci github-releases create TAG DIR --notes NOTES  # the Release for TAG, every file of DIR an asset
    python -m ci github-releases list OUT                      # every Release with its assets, as JSON

On GitHub (GITHUB_REPOSITORY, GH_TOKEN) both run the runner image's `gh`.
A local release (ci/rehearse/workflows.py, ci/rehearse/steps.py) sets
TORCH_RELEASES_DIR and TORCH_RELEASES_URL instead: a folder per tag, served
over HTTP at that URL, so the same commands run on this machine.

`list` writes what GitHub's REST API answers for GET /repos/{repo}/releases,
reduced to what the index needs: tag_name, draft, prerelease, and assets with
name, browser_download_url, size and digest ("sha256:<hex>").

`create` on a tag that already has a Release (a rerun of the job) uploads the
files again over the same names and replaces the notes. Then it reads the
Release back: GitHub renames an asset whose name has characters it does not
take, and a wheel under another name cannot be installed, so any renamed or
missing asset, or one whose digest differs from the file, fails the step.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

from ci.proc import actions_error
from ci.publish.index import sha256


class ReleasesError(Exception):
    """The Releases could not be written or read as the index needs them."""


def release_files(directory: str) -> list[str]:
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if os.path.isfile(os.path.join(directory, f)))


def check_assets(tag: str, files: list[str], assets: list[dict]) -> None:
    """Every file is an asset under its own name with its digest (GitHub gives one since 2025)."""
    by_name = {a["name"]: a for a in assets}
    problems = []
    for path in files:
        base = os.path.basename(path)
        asset = by_name.get(base)
        if asset is None:
            problems.append(f"{base} is not an asset of {tag} under its own name (GitHub renames names "
                            f"it does not take; the Release has: {', '.join(sorted(by_name)) or 'nothing'})")
        elif asset.get("digest") and asset["digest"] != "sha256:" + sha256(path):
            problems.append(f"{base}: the Release's asset has {asset['digest']}, the file sha256:{sha256(path)}")
    if problems:
        raise ReleasesError(f"the Release {tag} does not hold the files as they are:\n  " + "\n  ".join(problems))


class LocalReleases:
    """Releases as folders on this machine, served over HTTP (TORCH_RELEASES_DIR at TORCH_RELEASES_URL)."""

    def __init__(self, root: str, url: str):
        self.root, self.url = root, url.rstrip("/")

    def create(self, tag: str, files: list[str], notes: str) -> list[dict]:
        folder = os.path.join(self.root, tag)
        os.makedirs(folder, exist_ok=True)
        for path in files:
            shutil.copy(path, folder)
        with open(os.path.join(folder, ".release.json"), "w") as f:
            json.dump({"tag_name": tag, "draft": False, "prerelease": False, "body": notes}, f)
        return self._release(tag)["assets"]

    def _release(self, tag: str) -> dict:
        folder = os.path.join(self.root, tag)
        with open(os.path.join(folder, ".release.json")) as f:
            release = json.load(f)
        release.pop("body", None)
        release["assets"] = [{"name": os.path.basename(p), "size": os.path.getsize(p), "digest": "sha256:" + sha256(p),
                              "browser_download_url": f"{self.url}/{urllib.parse.quote(tag)}/"
                                                      f"{urllib.parse.quote(os.path.basename(p))}"}
                             for p in release_files(folder) if not os.path.basename(p).startswith(".")]
        return release

    def list(self) -> list[dict]:
        if not os.path.isdir(self.root):
            return []
        tags = sorted(t for t in os.listdir(self.root) if os.path.exists(os.path.join(self.root, t, ".release.json")))
        return [self._release(t) for t in tags]


class GitHubReleases:
    """Releases on GitHub, through the `gh` CLI (GH_TOKEN from the job)."""

    ASSET_FIELDS = "{name, browser_download_url, size, digest}"

    def __init__(self, repo: str, gh: str = "gh"):
        self.repo, self.gh = repo, gh

    def _gh(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run([self.gh, *args, "--repo", self.repo] if args[0] == "release" else [self.gh, *args],
                              text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and proc.returncode != 0:
            raise ReleasesError(f"gh {' '.join(args[:2])} failed ({proc.returncode}): {proc.stderr.strip()}")
        return proc

    def create(self, tag: str, files: list[str], notes: str) -> list[dict]:
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write(notes)
            notes_file = f.name
        try:
            if self._gh("release", "view", tag, "--json", "tagName", check=False).returncode == 0:
                # A rerun: the Release is there, the files go up again over the same names.
                self._gh("release", "upload", tag, *files, "--clobber")
                self._gh("release", "edit", tag, "--notes-file", notes_file)
            else:
                self._gh("release", "create", tag, *files, "--verify-tag", "--title", tag, "--notes-file", notes_file)
        finally:
            os.remove(notes_file)
        # The REST answer, which has each asset's digest.
        out = self._gh("api", f"repos/{self.repo}/releases/tags/{tag}", "--jq", f".assets | map({self.ASSET_FIELDS})")
        return json.loads(out.stdout)

    def list(self) -> list[dict]:
        # One compact JSON object per line, whatever the number of pages.
        jq = f".[] | {{tag_name, draft, prerelease, assets: [.assets[] | {self.ASSET_FIELDS}]}} | @json"
        out = self._gh("api", "--paginate", f"repos/{self.repo}/releases", "--jq", jq).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]


def releases_from_environment(env: dict = os.environ):
    if env.get("TORCH_RELEASES_DIR"):
        if not env.get("TORCH_RELEASES_URL"):
            raise ReleasesError("TORCH_RELEASES_DIR is set without TORCH_RELEASES_URL (where that folder is served)")
        return LocalReleases(env["TORCH_RELEASES_DIR"], env["TORCH_RELEASES_URL"])
    if not env.get("GITHUB_REPOSITORY"):
        raise ReleasesError("neither GITHUB_REPOSITORY (on GitHub) nor TORCH_RELEASES_DIR (a local release) is set")
    return GitHubReleases(env["GITHUB_REPOSITORY"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("create")
    p.add_argument("tag")
    p.add_argument("dir")
    p.add_argument("--notes", required=True)
    sub.add_parser("list").add_argument("out")
    args = parser.parse_args(argv)
    try:
        releases = releases_from_environment()
        if args.command == "create":
            files = release_files(args.dir)
            if not files:
                raise ReleasesError(f"no files in {args.dir}")
            with open(args.notes) as f:
                assets = releases.create(args.tag, files, f.read())
            check_assets(args.tag, files, assets)
            print(f"the Release {args.tag} holds {len(files)} files, each under its own name and digest")
        else:
            found = releases.list()
            with open(args.out, "w") as f:
                json.dump(found, f, indent=1)
            print(f"{len(found)} Releases, {sum(len(r['assets']) for r in found)} assets: {args.out}")
    except ReleasesError as e:
        actions_error(str(e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
