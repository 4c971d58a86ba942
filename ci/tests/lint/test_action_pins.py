"""check_action_pins.py: the workflows pin exactly ci/actions.toml's actions,
and a snapshot confirms each pin's tag. The synthetic cases run everywhere;
the last test checks the real pins against ../shared/actions where it exists."""

import pytest

from ci.lint import action_pins as pins_check

GOOD = "a" * 40
OTHER = "b" * 40


def write_refs(tmp_path, repo, lines):
    refs = tmp_path / "refs"
    refs.mkdir(exist_ok=True)
    (refs / (repo.replace("/", "+") + ".txt")).write_text("# header\n# <commit sha> <ref>\n" + "\n".join(lines) + "\n")
    return str(tmp_path)


def pin(repo="actions/checkout", tag="v4.2.2", sha=GOOD, **extra):
    return {f"{repo}@{sha}": dict(repo=repo, tag=tag, sha=sha, **extra)}


def test_workflow_uses_reads_pins_and_skips_local_workflows(tmp_path):
    (tmp_path / "w.yml").write_text(
        "jobs:\n  a:\n    steps:\n"
        f"      - uses: actions/checkout@{GOOD} # v4.2.2\n"
        "  b:\n    uses: ./.github/workflows/other.yml\n"
        f"      - uses: github/codeql-action/init@{OTHER} # v3\n")
    uses = pins_check.workflow_uses(str(tmp_path))
    assert [(u[1], u[2]) for u in uses] == [(f"actions/checkout@{GOOD}", "v4.2.2"),
                                            (f"github/codeql-action@{OTHER}", "v3")]
    assert uses[0][0].endswith("w.yml:4")


def test_consistency_names_each_disagreement():
    pins = {**pin(), **pin("actions/setup-python", "v5.6.0", OTHER)}
    uses = [("w.yml:1", f"actions/checkout@{GOOD}", "v4"),           # label differs
            ("w.yml:2", "actions/cache@v4", None),                    # not a SHA
            ("w.yml:3", f"actions/upload-artifact@{GOOD}", "v4.6.2")]  # not listed
    errors = pins_check.consistency_errors(pins, uses)
    assert any("w.yml:1" in e and "'v4'" in e for e in errors)
    assert any("w.yml:2" in e and "full commit SHA" in e for e in errors)
    assert any("w.yml:3" in e and "not in ci/actions.toml" in e for e in errors)
    assert any("setup-python" in e and "used by no workflow" in e for e in errors)
    assert pins_check.consistency_errors(pin(), [("w.yml:1", f"actions/checkout@{GOOD}", "v4.2.2")]) == []


def test_snapshot_confirms_contradicts_or_lacks(tmp_path):
    snapshots = write_refs(tmp_path, "actions/checkout", [f"{GOOD} v4.2.2", f"{OTHER} v3.0.1", f"{'c' * 40} v4.0.0"])
    assert pins_check.snapshot_verdicts(pin(), snapshots) == ([], [])
    # A commit that carries another tag (upload-pages-artifact's v3.0.1 labelled v4).
    errors, _ = pins_check.snapshot_verdicts(pin(tag="v4.0.0", sha=OTHER), snapshots)
    assert errors and "as v3.0.1, not v4.0.0" in errors[0]
    # A commit the snapshot does not hold (attest-build-provenance's 977bb37).
    errors, _ = pins_check.snapshot_verdicts(pin(sha="d" * 40), snapshots)
    assert errors and "no commit ddddddd; v4.2.2 is aaaaaaa" in errors[0]
    # No snapshot of that repository at all.
    errors, _ = pins_check.snapshot_verdicts(pin("pypa/cibuildwheel"), snapshots)
    assert errors and "no snapshot of pypa/cibuildwheel" in errors[0]


def test_unconfirmed_pins_are_reported_and_expire(tmp_path):
    snapshots = write_refs(tmp_path, "actions/checkout", [f"{GOOD} v4.2.2"])
    errors, notes = pins_check.snapshot_verdicts(pin(sha=OTHER, unconfirmed="snapshot too old"), snapshots)
    assert errors == [] and notes and notes[0].startswith("UNCONFIRMED") and "snapshot too old" in notes[0]
    errors, _ = pins_check.snapshot_verdicts(pin(unconfirmed="snapshot too old"), snapshots)
    assert errors and "drop `unconfirmed`" in errors[0]


def test_the_real_pins():
    snapshots = pins_check.find_snapshots(None)
    pins = pins_check.load_pins()
    assert pins_check.consistency_errors(pins, pins_check.workflow_uses()) == []
    if snapshots is None:
        pytest.skip("no shared/actions snapshots beside this checkout")
    errors, notes = pins_check.snapshot_verdicts(pins, snapshots)
    assert errors == []
    assert len(notes) == sum("unconfirmed" in p for p in pins.values())


def test_sync_writes_the_workflows_pins_into_the_list(tmp_path):
    toml = tmp_path / "actions.toml"
    toml.write_text(f'# the pins\n\n[[action]]\nrepo = "actions/checkout"\ntag = "v4.2.2"\nsha = "{GOOD}"\n\n'
                    f'[[action]]\nrepo = "actions/setup-python"\ntag = "v5.6.0"\nsha = "{GOOD}"\n')
    # A Dependabot update: checkout moved in both workflows, setup-python did not.
    uses = [("a.yml:3", f"actions/checkout@{OTHER}", "v7.0.1"), ("b.yml:9", f"actions/checkout@{OTHER}", "v7.0.1"),
            ("a.yml:5", f"actions/setup-python@{GOOD}", "v5.6.0")]
    assert pins_check.sync_pins(uses, str(toml)) == [f"actions/checkout -> v7.0.1 ({OTHER[:7]})"]
    pins = pins_check.load_pins(str(toml))
    assert pins[f"actions/checkout@{OTHER}"]["tag"] == "v7.0.1" and f"actions/setup-python@{GOOD}" in pins
    assert toml.read_text().startswith("# the pins\n")
    assert pins_check.consistency_errors(pins, uses) == []
    with pytest.raises(SystemExit, match="differs from another use of actions/checkout"):
        pins_check.sync_pins(uses + [("c.yml:1", f"actions/checkout@{GOOD}", "v4.2.2")], str(toml))
    with pytest.raises(SystemExit, match="no entry for actions/cache"):
        pins_check.sync_pins([("c.yml:1", f"actions/cache@{GOOD}", "v4")], str(toml))


def test_without_refs_the_checks_still_run_and_say_nothing_was_confirmed(monkeypatch, capsys):
    monkeypatch.setattr(pins_check, "find_snapshots", lambda explicit: None)
    assert pins_check.main([]) == 0
    out = capsys.readouterr().out
    assert "none was confirmed" in out and "0 confirmed by no snapshot" in out
