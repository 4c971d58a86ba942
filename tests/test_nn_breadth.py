"""The nn layers and functions written from other ops (torch/nn/_activations.py,
_losses.py, _layers.py and the modules over them): their errors, module
bookkeeping and the shapes they produce. Their values and gradients are
checked against PyTorch 2.13 in oracle/cases.py (functional_*, nn_modules_breadth)."""
import numpy as np
import pytest

import torch
import torch.nn as nn
import torch.nn.functional as F


@pytest.mark.parametrize("call,error,message", [
    (lambda: F.glu(torch.ones(2, 3), 1), RuntimeError, "Halving dimension must be even, but dimension 1 is size 3"),
    (lambda: F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2), RuntimeError,
     r"input.size\(-3\)=3 is not divisible by 4"),
    (lambda: F.group_norm(torch.ones(2, 3, 4), 2), RuntimeError,
     r"Expected number of channels in input to be divisible by num_groups, but got input of shape \[2, 3, 4\]"),
    (lambda: F.pad(torch.ones(1, 1, 3), (3, 3), mode="reflect"), RuntimeError,
     "Padding size should be less than the corresponding input dimension"),
    (lambda: F.bilinear(torch.ones(2, 3), torch.ones(2, 2, 4), torch.ones(1, 3, 4)), RuntimeError,
     "bilinear\\(\\): input dimensions do not match: got 2 and 3"),
    (lambda: F.embedding_bag(torch.tensor([1]), torch.ones(3, 2), torch.tensor([0]), mode="median"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda: F.softshrink(torch.ones(2), -1.0), RuntimeError,
     r"lambda must be in range \[0, 3.40282e\+38\] for input dtype Float, but found -1"),
    (lambda: F.prelu(torch.ones(2, 3), torch.ones(2)), RuntimeError, "Mismatch of parameter numbers and input channel"),
    (lambda: F.interpolate(torch.ones(1, 1, 4), scale_factor=2, mode="bilinear"), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.interpolate(torch.ones(1, 1, 4), size=3, scale_factor=2), ValueError,
     "only one of size or scale_factor should be defined"),
    # An empty output (or input) is PyTorch's RuntimeError, not a division by zero.
    (lambda: F.interpolate(torch.ones(1, 1, 3), size=0), RuntimeError,
     r"Input and output sizes should be greater than 0, but got input \(W: 3\) and output \(W: 0\)"),
    (lambda: F.interpolate(torch.ones(1, 1, 3, 3), scale_factor=1e-9, mode="bilinear"), RuntimeError,
     r"but got input \(H: 3, W: 3\) output \(H: 0, W: 0\)"),
    (lambda: F.interpolate(torch.ones(1, 1, 2, 0, 2), size=(2, 2, 2)), RuntimeError,
     r"but got input \(D: 2, H: 0, W: 2\) output \(D: 2, H: 2, W: 2\)"),
    (lambda: F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), p=3), ValueError,
     "only p == 1 and p == 2 supported"),
    (lambda: F.multi_margin_loss(torch.ones(1, 3), torch.tensor([8])), RuntimeError, "target out of range"),
    (lambda: F.multi_margin_loss(torch.ones(3), torch.tensor(-1)), RuntimeError, "target out of range"),
    (lambda: F.gaussian_nll_loss(torch.ones(2), torch.ones(2), -torch.ones(2)), ValueError,
     "var has negative entry"),
    (lambda: nn.TripletMarginLoss(margin=0), ValueError, "expected margin to be greater than 0"),
    (lambda: nn.GroupNorm(2, 3), ValueError, "num_channels must be divisible by num_groups"),
    (lambda: F.fold(torch.ones(1, 9, 5), (4, 4), 3), RuntimeError, "calculated number of sliding blocks"),
    (lambda: F.pdist(torch.ones(2, 3, 4)), RuntimeError, "pdist only supports 2D tensors, got: 3D"),
])
def test_errors_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("module,shape,out_shape", [
    (nn.ConvTranspose2d(3, 5, 4, stride=2, padding=1), (2, 3, 7, 8), (2, 5, 14, 16)),
    (nn.ConvTranspose1d(3, 4, 3, stride=3, output_padding=1), (3, 5), (4, 16)),
    (nn.Conv3d(2, 4, (2, 3, 3), stride=(1, 2, 2), padding=1), (1, 2, 5, 6, 6), (1, 4, 6, 3, 3)),
    (nn.MaxPool3d(2), (2, 3, 4, 4, 6), (2, 3, 2, 2, 3)),
    (nn.AdaptiveAvgPool2d((5, 3)), (2, 7, 11), (2, 5, 3)),
    (nn.AdaptiveMaxPool1d(4), (2, 3, 9), (2, 3, 4)),
    (nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True), (1, 2, 3, 4), (1, 2, 5, 7)),
    (nn.UpsamplingNearest2d(scale_factor=3), (1, 2, 3, 4), (1, 2, 9, 12)),
    (nn.ReflectionPad3d(1), (1, 2, 3, 3, 3), (1, 2, 5, 5, 5)),
    (nn.CircularPad2d((1, 2, 0, 1)), (2, 3, 4), (2, 4, 7)),
    (nn.Unfold((2, 3), stride=(1, 2)), (2, 3, 5, 7), (2, 18, 12)),
    (nn.PixelUnshuffle(2), (1, 3, 4, 6), (1, 12, 2, 3)),
    (nn.InstanceNorm1d(3), (3, 7), (3, 7)),
    (nn.EmbeddingBag(10, 4, mode="max"), None, (2, 4)),
])
def test_shapes_and_gradients(module, shape, out_shape):
    module = module.double()
    if shape is None:
        out = module(torch.tensor([[1, 2, 3], [4, 5, 6]]))
    else:
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        out = module(x)
        out.sum().backward()
        assert x.grad is not None and x.grad.shape == x.shape
    assert tuple(out.shape) == out_shape


def test_sequential_edits_and_parameter_order():
    s = nn.Sequential(nn.Linear(1, 1), nn.ReLU(), nn.Tanh())
    s[0] = nn.Linear(1, 2)
    assert list(s._modules) == ["0", "1", "2"] and s[0].out_features == 2
    del s[1]
    assert list(s._modules) == ["0", "1"] and isinstance(s[1], nn.Tanh)
    s.insert(1, nn.ReLU())
    assert [type(m).__name__ for m in s] == ["Linear", "ReLU", "Tanh"]
    assert isinstance(s.pop(1), nn.ReLU) and len(s) == 2
    with pytest.raises(IndexError):
        s[5] = nn.ReLU()
    m = nn.Linear(2, 3)
    m.weight = nn.Parameter(torch.ones(3, 2))  # a reassigned parameter keeps its place (state_dict order)
    assert list(m.state_dict()) == ["weight", "bias"]
    assert list(dict(nn.ConvTranspose2d(2, 3, 2).named_parameters())) == ["weight", "bias"]


def test_alpha_dropout_keeps_mean_and_variance():
    torch.manual_seed(0)
    x = torch.randn(200000)
    y = F.alpha_dropout(x, 0.3, training=True)
    assert abs(float(y.mean())) < 0.02 and abs(float(y.std()) - 1) < 0.02
    assert torch.equal(F.alpha_dropout(x, 0.3, training=False), x)


def test_triangle_indices_match_a_mask():
    rows, cols = torch.triu_indices(4, 5, 1)
    assert bool((cols - rows >= 1).all()) and rows.numel() == int(torch.ones(4, 5).triu(1).sum())
    rows, cols = torch.tril_indices(5, 3, -1)
    assert bool((cols - rows <= -1).all()) and rows.numel() == int(torch.ones(5, 3).tril(-1).sum())


def test_softplus_family_gradient_at_zero():
    # The |x| + relu form of log(1 + e^x) has gradient 0 at x = 0; the true one is 1/2
    # (found by the oracle: Bernoulli.log_prob's gradient at p = 0.5 had the wrong sign).
    x = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    F.softplus(x).sum().backward()
    assert x.grad.tolist() == [0.5, 0.5, 0.5]
    x.grad = None
    F.binary_cross_entropy_with_logits(x, torch.ones(3, dtype=torch.float64), reduction="sum").backward()
    assert x.grad.tolist() == [-0.5, -0.5, -0.5]
    x.grad = None
    F.logsigmoid(x).sum().backward()
    assert x.grad.tolist() == [0.5, 0.5, 0.5]


def test_more_initialisers():
    torch.manual_seed(0)
    w = torch.empty(6, 10)
    nn.init.orthogonal_(w)
    assert torch.allclose(w @ w.T, torch.eye(6), atol=1e-5)
    t = torch.empty(100000)
    nn.init.trunc_normal_(t, mean=1.0, std=2.0, a=-1.0, b=2.0)
    assert float(t.min()) >= -1.0 and float(t.max()) <= 2.0 and 0.2 < float(t.mean()) < 0.7
    k = torch.empty(4, 2, 3, 3)
    nn.init.dirac_(k, groups=2)
    x = torch.randn(1, 2, 5, 5)
    assert torch.allclose(F.conv2d(x, k, padding=1)[:, [0, 1]], x)
    assert torch.equal(nn.init.eye_(torch.empty(2, 3)), torch.eye(2, 3))
    s = nn.init.sparse_(torch.empty(10, 4), 0.3)
    assert all(int((s[:, c] == 0).sum()) >= 3 for c in range(4))
    with pytest.warns(FutureWarning, match="nn.init.normal` is now deprecated in favor of `nn.init.normal_`"):
        nn.init.normal(torch.empty(3))


def test_torch_forms_of_nn_functions_take_aten_arguments():
    x = torch.tensor([0.2, -0.5, 1.5])
    t = torch.tensor([1.0, 0.0, 1.0])
    assert torch.equal(torch.binary_cross_entropy_with_logits(x, t, None, None, 0),
                       F.binary_cross_entropy_with_logits(x, t, reduction="none"))
    assert torch.equal(torch.kl_div(x, t.abs() + 0.1, 2), F.kl_div(x, t.abs() + 0.1, reduction="sum"))
    assert torch.equal(torch.dropout(x, 0.5, False), x)
    bn = torch.batch_norm(torch.ones(2, 3), torch.full((3,), 2.0), None, torch.zeros(3), torch.ones(3), False, 0.1,
                          0.0, True)
    assert torch.allclose(bn, torch.full((2, 3), 2.0))


def test_global_switches():
    torch.use_deterministic_algorithms(True, warn_only=True)
    assert torch.are_deterministic_algorithms_enabled() and torch.get_deterministic_debug_mode() == 1
    torch.use_deterministic_algorithms(False)
    torch.set_float32_matmul_precision("high")
    assert torch.get_float32_matmul_precision() == "high"
    torch.set_float32_matmul_precision("highest")
    with pytest.raises(RuntimeError, match="Invalid precision"):
        torch.set_float32_matmul_precision("low")
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled()
    assert not torch.is_inference_mode_enabled()
    with pytest.raises(NotImplementedError, match="anomaly detection"):
        torch.set_anomaly_enabled(True)
    assert torch.typename(torch.ones(1)) == "torch.FloatTensor" and torch.get_default_device() == torch.device("cpu")
    t = torch.zeros(5, 3)
    t.fill_diagonal_(5, wrap=True)
    assert t[:, 0].tolist() == [5, 0, 0, 0, 5]


def test_transformer_keys_masks_and_errors_are_pytorchs():
    m = nn.Transformer(8, 2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0)
    keys = list(m.state_dict())
    # PyTorch 2.13's order and names, so its checkpoints load.
    assert keys[:4] == ["encoder.layers.0.self_attn.in_proj_weight", "encoder.layers.0.self_attn.in_proj_bias",
                        "encoder.layers.0.self_attn.out_proj.weight", "encoder.layers.0.self_attn.out_proj.bias"]
    assert "decoder.layers.0.multihead_attn.in_proj_weight" in keys and "decoder.layers.0.norm3.bias" in keys
    assert keys[-2:] == ["decoder.norm.weight", "decoder.norm.bias"] and len(keys) == 34
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.tolist() == [[0.0, float("-inf"), float("-inf")], [0.0, 0.0, float("-inf")], [0.0, 0.0, 0.0]]
    src, tgt = torch.randn(5, 2, 8), torch.randn(3, 2, 8)
    assert m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(3)).shape == (3, 2, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        m(src, torch.randn(3, 4, 8))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal to d_model"):
        m(src, torch.randn(3, 2, 6))
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerDecoderLayer(8, 2, activation="tanh")
    # The matrices start Xavier-uniform: bounded by sqrt(6 / (fan_in + fan_out)).
    w = m.decoder.layers[0].linear1.weight
    assert w.abs().max() <= (6 / (8 + 16)) ** 0.5 and w.std() > 0.1


def _bags_reference(idx, weight, starts, ends, mode, padding_idx=None, psw=None):
    """embedding_bag in numpy: each bag's rows (padding_idx left out) summed,
    averaged or maxed; an empty bag is zeros."""
    out = []
    for a, b in zip(starts, ends):
        members = [i for i in range(a, b) if idx[i] != padding_idx]
        rows = np.array([weight[idx[i]] * (1.0 if psw is None else psw[i]) for i in members]).reshape(-1, weight.shape[1])
        if not len(rows):
            out.append(np.zeros(weight.shape[1]))
        else:
            out.append({"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0)}[mode])
    return np.array(out).reshape(len(starts), weight.shape[1])


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_against_numpy(mode):
    """Offsets with empty bags, include_last_offset, padding_idx, per-sample
    weights and 2-D input; the table's gradient counts each use (over the
    bag's size for mean)."""
    rng = np.random.default_rng(1)
    weight = rng.standard_normal((10, 3))
    idx = rng.integers(0, 10, 20)
    offsets = np.array([0, 4, 4, 11, 19])
    ends = list(offsets[1:]) + [20]
    w = torch.tensor(weight, requires_grad=True)
    got = F.embedding_bag(torch.from_numpy(idx), w, torch.from_numpy(offsets), mode=mode)
    np.testing.assert_allclose(got.detach().numpy(), _bags_reference(idx, weight, offsets, ends, mode), rtol=1e-12)
    got = F.embedding_bag(torch.from_numpy(idx), w, torch.from_numpy(offsets), mode=mode, include_last_offset=True)
    np.testing.assert_allclose(got.detach().numpy(), _bags_reference(idx, weight, offsets[:-1], ends[:-1], mode))
    pad = int(idx[5])
    got = F.embedding_bag(torch.from_numpy(idx), w, torch.from_numpy(offsets), mode=mode, padding_idx=pad)
    np.testing.assert_allclose(got.detach().numpy(), _bags_reference(idx, weight, offsets, ends, mode, pad))
    got = F.embedding_bag(torch.from_numpy(idx.reshape(4, 5)), w, mode=mode)
    np.testing.assert_allclose(got.detach().numpy(), _bags_reference(idx, weight, [0, 5, 10, 15], [5, 10, 15, 20], mode))
    if mode == "sum":
        psw = rng.standard_normal(20)
        got = F.embedding_bag(torch.from_numpy(idx), w, torch.from_numpy(offsets), mode="sum",
                              per_sample_weights=torch.from_numpy(psw))
        np.testing.assert_allclose(got.detach().numpy(), _bags_reference(idx, weight, offsets, ends, "sum", None, psw))
    if mode != "max":
        got = F.embedding_bag(torch.from_numpy(idx), w, torch.from_numpy(offsets), mode=mode)
        got.sum().backward()
        want = np.zeros_like(weight)
        for a, b in zip(offsets, ends):
            for i in range(a, b):
                want[idx[i]] += 1.0 if mode == "sum" else 1.0 / (b - a)
        np.testing.assert_allclose(w.grad.numpy(), want)


@pytest.mark.parametrize("kernel,stride,padding,dilation,ceil_mode", [
    (2, None, 0, 1, False), ((1, 3), (1, 2), 0, 1, False), (3, 2, 1, 1, False), (3, 1, 0, 2, True),
    (2, 2, 0, 1, True), ((2, 3), 1, (1, 1), 1, False)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32])
def test_max_pool_without_gradient_matches_the_indices_path(kernel, stride, padding, dilation, ceil_mode, dtype):
    # Without a gradient F.max_pool2d writes the values alone; they must be
    # the values of the path that records indices, NaN windows included.
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((2, 3, 9, 11))).to(dtype)
    if dtype.is_floating_point:
        x[0, 0, 2, 3] = float("nan")
        x[1, 2, :, 5] = float("nan")
    stride_arg = [] if stride is None else stride
    want, _ = torch._C._nn.max_pool2d_with_indices(x, kernel, stride_arg, padding, dilation, ceil_mode)
    got = F.max_pool2d(x, kernel, stride, padding, dilation, ceil_mode)
    assert torch.equal(got.isnan(), want.isnan()) if dtype.is_floating_point else True
    assert torch.equal(got.nan_to_num(0.5), want.nan_to_num(0.5))
    row = F.max_pool1d(x[:, :, 0], kernel if isinstance(kernel, int) else kernel[1])
    assert torch.equal(row.nan_to_num(0.5), torch._C._nn.max_pool2d_with_indices(
        x[:, :, :1], (1, kernel if isinstance(kernel, int) else kernel[1]))[0].squeeze(2).nan_to_num(0.5))
