"""torch.save / torch.load: round trips, and nothing but data is ever loaded."""
import io
import json
import pickle
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


def test_the_file_is_json_and_raw_bytes_not_pickle(tmp_path):
    path = tmp_path / "t.pt"
    torch.save({"x": torch.ones(2)}, path)
    with zipfile.ZipFile(path) as z:
        assert sorted(z.namelist()) == ["structure.json", "tensors/0"]
        assert json.loads(z.read("structure.json"))["format"] == "torch-zip-json"


def test_load_refuses_pickles_and_code(tmp_path):
    path = tmp_path / "evil.pt"
    path.write_bytes(pickle.dumps({"x": 1}))
    with pytest.raises(RuntimeError, match="not a file written by torch.save"):
        torch.load(path)
    with pytest.raises(ValueError, match="weights_only=False"):
        torch.load(path, weights_only=False)
    with pytest.raises(TypeError, match="cannot save an object of type"):
        torch.save({"f": lambda: 0}, tmp_path / "x.pt")


def test_map_location(tmp_path):
    path = tmp_path / "t.pt"
    torch.save({"w": torch.arange(3.0)}, path)
    assert torch.load(path, map_location="cpu")["w"].tolist() == [0.0, 1.0, 2.0]
    assert torch.load(path, map_location=torch.device("cpu"))["w"].device.type == "cpu"
    with pytest.raises(TypeError, match="map_location must be None, a str or a torch.device"):
        torch.load(path, map_location={"cuda:0": "cpu"})
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
