"""The differential tester's own parts: deterministic cases, verdicts, the
deviations file. (Running it against PyTorch is ci/difftest.sh.)"""
from tools.difftest import compare, deviations, generate


def test_cases_are_seeded_and_cover_every_op():
    a, b = generate.generate(5, 600), generate.generate(5, 600)
    assert a == b
    assert generate.generate(6, 600) != a
    ops = {c["op"] for c in a}
    assert {f.func.full_name for f in generate.functions()} <= ops  # 600 cases reach every op


def _tensor(values, dtype="float32", shape=None):
    return {"t": "tensor", "dtype": dtype, "shape": shape or [len(values)], "values": values}


CASE = {"op": "add.Tensor", "name": "add", "args": [], "kwargs": {}, "call": "function"}


def test_verdicts():
    ok = {"result": _tensor([1.0, 2.0])}
    assert compare.verdict(CASE, ok, ok) == ("ok", "")
    assert compare.verdict(CASE, None, ok)[0] == "crash"
    assert compare.verdict(CASE, {"error": "RuntimeError", "message": "x"}, ok)[0] == "rejected"
    assert compare.verdict(CASE, ok, {"error": "RuntimeError", "message": "x"})[0] == "missing_check"
    assert compare.verdict(CASE, {"error": "IndexError", "message": ""}, {"error": "RuntimeError", "message": ""})[0] \
        == "exception_class"
    assert compare.verdict(CASE, {"result": _tensor([1.0, 2.0], "float64")}, ok)[0] == "dtype"
    assert compare.verdict(CASE, {"result": _tensor([1.0, 2.5])}, ok)[0] == "value"
    nan = {"result": _tensor(["nan", 2.0])}
    assert compare.verdict(CASE, nan, nan) == ("ok", "")
    assert compare.verdict(CASE, {"result": _tensor([1.0, 2.0 + 1e-6])}, ok) == ("ok", "")  # float32 tolerance


def test_random_ops_compare_metadata_only():
    case = dict(CASE, random=True)
    assert compare.verdict(case, {"result": _tensor([0.1, 0.9])}, {"result": _tensor([0.5, 0.2])}) == ("ok", "")


def test_deviations_need_a_reason_and_match_by_op_category_and_detail():
    known = deviations.load()
    assert all(d.reason for d in known.entries)
    assert known.match({"op": "linalg_vector_norm", "name": "linalg_vector_norm"}, "value",
                       "element 0: 0.08 where PyTorch has 0.0")
    assert not known.match({"op": "add.Tensor", "name": "add"}, "value", "element 0: 1 where PyTorch has 2")
    # An op's name covers its in-place form.
    assert known.match({"op": "remainder_.Tensor", "name": "remainder_"}, "value", "element 3: -0.375 where PyTorch has nan")


def test_bool_inputs_alone_compute_in_float32():
    case = {"op": "cos.out", "name": "cos", "kwargs": {}, "call": "out",
            "args": [{"t": "tensor", "dtype": "bool", "shape": [1]}]}
    ours, ref = {"result": _tensor([0.5403022766113281], "float64")}, {"result": _tensor([0.5403023362159729], "float64")}
    assert compare.verdict(case, ours, ref) == ("ok", "")
    masked = dict(case, args=[{"t": "tensor", "dtype": "float64", "shape": [1]}, {"t": "tensor", "dtype": "bool", "shape": [1]}])
    assert compare.verdict(masked, ours, ref)[0] == "value"  # a bool mask beside float64 keeps float64's tolerance


def test_deviations_can_require_the_call_arguments():
    known = deviations.load()
    call = {"op": "var.dim", "name": "var", "kwargs": {}}
    empty_dims = dict(call, args=[{"t": "tensor"}, {"t": "value", "v": []}, {"t": "value", "v": False}])
    some_dims = dict(call, args=[{"t": "tensor", "dtype": "float64"}, {"t": "value", "v": [0]}, {"t": "value", "v": False}])
    empty_dims["args"][0] = {"t": "tensor", "dtype": "float64", "kind": "special"}
    assert deviations.arguments_text(empty_dims) == "<tensor float64 special>, [], false"
    assert known.match(empty_dims, "grad", "grad[0]: element 0: 0.04 where PyTorch has 0.4")
    assert not known.match(some_dims, "grad", "grad[0]: element 0: 0.04 where PyTorch has 0.4")


def test_deviations_can_require_a_layout():
    # PyTorch's median reads memory it does not own only for an expanded input.
    known = deviations.load()
    call = {"op": "median.dim", "name": "median", "kwargs": {}}
    expanded = dict(call, args=[{"t": "tensor", "dtype": "float32", "layout": "expanded"}, {"t": "value", "v": -1}])
    plain = dict(call, args=[{"t": "tensor", "dtype": "float32", "layout": "contiguous"}, {"t": "value", "v": -1}])
    assert deviations.layouts_text(expanded) == "expanded"
    detail = "result[0]: element 0: 1.22 where PyTorch has 3e-41"
    assert known.match(expanded, "value", detail)
    assert not known.match(plain, "value", detail)


# A stand-in interpreter for run_both: prints one outcome per case, as
# worker.py does; a case marked "slow" takes 3 s the first time it runs.
FAKE_WORKER = """\
import json, os, sys, time
path, start = sys.argv[2], int(sys.argv[3])
cases = [json.loads(line) for line in open(path)][start:]
for c in cases:
    if c.get("slow"):
        marker = path.split(".retry")[0] + ".slow-ran"
        if not os.path.exists(marker):
            open(marker, "w").close()
            time.sleep(3)
    print(json.dumps({"id": c["id"], "result": None}), flush=True)
"""


def test_a_timeout_beside_the_reference_is_retried_alone(tmp_path, monkeypatch):
    from tools.difftest import __main__ as main
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\nexec {__import__('sys').executable} {tmp_path / 'fake.py'} \"$@\"\n")
    fake.chmod(0o755)
    (tmp_path / "fake.py").write_text(FAKE_WORKER)
    cases = [{"id": 1}, {"id": 2, "slow": True}, {"id": 3}]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(__import__("json").dumps(c) + "\n" for c in cases))
    monkeypatch.setattr(main, "CASE_TIMEOUT", 1.0)
    monkeypatch.setattr(main, "STARTUP_TIMEOUT", 2.0)  # also the first case's limit
    # The slow case finishes when run again alone: an outcome, not a hang.
    monkeypatch.setattr(main, "RETRY_TIMEOUT", 10.0)
    ours, _ = main.run_both(str(fake), str(fake), cases, str(path))
    assert sorted(ours) == [1, 2, 3] and all("crash" not in o for o in ours.values())
    # Still slow in the retry: a hang.
    (tmp_path / "cases.jsonl.slow-ran").unlink()
    monkeypatch.setattr(main, "RETRY_TIMEOUT", 1.0)
    (tmp_path / "fake.py").write_text(FAKE_WORKER.replace("if not os.path.exists(marker):", "if True:"))
    ours, _ = main.run_both(str(fake), str(fake), cases, str(path))
    assert main.is_hang(ours[2]) and "crash" not in ours[1] and "crash" not in ours[3]
