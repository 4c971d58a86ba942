"""torch.save / torch.load: round trips, and nothing but data is ever loaded."""
import io
import json
import os
import pickle
import pickletools
import struct
import zipfile
from collections import OrderedDict

import pytest

import torch
from torch import nn


def _round_trip(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool])
def test_tensors_of_every_dtype(dtype):
    t = torch.arange(12).reshape(3, 4).to(dtype)
    back = _round_trip(t.t())  # non-contiguous in, same values out
    assert back.dtype == dtype and back.shape == (4, 3) and back.tolist() == t.t().tolist()


def test_nested_structures_and_modules(tmp_path):
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    obj = {"model": model.state_dict(), "epoch": 3, "lr": 0.1, "name": "run", "none": None, "tags": ("a", 1),
           "hist": [1.5, float("inf")], 7: "int key", "dtype": torch.float16}
    path = tmp_path / "ck.pt"
    torch.save(obj, path)
    back = torch.load(path)
    assert isinstance(back["model"], OrderedDict) and list(back["model"]) == ["0.weight", "0.bias"]
    assert back["model"]["0.weight"].tolist() == model[0].weight.tolist()
    assert back["epoch"] == 3 and back["tags"] == ("a", 1) and back[7] == "int key"
    assert back["hist"] == [1.5, float("inf")] and back["dtype"] == torch.float16
    p = _round_trip(nn.Parameter(torch.ones(2)))
    assert isinstance(p, nn.Parameter) and p.requires_grad


def test_the_file_is_pytorchs_zip_format(tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"x": torch.ones(2), "y": torch.arange(3)}, path)
    with zipfile.ZipFile(path) as z:
        names = sorted(z.namelist())
        assert names == ["ckpt/.data/serialization_id", "ckpt/.format_version", "ckpt/.storage_alignment",
                         "ckpt/byteorder", "ckpt/data.pkl", "ckpt/data/0", "ckpt/data/1", "ckpt/version"]
        assert z.read("ckpt/version") == b"3\n" and z.read("ckpt/byteorder") == b"little"
        assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
        ops = [(op.name, arg) for op, arg, _ in pickletools.genops(z.read("ckpt/data.pkl"))]
        assert ops[0] == ("PROTO", 2)
        assert ("GLOBAL", "torch._utils _rebuild_tensor_v2") in ops and ("GLOBAL", "torch FloatStorage") in ops
        assert ("GLOBAL", "torch LongStorage") in ops and ("BINPERSID", None) in ops
        assert z.read("ckpt/data/1") == struct.pack("<3q", 0, 1, 2)


def test_a_tensor_saved_twice_is_one_object_again():
    w = torch.ones(3)
    back = _round_trip({"a": w, "b": w, "tied": [nn.Parameter(torch.zeros(2))] * 2})
    assert back["a"] is back["b"] and back["tied"][0] is back["tied"][1]


def test_weights_only_refuses_code_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    path = tmp_path / "evil.pt"
    torch.save({"x": Evil()}, path)  # saving is allowed; loading it is what runs code
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL _?io.open was not an allowed "
                                                     "global by default"):
        torch.load(path)
    # Here it is a RuntimeError too, as every bad file is (PyTorch's is only an UnpicklingError).
    with pytest.raises(RuntimeError, match="Weights only load failed"):
        torch.load(path, weights_only=True)
    assert not marker.exists()
    (tmp_path / "raw.pkl").write_bytes(pickle.dumps({"x": 1}))
    with pytest.raises(RuntimeError, match="not a file written by torch.save"):
        torch.load(tmp_path / "raw.pkl")
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        torch.save({"f": lambda: 0}, tmp_path / "x.pt")


class Point:
    def __init__(self, x):
        self.x = x


def test_whole_modules_and_objects_with_weights_only_false_and_safe_globals(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    path = tmp_path / "model.pt"
    torch.save(model, path)
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
        torch.load(path)
    back = torch.load(path, weights_only=False)
    x = torch.randn(2, 3)
    assert type(back) is nn.Sequential and torch.equal(back(x), model(x))
    back(x).sum().backward()  # the loaded Parameters train
    assert back[0].weight.grad is not None

    torch.save({"p": Point(2.5)}, tmp_path / "point.pt")
    with torch.serialization.safe_globals([Point]):
        assert torch.load(tmp_path / "point.pt")["p"].x == 2.5
    with pytest.raises(pickle.UnpicklingError):
        torch.load(tmp_path / "point.pt")
    torch.serialization.add_safe_globals([Point])
    try:
        assert torch.load(tmp_path / "point.pt")["p"].x == 2.5
        assert Point in torch.serialization.get_safe_globals()
    finally:
        torch.serialization.clear_safe_globals()


def test_files_pytorch_wrote_load_and_pytorch_reads_ours():
    """tests/oracle/pytorch_checkpoint.pt was written by PyTorch 2.13 (oracle/record.py): a state_dict, views,
    every dtype, a Parameter and a whole pickled module."""
    path = os.path.join(os.path.dirname(__file__), "oracle", "pytorch_checkpoint.pt")
    state = torch.load(path)
    assert list(state["model"]) == ["0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var",
                                    "1.num_batches_tracked"]
    assert state["model"]["1.num_batches_tracked"].dtype == torch.int64
    assert state["transposed"].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert state["row"].tolist() == [3.0, 4.0, 5.0] and state["scalar"].item() == 2.5
    assert state["half"].dtype == torch.float16 and state["bf16"].tolist() == [1.5, -2.25]
    assert state["mask"].tolist() == [True, False] and state["int8"].tolist() == [-3, 7]
    assert isinstance(state["param"], nn.Parameter) and state["param"].requires_grad
    assert state["dtype"] == torch.bfloat16 and state["size"] == torch.Size([2, 3])
    assert state["empty"].shape == (0, 3)
    module = torch.load(path.replace("checkpoint", "module"), weights_only=False)
    assert type(module) is nn.Sequential and type(module[1]) is nn.BatchNorm1d
    out = module.eval()(torch.ones(1, 3, dtype=torch.float64))
    assert out.shape == (1, 4) and torch.allclose(out, torch.tensor(state["module_output"], dtype=torch.float64))


def test_legacy_json_files_still_load(tmp_path):  # this torch's first format; PyTorch never read it
    path = tmp_path / "old.pt"
    structure = {"format": "torch-zip-json", "version": 1, "root": {"dict": [["w", {
        "tensor": 0, "dtype": "float32", "shape": [2], "requires_grad": False, "parameter": False}]],
        "ordered": True}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("structure.json", json.dumps(structure))
        z.writestr("tensors/0", struct.pack("<2f", 1.5, -2.0))
    assert torch.load(path)["w"].tolist() == [1.5, -2.0]


def test_map_location(tmp_path):
    path = tmp_path / "t.pt"
    torch.save({"w": torch.arange(3.0)}, path)
    assert torch.load(path, map_location="cpu")["w"].tolist() == [0.0, 1.0, 2.0]
    assert torch.load(path, map_location=torch.device("cpu"))["w"].device.type == "cpu"
    assert torch.load(path, map_location={"cuda:0": "cpu"})["w"].tolist() == [0.0, 1.0, 2.0]
    assert torch.load(path, map_location=lambda storage, location: storage)["w"].tolist() == [0.0, 1.0, 2.0]
    # PyTorch fails later, calling the int; here the argument is refused up front.
    with pytest.raises(TypeError, match="map_location must be None, a str, a torch.device, a dict or a callable"):
        torch.load(path, map_location=3)
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="CUDA"):
            torch.load(path, map_location="cuda")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_tensors_come_back_to_their_device(tmp_path):
    path = tmp_path / "m.pt"
    model = torch.nn.Linear(3, 2).cuda()
    torch.save(model.state_dict(), path)
    state = torch.load(path)
    assert all(t.is_cuda for t in state.values())
    on_cpu = torch.load(path, map_location="cpu")
    assert all(torch.equal(on_cpu[k], state[k].cpu()) for k in state)
