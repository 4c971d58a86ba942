"""Uploads the PyPI files: release.yml's publish step, on GitHub and under act.

    python -m ci publish DIR

The files of DIR (ci/publish/release.py pypi-files wrote them, check-upload passed
them) go to $PYPI_REPOSITORY_URL (default: PyPI's upload endpoint) with
twine. Credentials, in order:

- $PYPI_PASSWORD (with $PYPI_USERNAME, default `__token__`): where the
  workflow's secrets give one, as a local release under act does for its
  pypiserver (ci/rehearse/workflows.py);
- otherwise trusted publishing: the job's GitHub OIDC token (the job needs
  `id-token: write`) exchanged at the index for a short-lived upload token,
  the exchange PyPI documents and pypa/gh-action-pypi-publish performs.

With an OIDC token at hand the files are also signed (PEP 740 publish
attestations, `pypi-attestations sign`, keyless through Sigstore) and the
attestations uploaded with them, as that action does. Without one (under
act: no OIDC issuer), the upload carries no attestations and says so.

This replaces pypa/gh-action-pypi-publish, a Docker action whose image
(`python:3.12-slim`) cannot be built where no registry is reachable: the
same step then runs on GitHub and in the local release.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

PYPI_UPLOAD = "https://upload.pypi.org/legacy/"
ATTESTATION = ".publish.attestation"  # what `pypi-attestations sign FILE` writes beside FILE


def oidc_available() -> bool:
    return bool(os.environ.get("ACTIONS_ID_TOKEN_REQUEST_URL") and os.environ.get("ACTIONS_ID_TOKEN_REQUEST_TOKEN"))


def github_oidc_token(audience: str) -> str:
    url = os.environ["ACTIONS_ID_TOKEN_REQUEST_URL"]
    url += ("&" if "?" in url else "?") + urllib.parse.urlencode({"audience": audience})
    request = urllib.request.Request(url, headers={"Authorization": f"bearer {os.environ['ACTIONS_ID_TOKEN_REQUEST_TOKEN']}"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)["value"]


def oidc_base(repository_url: str) -> str:
    """Where the index's OIDC endpoints live: PyPI's are on pypi.org, not on
    upload.pypi.org; another index (TestPyPI) serves them on its own host."""
    url = urllib.parse.urlparse(repository_url)
    host = "pypi.org" if url.netloc == "upload.pypi.org" else url.netloc
    return f"{url.scheme}://{host}/_/oidc"


def trusted_publishing_token(repository_url: str) -> str:
    base = oidc_base(repository_url)
    with urllib.request.urlopen(f"{base}/audience", timeout=30) as r:
        audience = json.load(r)["audience"]
    body = json.dumps({"token": github_oidc_token(audience)}).encode()
    request = urllib.request.Request(f"{base}/mint-token", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.load(r)["token"]
    except urllib.error.HTTPError as e:
        raise SystemExit(f"publish: {base}/mint-token refused the OIDC token ({e.code}): {e.read().decode()[:2000]}\n"
                         "Is this workflow a trusted publisher of the project on the index?") from None


def files_of(directory: str) -> list[str]:
    files = sorted(glob.glob(os.path.join(directory, "*.whl")) + glob.glob(os.path.join(directory, "*.tar.gz")))
    if not files:
        raise SystemExit(f"publish: no wheel or sdist in {directory}")
    return files


def skip_existing(url: str) -> list[str]:
    """--skip-existing for PyPI and TestPyPI: a rerun of the job after a partial upload
    finishes it (docs/RELEASING.md). twine 7 refuses the option for other indexes."""
    return ["--skip-existing"] if urllib.parse.urlparse(url).netloc in ("upload.pypi.org", "test.pypi.org") else []


def twine_inputs(files: list[str], attested: bool) -> list[str]:
    """What twine uploads: the files, and with --attestations each file's
    `<file>.publish.attestation` (pypi-attestations sign writes it beside the file;
    twine 7 attaches only attestation files named on its command line)."""
    if not attested:
        return files
    attestations = [f + ATTESTATION for f in files]
    missing = [os.path.basename(f) for f, a in zip(files, attestations) if not os.path.exists(a)]
    if missing:
        raise SystemExit(f"publish: no attestation for {', '.join(missing)} after signing")
    return files + attestations


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    files = files_of(argv[1])
    url = os.environ.get("PYPI_REPOSITORY_URL") or PYPI_UPLOAD
    password = os.environ.get("PYPI_PASSWORD", "")
    if password:
        user, how = os.environ.get("PYPI_USERNAME") or "__token__", "with the password from the workflow's secrets"
    elif oidc_available():
        user, password, how = "__token__", trusted_publishing_token(url), "by trusted publishing"
    else:
        raise SystemExit("publish: no PYPI_PASSWORD secret and no OIDC token (the job needs `permissions: "
                         "id-token: write` for trusted publishing)")
    signed = oidc_available()
    if signed:
        subprocess.run([sys.executable, "-m", "pypi_attestations", "sign", *files], check=True)
        print(f"publish: signed {len(files)} files (PEP 740 publish attestations)")
    # Attestations made before this step go too (the release rehearsal writes stand-ins,
    # so that this command line is exercised with them against its pypiserver).
    attested = signed or all(os.path.exists(f + ATTESTATION) for f in files)
    if not attested:
        print("publish: no attestations: no OIDC token to sign with (a local run under act has no OIDC issuer)")
    attest = ["--attestations"] if attested else []
    print(f"publish: {len(files)} files to {url} {how}" + (", with PEP 740 attestations" if attested else ""),
          flush=True)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TWINE_")},
           "TWINE_USERNAME": user, "TWINE_PASSWORD": password, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "twine", "upload", "--non-interactive", "--disable-progress-bar",
                           *skip_existing(url), "--repository-url", url, *attest, *twine_inputs(files, attested)],
                          env=env)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
