"""ci/publish/pypi.py: which credentials an upload uses, and trusted publishing's
token exchange against a stand-in for GitHub's OIDC endpoint and the index's."""
import http.server
import json
import threading

import pytest

from ci.publish import pypi as publish


def test_oidc_endpoints_of_pypi_and_other_indexes():
    assert publish.oidc_base("https://upload.pypi.org/legacy/") == "https://pypi.org/_/oidc"
    assert publish.oidc_base("https://test.pypi.org/legacy/") == "https://test.pypi.org/_/oidc"


def test_no_password_and_no_oidc_token_is_a_clear_error(tmp_path, monkeypatch):
    (tmp_path / "x-1.0-py3-none-any.whl").write_bytes(b"")
    for name in ("PYPI_PASSWORD", "ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit, match="id-token: write"):
        publish.main(["publish.py", str(tmp_path)])
    with pytest.raises(SystemExit, match="no wheel or sdist"):
        publish.main(["publish.py", str(tmp_path / "empty")])


class Endpoints(http.server.BaseHTTPRequestHandler):
    """GitHub's token endpoint and the index's audience and mint-token, on one server."""
    seen = {}

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802
        if self.path == "/_/oidc/audience":
            self.reply(200, {"audience": "the-index"})
        elif self.path.startswith("/github-token?"):
            self.seen["github"] = (self.path, self.headers["Authorization"])
            self.reply(200, {"value": "oidc-jwt"})
        else:
            self.reply(404, {})

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen["mint"] = body
        if body == {"token": "oidc-jwt"}:
            self.reply(200, {"token": "pypi-upload-token"})
        else:
            self.reply(422, {"message": "invalid-publisher"})

    def log_message(self, *args):
        pass


def test_trusted_publishing_exchanges_the_jobs_oidc_token(monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endpoints)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        monkeypatch.setenv("ACTIONS_ID_TOKEN_REQUEST_URL", f"{base}/github-token?api-version=2.0")
        monkeypatch.setenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "runner-secret")
        assert publish.trusted_publishing_token(f"{base}/legacy/") == "pypi-upload-token"
        path, auth = Endpoints.seen["github"]
        assert "audience=the-index" in path and "api-version=2.0" in path and auth == "bearer runner-secret"
        monkeypatch.setattr(publish, "github_oidc_token", lambda audience: "a-token-pypi-refuses")
        with pytest.raises(SystemExit, match=r"(?s)refused the OIDC token \(422\).*trusted publisher"):
            publish.trusted_publishing_token(f"{base}/legacy/")
    finally:
        server.shutdown()


def test_signed_uploads_name_each_files_attestation_for_twine(tmp_path):
    files = [str(tmp_path / "x-1.0-py3-none-any.whl"), str(tmp_path / "x-1.0.tar.gz")]
    assert publish.twine_inputs(files, attested=False) == files
    with pytest.raises(SystemExit, match="no attestation for x-1.0-py3-none-any.whl, x-1.0.tar.gz"):
        publish.twine_inputs(files, attested=True)
    for f in files:
        open(f + ".publish.attestation", "w").close()
    assert publish.twine_inputs(files, attested=True) == files + [f + ".publish.attestation" for f in files]


def test_only_pypi_skips_files_it_already_took():
    assert publish.skip_existing("https://upload.pypi.org/legacy/") == ["--skip-existing"]
    assert publish.skip_existing("https://test.pypi.org/legacy/") == ["--skip-existing"]
    assert publish.skip_existing("http://127.0.0.1:8080/") == []  # twine 7 refuses it for other indexes
