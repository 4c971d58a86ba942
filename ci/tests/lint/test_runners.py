"""ci/lint/runners.py: the labels the matrix and the workflows run on are
GitHub-hosted and current; a retired one is named with its replacement."""
import datetime

from ci.lint import runners as check_runners
from ci.plan import matrix

TODAY = datetime.date(2026, 11, 25)


def test_the_matrix_and_workflows_run_on_current_labels():
    used = check_runners.used_labels(matrix.load())
    assert ("ci/matrix.toml platforms.macos-arm64", "macos-15") in used
    assert any(where.startswith(".github/workflows/release.yml") for where, _ in used)
    assert check_runners.errors(used, check_runners.load_labels(), datetime.date.today()) == []


def test_a_retired_unknown_or_expired_label_is_an_error_naming_what_to_do():
    labels = check_runners.load_labels()
    (retired,) = check_runners.errors([("m", "macos-14")], labels, TODAY)
    assert "macos-14 was retired on 2026-11-02" in retired and "use macos-15" in retired
    (unknown,) = check_runners.errors([("m", "macos-14-xlarge")], labels, TODAY)
    assert "not a GitHub-hosted label" in unknown
    assert check_runners.errors([("m", "macos-15-intel")], labels, TODAY) == []
    (expired,) = check_runners.errors([("m", "macos-15-intel")], labels, datetime.date(2027, 9, 1))
    assert "only until 2027-08-31" in expired


def test_every_listed_label_says_where_its_status_was_read():
    for name, entry in check_runners.load_labels().items():
        assert entry["status"] in ("available", "retired") and "read 20" in entry["source"], name
        if entry["status"] == "retired":
            assert entry["replacement"] in check_runners.load_labels(), name
