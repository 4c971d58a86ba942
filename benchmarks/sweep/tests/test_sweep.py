"""The sweep's case tables and verdicts, without a torch (the tools venv)."""
import ast
import math

from benchmarks.sweep import native_cases, python_cases, report
from tools.difftest import generate


def timed(fwd_ours, fwd_ref, bwd_ours=None, bwd_ref=None):
    ours = {"ok": True, "fwd": {"1": fwd_ours}, "bwd": {"1": bwd_ours} if bwd_ours else None}
    ref = {"ok": True, "fwd": {"1": fwd_ref}, "bwd": {"1": bwd_ref} if bwd_ref else None}
    return ours, ref


def row(name, ours, ref):
    return {"name": name, "call": name + "(x)", "ours": ours, "ref": ref}


def test_a_slow_row_fails_unless_known_and_a_known_row_fails_when_it_regresses():
    known = {"torch.known": {"slowdown": 3.0, "why": "a reason"}}
    rows = [row("torch.fast", *timed(1e-4, 1e-4)), row("torch.slow", *timed(4e-4, 1e-4)),
            row("torch.known", *timed(3e-4, 1e-4)), row("torch.worse", *timed(1e-4, 1e-4, 9e-4, 1e-4))]
    result = report.analyse(rows, known, 1.5)
    assert {r["name"] for r in result["slow"]} == {"torch.slow", "torch.known", "torch.worse"}
    assert {r["name"] for r in result["unexplained"]} == {"torch.slow", "torch.worse"}
    regressed = report.analyse([row("torch.known", *timed(7e-4, 1e-4))], known, 1.5)
    assert [r["name"] for r in regressed["unexplained"]] == ["torch.known"]


def test_differences_under_the_noise_floor_are_reported_but_not_gated():
    result = report.analyse([row("torch.tiny", *timed(2.5e-6, 1e-6))], {}, 1.5)
    assert abs(result["timed"][0]["worst"] - 2.5) < 1e-9 and not result["slow"]


def test_a_call_pytorch_runs_and_ours_fails_or_cannot_differentiate_fails_the_sweep():
    ours_error = {"ok": False, "error": "RuntimeError: no"}
    result = report.analyse([row("torch.broken", ours_error, timed(1, 1)[1]),
                             row("torch.nograd", *timed(1e-4, 1e-4, None, 1e-4)),
                             row("torch.both", ours_error, ours_error)], {}, 1.5)
    assert [r["name"] for r in result["ours_fail"]] == ["torch.broken", "torch.nograd"]
    assert [r["name"] for r in result["case_error"]] == ["torch.both"]


class ScriptedTimer:
    """Answers each request with the next of its scripted forward times."""

    def __init__(self, times):
        self.times, self.budgets = list(times), []

    def ask(self, request):
        self.budgets.append(request["budget"])
        return timed(self.times.pop(0), 1.0)[0]


def test_a_row_slow_by_chance_is_timed_again_and_a_row_slow_every_time_still_fails():
    from benchmarks.sweep import __main__ as sweep

    rows = [row("torch.unlucky", *timed(3e-4, 1e-4)), row("torch.slow", *timed(3e-4, 1e-4)),
            row("torch.fine", *timed(1e-4, 1e-4))]
    requests = {r["name"]: {"case": r["name"], "budget": 0.006, "threads": "1"} for r in rows}
    # Asked in row order: unlucky's second time is ordinary, slow's stays slow in both retimes.
    ours = ScriptedTimer([1e-4, 3e-4, 3e-4])
    ref = ScriptedTimer([1e-4, 1e-4, 1e-4])
    sweep.retime_slow_rows(rows, requests, ours, ref, 1.5)
    result = report.analyse(rows, {}, 1.5)
    assert [r["name"] for r in result["unexplained"]] == ["torch.slow"]
    assert ours.budgets == [0.006 * sweep.RETIME_FACTOR] * 3  # fine is never timed again


def test_known_slow_entries_have_a_reason_and_a_recorded_slowdown():
    known = report.load_known()
    assert known
    for name, entry in known.items():
        assert entry["why"].strip() and entry["slowdown"] > 1.5, name


def test_python_cases_parse_and_name_the_api_they_time():
    for name, body in python_cases.CASES.items():
        setup, expr = body if isinstance(body, tuple) else ("", body)
        ast.parse(setup)
        ast.parse(expr, mode="eval")
        assert name.split(".", 1)[0] in ("torch", "Tensor", "F", "linalg", "special", "fft"), name


def test_every_native_op_gets_medium_valid_candidates():
    cases = native_cases.candidates()
    names = {f.func.name for f in generate.functions() if not f.func.is_out_fn}
    assert {n.rsplit(".", 1)[-1] for n in cases} == names
    add = cases["torch.add"]
    assert len(add) == native_cases.CANDIDATES
    for case in add:  # medium, not the difftest's sizes of 0 to 5
        sizes = [math.prod(a["shape"]) for a in case["args"] if a.get("t") == "tensor"]
        assert max(sizes) >= 90_000, case["args"]
    assert all(a.get("kind") == "normal" for c in add for a in c["args"] if a.get("t") == "tensor")


def test_the_document_says_which_slow_rows_have_no_reason():
    # An unexplained row was once labelled "overhead below the noise floor".
    known = {"torch.known": {"slowdown": 3.0, "why": "a reason"}}
    rows = [row("torch.slow", *timed(4e-4, 1e-4)), row("torch.known", *timed(3e-4, 1e-4)),
            row("torch.tiny", *timed(2.5e-6, 1e-6))]
    text = report.markdown(report.analyse(rows, known, 1.5), {}, ("ours", "ref"), 1.5)
    slowest = text.split("## The slowest 20")[1].split("## Every row")[0]
    lines = {line.split("`")[1]: line for line in slowest.splitlines() if line.startswith("| `")}
    assert "no reason recorded" in lines["torch.slow"] and "noise floor" not in lines["torch.slow"]
    assert "a reason" in lines["torch.known"]
    assert "overhead below the noise floor" in lines["torch.tiny"]
