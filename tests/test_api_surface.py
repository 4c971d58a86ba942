"""The everyday API around the ops: generators and RNG state, grad modes,
legacy constructors, Tensor helpers, autograd.Function, and the modules that
scripts import for GPU or multi-process paths on a CPU-only machine."""
import copy
import pickle
import warnings

import pytest

import torch
import torch.nn as nn


def test_generator_streams_are_independent_and_repeatable():
    g = torch.Generator().manual_seed(3)
    a = torch.randn(4, generator=g)
    torch.manual_seed(0)
    expected_global = torch.rand(3)
    torch.manual_seed(0)
    torch.randn(4, generator=torch.Generator().manual_seed(9))  # draws from g do not touch the global stream
    assert torch.equal(torch.rand(3), expected_global)
    assert torch.equal(a, torch.randn(4, generator=torch.Generator().manual_seed(3)))
    assert g.initial_seed() == 3
    g2 = torch.Generator().set_state(g.get_state())
    assert torch.equal(torch.rand(2, generator=g), torch.rand(2, generator=g2))


@pytest.mark.parametrize("draw", [
    lambda g: torch.rand(3, generator=g), lambda g: torch.randint(0, 100, (3,), generator=g),
    lambda g: torch.randperm(6, generator=g), lambda g: torch.multinomial(torch.ones(5), 3, generator=g),
    lambda g: torch.empty(3).uniform_(generator=g), lambda g: torch.empty(3).normal_(generator=g),
    lambda g: torch.bernoulli(torch.full((4,), 0.5), generator=g),
    lambda g: torch.empty(64).bernoulli_(0.3, generator=g), lambda g: torch.bernoulli(torch.ones(8), 0.5, generator=g),
    lambda g: torch.normal(torch.zeros(3), 1.0, generator=g),
])
def test_random_functions_take_a_generator(draw):
    assert torch.equal(draw(torch.Generator().manual_seed(4)), draw(torch.Generator().manual_seed(4)))


def test_rng_state_round_trip_and_bad_state():
    state = torch.get_rng_state()
    a = torch.rand(3)
    torch.set_rng_state(state)
    assert torch.equal(a, torch.rand(3))
    with pytest.raises(RuntimeError, match="not one that get_rng_state returned"):
        torch.set_rng_state(torch.zeros(3, dtype=torch.uint8))
    with pytest.raises(TypeError, match="uint8"):
        torch.set_rng_state(torch.zeros(3))
    with pytest.raises(TypeError, match="generator"):
        torch.rand(2, generator=5)


def test_multinomial_and_sampling_distribution():
    samples = torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 2000, replacement=True,
                                generator=torch.Generator().manual_seed(0))
    assert int((samples == 1).sum()) == 0 and 1650 < int((samples == 2).sum()) < 1950
    without = torch.multinomial(torch.ones(5), 5)
    assert sorted(without.tolist()) == [0, 1, 2, 3, 4]
    with pytest.raises(RuntimeError):
        torch.multinomial(torch.tensor([0.5, -1.0]), 1)


def test_inference_mode():
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        assert not torch.is_grad_enabled() and (x * 2).grad_fn is None
    with torch.inference_mode(False):
        assert torch.is_grad_enabled()

    @torch.inference_mode()
    def f():
        return torch.is_grad_enabled()

    @torch.inference_mode
    def g():
        return torch.is_grad_enabled()

    assert f() is False and g() is False and torch.is_grad_enabled()


def test_legacy_constructors_and_type():
    assert torch.LongTensor(3).shape == (3,) and torch.LongTensor(3).dtype == torch.int64
    assert torch.FloatTensor([1, 2]).tolist() == [1.0, 2.0]
    assert isinstance(torch.ones(2), torch.FloatTensor) and not isinstance(torch.ones(2), torch.LongTensor)
    t = torch.arange(3.0)
    assert t.type() == "torch.FloatTensor"
    assert t.type(torch.int64).dtype == torch.int64 and t.type("torch.DoubleTensor").dtype == torch.float64
    assert t.type(torch.LongTensor).dtype == torch.int64
    with pytest.raises(ValueError, match="invalid type"):
        t.type("torch.NoSuchTensor")


def test_tensor_helpers():
    t = torch.arange(6.0).reshape(2, 3)
    assert t.new_zeros(2, 2).dtype == torch.float32 and t.new_tensor([1, 2]).dtype == torch.float32
    assert t.new_ones((2,)).tolist() == [1.0, 1.0] and t.new_full((2,), 3).tolist() == [3.0, 3.0]
    assert torch.zeros(3, 2).view_as(t).shape == t.shape and torch.ones(1, 3).expand_as(t).shape == t.shape
    assert t.clip(1, 4).tolist() == [[1, 1, 2], [3, 4, 4]] and 2.0 in t and 7.0 not in t
    assert [u.tolist() for u in t.unbind(1)] == [[0, 3], [1, 4], [2, 5]]
    assert torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape == (3, 4, 2)
    assert torch.allclose(t, t + 1e-9) and not torch.equal(t, t + 1)
    assert torch.broadcast_shapes((2, 1), (3,)) == (2, 3)
    if torch.cuda.is_available():
        pinned = t.pin_memory()  # an ordinary copy: page-locking is not implemented
        assert torch.equal(pinned, t) and pinned.data_ptr() != t.data_ptr() and pinned.is_pinned() is False
        with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
            t.cuda().pin_memory()
    else:
        with pytest.raises(RuntimeError, match="accelerator"):
            t.pin_memory()
    assert t.is_pinned() is False


def test_pickle_and_deepcopy():
    t = torch.arange(4.0).requires_grad_()
    back = pickle.loads(pickle.dumps(t))
    assert back.tolist() == t.tolist() and back.requires_grad
    c = copy.deepcopy(t)
    assert c.tolist() == t.tolist() and c is not t
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(t * 2)
    m = nn.Linear(2, 2)
    m2 = copy.deepcopy(m)
    assert m2.weight is not m.weight and torch.equal(m2.weight, m.weight)


def test_autograd_function_backward_and_errors():
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    assert type(y.grad_fn).__name__ != "NoneType" and y.grad_fn.name() == "ExpBackward"
    y.sum().backward()
    assert torch.allclose(x.grad, x.detach().exp())
    with pytest.raises(RuntimeError, match="second time"):
        y.sum().backward()
    assert torch.autograd.gradcheck(Exp.apply, (torch.randn(3, dtype=torch.float64, requires_grad=True),))

    class WrongCount(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        WrongCount.apply(x).sum().backward()

    class Raises(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("from backward")

    with pytest.raises(ValueError, match="from backward"):
        Raises.apply(x).sum().backward()
    with torch.no_grad():
        assert Exp.apply(x).grad_fn is None


def test_autograd_function_needs_input_grad_and_mark_dirty():
    seen = []

    class ScaleBy(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, k):
            ctx.save_for_backward(x, w)
            ctx.k = k
            return x * w * k

        @staticmethod
        def backward(ctx, grad):
            seen.append(ctx.needs_input_grad)
            x, w = ctx.saved_tensors
            return (grad * w * ctx.k if ctx.needs_input_grad[0] else None,
                    grad * x * ctx.k if ctx.needs_input_grad[1] else None, None)

    x, w = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0])
    ScaleBy.apply(x, w, 2.0).sum().backward()
    assert seen == [(True, False, False)] and torch.equal(x.grad, torch.tensor([6.0, 8.0])) and w.grad is None

    class AddOneInPlace(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 3

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    out = AddOneInPlace.apply(b)
    assert out is b and torch.equal(b, torch.tensor([2.0, 3.0]))  # the input itself, modified
    assert b.grad_fn.name() == "AddOneInPlaceBackward" and b._version > 0
    b.sum().backward()
    assert torch.equal(a.grad, torch.tensor([3.0, 3.0]))
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        AddOneInPlace.apply(torch.ones(2, requires_grad=True))


def test_autograd_function_frees_its_graph():
    import gc
    import weakref

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Double.apply(torch.ones(3, requires_grad=True))
    ref = weakref.ref(y)
    del y
    gc.collect()
    assert ref() is None


def test_gpu_and_distributed_modules_on_a_cpu_machine():
    assert torch.backends.mps.is_available() is False and torch.backends.cudnn.is_available() is False
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.benchmark = True
    assert torch.backends.openmp.is_available() in (True, False)  # which one: tests/test_platform.py
    assert torch.distributed.is_available() is False
    from torch.nn.parallel import DataParallel, DistributedDataParallel

    with pytest.raises(RuntimeError, match="distributed"):
        DistributedDataParallel(nn.Linear(2, 2))
    m = nn.Linear(2, 2)
    assert torch.equal(DataParallel(m)(torch.ones(1, 2)), m(torch.ones(1, 2)))
    if not torch.cuda.is_available():
        assert torch.cuda.is_bf16_supported() is False
        assert torch.accelerator.is_available() is False and torch.accelerator.current_accelerator() is None
        with pytest.warns(UserWarning, match="Disabling"):
            assert torch.amp.GradScaler().is_enabled() is False
        with pytest.warns(UserWarning, match="Disabling autocast"):
            with torch.autocast("cuda"):
                assert not torch.is_autocast_enabled("cuda")


def test_cpu_autocast_is_real():
    a = torch.randn(2, 3)
    with torch.autocast("cpu"):
        assert (a @ a.T).dtype == torch.bfloat16 and torch.mm(a, a.T).dtype == torch.bfloat16
        assert nn.Linear(3, 2)(a).dtype == torch.bfloat16
        assert (a + a).dtype == torch.float32
        assert nn.functional.cross_entropy(a @ a.T, torch.tensor([0, 1])).dtype == torch.float32
    assert (a @ a.T).dtype == torch.float32
    with torch.autocast("cpu", enabled=False):
        assert (a @ a.T).dtype == torch.float32
    with pytest.raises(RuntimeError, match="unsupported autocast device_type"):
        torch.autocast("tpu")


def test_module_tools():
    enc = nn.Embedding(5, 4)
    dec = nn.Linear(4, 5, bias=False)
    dec.weight = enc.weight  # weight tying
    model = nn.ModuleDict({"enc": enc, "dec": dec})
    assert len(list(model.parameters())) == 1
    model.double()
    assert model["enc"].weight is model["dec"].weight and model["enc"].weight.dtype == torch.float64
    m = nn.Module()
    m.register_buffer("mask", torch.ones(2), persistent=False)
    m.register_buffer("stats", torch.zeros(2))
    assert list(m.state_dict()) == ["stats"] and len(list(m.buffers())) == 2
    params = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3))])
    pdict = nn.ParameterDict({"a": torch.ones(1)})
    assert all(isinstance(p, nn.Parameter) for p in params) and isinstance(pdict["a"], nn.Parameter)
    names = [n for n, _ in nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU())).named_modules()]
    assert names == ["", "0", "1", "1.0"]
    seen = []
    nn.Sequential(nn.Linear(2, 2), nn.ReLU()).apply(lambda mod: seen.append(type(mod).__name__))
    assert seen == ["Linear", "ReLU", "Sequential"]


def test_layer_argument_errors():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(RuntimeError, match="channels"):
        nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5))
    with pytest.raises(RuntimeError, match="input_size"):
        nn.LSTM(3, 4)(torch.ones(2, 1, 5))
    with pytest.raises(AssertionError, match="divisible by num_heads"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(RuntimeError, match="label_smoothing"):
        nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=1.5)
    with pytest.raises(RuntimeError, match="between 0 and 1"):
        nn.functional.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
    with pytest.raises(ValueError, match="dropout probability"):
        nn.functional.dropout2d(torch.ones(1, 2, 2, 2), 1.5)


def test_bernoulli_with_a_number():
    """bernoulli_(p): one draw seeds a counter-based stream, so the mask is the
    same for any number of threads, and its frequency is p."""
    torch.manual_seed(5)
    big = torch.empty(1_000_000).bernoulli_(0.3)
    assert abs(big.mean().item() - 0.3) < 0.002 and bool(((big == 0) | (big == 1)).all())
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        torch.manual_seed(5)
        assert torch.equal(torch.empty(1_000_000).bernoulli_(0.3), big)
    finally:
        torch.set_num_threads(threads)
    assert torch.rand(1).item() != torch.rand(1).item()  # the generator moved on
    for dtype in (torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.uint8, torch.bool):
        drawn = torch.empty(1000, dtype=dtype).bernoulli_(0.5)
        assert drawn.dtype == dtype and 400 < int(drawn.to(torch.int64).sum()) < 600
    assert torch.equal(torch.empty(5).bernoulli_(1.0), torch.ones(5))
    assert torch.equal(torch.empty(5).bernoulli_(0.0), torch.zeros(5))
    strided = torch.zeros(6, 4).t()
    strided.bernoulli_(0.5)  # not contiguous: drawn contiguous and copied in
    assert 4 < int(strided.sum()) < 20
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\]"):
            torch.empty(3).bernoulli_(bad)


def test_dropout_scales_what_it_keeps_as_pytorch():
    # PyTorch's CPU dropout: bernoulli_(1 - p), div_(1 - p), then input * noise (MulBackward0).
    x = torch.ones(200_000, requires_grad=True)
    out = nn.functional.dropout(x, 0.25)
    kept = out != 0
    assert out.grad_fn.name() == "MulBackward0"
    assert abs(kept.float().mean().item() - 0.75) < 0.01
    assert torch.equal(out[kept], torch.full((int(kept.sum()),), 1 / torch.tensor(0.75).item()))
    out.sum().backward()
    assert torch.equal(x.grad, out.detach())
    assert torch.equal(nn.functional.dropout(x, 1.0), torch.zeros(200_000))
    assert nn.functional.dropout(x, 0.0) is x
    y = torch.ones(1000)
    assert nn.functional.dropout(y, 0.5, inplace=True) is y and 300 < int((y == 0).sum()) < 700


def test_clip_grad_and_dropout2d():
    p = nn.Parameter(torch.tensor([3.0, 4.0]))
    p.grad = torch.tensor([3.0, 4.0])
    assert float(nn.utils.clip_grad_norm_([p], 1.0)) == pytest.approx(5.0)
    assert p.grad.norm().item() == pytest.approx(1.0, rel=1e-5)
    nn.utils.clip_grad_value_([p], 0.1)
    assert p.grad.tolist() == pytest.approx([0.1, 0.1])
    x = torch.ones(8, 16, 3, 3)
    out = nn.functional.dropout2d(x, 0.5, training=True)
    per_channel = out.reshape(8, 16, 9)
    assert bool(((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all())  # whole maps kept or dropped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(nn.Dropout2d(0.5).eval()(x), x)


@pytest.mark.parametrize("inplace", [False, True])
def test_feature_dropout_shape_rules_as_pytorch(inplace):
    F = nn.functional

    def channels_whole(out, lead):
        flat = out.reshape(*out.shape[:lead], -1)
        return bool(((flat == 0).all(-1) | (flat == 2).all(-1)).all())

    for fn, batched, unbatched in ((F.dropout1d, (4, 6, 50), (6, 50)), (F.dropout3d, (2, 6, 3, 4, 5), (6, 3, 4, 5))):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = fn(torch.ones(batched), 0.5, True, inplace)
            assert out.shape == batched and channels_whole(out, 2)
            out = fn(torch.ones(unbatched), 0.5, True, inplace)  # no batch dim: dim 0 is the channel
            assert out.shape == unbatched and channels_whole(out, 1)
    with pytest.raises(RuntimeError, match="dropout1d: Expected 2D or 3D input, but received a 4D input"):
        F.dropout1d(torch.ones(1, 2, 3, 4))
    # dropout2d of a 2-D input warns and drops element-wise (N, C) channels, as PyTorch does.
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d, which is deprecated"):
        out = F.dropout2d(torch.ones(30, 40), 0.5, True, inplace)
    assert out.shape == (30, 40) and 200 < int((out == 0).sum()) < 1000
    with pytest.warns(UserWarning, match="assuming that channel-wise 1D dropout behavior is desired"):
        out = F.dropout2d(torch.ones(4, 6, 50), 0.5, True, inplace)
    assert channels_whole(out, 2)
    with pytest.warns(UserWarning, match="Received a 3-D input to dropout3d"):
        assert F.dropout3d(torch.ones(6, 3, 4), 0.5, True, inplace).shape == (6, 3, 4)
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        F.dropout2d(torch.ones(5), 0.5, True, inplace)
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        F.feature_alpha_dropout(torch.ones(5), 0.5, True, inplace)
    x = torch.ones(6, 50)
    assert (F.dropout1d(x, 0.5, True, inplace) is x) == inplace
    assert x.shape == (6, 50)


def test_dropout_modules_honour_inplace():
    for cls in (nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d, nn.AlphaDropout, nn.FeatureAlphaDropout):
        x = torch.ones(2, 3, 4, 4, 4) if cls is nn.Dropout3d else torch.ones(2, 3, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # dropout2d's 3-D warning
            out = cls(0.5, inplace=True)(x)
        # PyTorch's alpha dropout modules do not pass inplace on.
        assert (out is x) == (cls not in (nn.AlphaDropout, nn.FeatureAlphaDropout)), cls.__name__


def test_fused_lstm_cell_paths_agree():
    # float32/float64 CPU tensors take the fused loop; other dtypes (and CUDA) the composite equations.
    gates = torch.randn(3, 8, dtype=torch.float64, requires_grad=True)
    cx = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    for output in (0, 1):
        assert torch.autograd.gradcheck(lambda g, c: torch._lstm_cell(g, c)[output], (gates, cx))
    # hy's and cy's gradients together (both reach the node).
    hy, cy = torch._lstm_cell(gates, cx)
    (hy.sum() + 2 * cy.sum()).backward()
    numeric = []
    for t in (gates, cx):
        flat = t.detach().clone().reshape(-1)
        grads = []
        for k in range(flat.numel()):
            def f(delta):
                p = flat.clone()
                p[k] += delta
                args = (p.reshape(t.shape), cx.detach()) if t is gates else (gates.detach(), p.reshape(t.shape))
                h, c = torch._lstm_cell(*args)
                return float(h.sum() + 2 * c.sum())
            grads.append((f(1e-6) - f(-1e-6)) / 2e-6)
        numeric.append(torch.tensor(grads, dtype=torch.float64).reshape(t.shape))
    assert torch.allclose(gates.grad, numeric[0], atol=1e-6) and torch.allclose(cx.grad, numeric[1], atol=1e-6)
    hy, cy = torch._lstm_cell(gates.float(), cx.float())
    hy_b, cy_b = torch._lstm_cell(gates.bfloat16(), cx.bfloat16())
    assert torch.allclose(hy_b.float(), hy, atol=2e-2) and torch.allclose(cy_b.float(), cy, atol=2e-2)
    with pytest.raises(RuntimeError, match=r"\[B, 4H\]"):
        torch._lstm_cell(torch.ones(3, 7), torch.ones(3, 2))


def _lstm_by_steps(lstm, x, h0, c0):
    """nn.LSTM's equations one step at a time (through _lstm_cell), batch-first input."""
    directions = 2 if lstm.bidirectional else 1
    layer_input, h_n, c_n = x.transpose(0, 1), [], []
    for layer in range(lstm.num_layers):
        outs = []
        for d in range(directions):
            w_ih, w_hh, b_ih, b_hh = lstm._weights(layer, d)
            h, c = h0[layer * directions + d], c0[layer * directions + d]
            seq = [None] * layer_input.shape[0]
            for t in (reversed(range(len(seq))) if d else range(len(seq))):
                gates = layer_input[t] @ w_ih.t() + b_ih + h @ w_hh.t() + b_hh
                h, c = torch._lstm_cell(gates, c)
                seq[t] = h
            outs.append(torch.stack(seq))
            h_n.append(h)
            c_n.append(c)
        layer_input = torch.cat(outs, -1)
    return layer_input.transpose(0, 1), torch.stack(h_n), torch.stack(c_n)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_layers_in_one_op_match_the_step_equations(bidirectional):
    # nn.LSTM runs each layer as torch._lstm_sequence; its values and every
    # gradient (weights, input, initial state) must be the step-by-step ones.
    torch.manual_seed(0)
    lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=bidirectional).double()
    x = torch.randn(2, 5, 3, dtype=torch.float64, requires_grad=True)
    h0 = torch.randn(2 * (1 + bidirectional), 2, 4, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(2 * (1 + bidirectional), 2, 4, dtype=torch.float64, requires_grad=True)
    params = [x, h0, c0] + list(lstm.parameters())
    out, (h_n, c_n) = lstm(x, (h0, c0))
    assert out.grad_fn is not None and h_n.shape == h0.shape and c_n.shape == c0.shape
    (out.sin().sum() + h_n.pow(2).sum() + 3 * c_n.sum()).backward()
    got = [p.grad.clone() for p in params]
    for p in params:
        p.grad = None
    ref_out, ref_h, ref_c = _lstm_by_steps(lstm, x, h0, c0)
    (ref_out.sin().sum() + ref_h.pow(2).sum() + 3 * ref_c.sum()).backward()
    assert torch.allclose(out, ref_out) and torch.allclose(h_n, ref_h) and torch.allclose(c_n, ref_c)
    for g, p in zip(got, params):
        assert torch.allclose(g, p.grad), "a gradient differs from the step equations'"


def test_lstm_sequence_other_paths():
    # bfloat16 (the composite cell), an empty sequence, and the op's own checks.
    torch.manual_seed(0)
    lstm = nn.LSTM(2, 3)
    x = torch.randn(4, 2, 2)
    out, (h, c) = lstm(x)
    out.sum().backward()
    float_grads = [p.grad.clone() for p in lstm.parameters()]
    out_b, (h_b, c_b) = lstm.bfloat16()(x.bfloat16())
    assert out_b.dtype == torch.bfloat16 and torch.allclose(out_b.float(), out, atol=3e-2)
    lstm.zero_grad()
    out_b.float().sum().backward()  # the composite backward, from the stored activated gates
    for p, g in zip(lstm.parameters(), float_grads):
        assert torch.allclose(p.grad.float(), g, atol=0.1, rtol=0.05)
    empty, (h_e, c_e) = lstm.float()(torch.zeros(0, 2, 2))
    assert empty.shape == (0, 2, 3) and torch.equal(h_e, torch.zeros(1, 2, 3))
    with pytest.raises(RuntimeError, match="sizes do not match"):
        torch._lstm_sequence(torch.zeros(2, 1, 8), torch.zeros(1, 3), torch.zeros(1, 3), torch.zeros(8, 3))
    with pytest.raises(RuntimeError, match="one dtype"):
        torch._lstm_sequence(torch.zeros(2, 1, 8), torch.zeros(1, 2), torch.zeros(1, 2), torch.zeros(8, 2).double())


def test_numpy_keyword_spellings_and_data_assignment():
    t = torch.arange(6.0).reshape(2, 3)
    assert t.sum(1, keepdims=True).shape == (2, 1) and t.sum(axis=0).tolist() == [3.0, 5.0, 7.0]
    with pytest.raises(TypeError, match="keepdimz"):
        t.sum(1, keepdimz=True)
    w = torch.ones(3, requires_grad=True)
    w.data += 1  # reads .data, adds in place, assigns it back
    assert w.tolist() == [2.0, 2.0, 2.0] and w.requires_grad and w.is_leaf
    w.data = torch.zeros(2, 2)
    assert w.shape == (2, 2) and w.requires_grad
    with pytest.raises(RuntimeError, match="same dtype and device"):
        w.data = torch.zeros(2, dtype=torch.int64)


def test_out_of_scope_modules_import_and_refuse_when_called():
    # Scripts import these at the top and use them only on some paths.
    import torch.distributed as dist
    import torch.jit
    import torch.onnx
    from torch.distributed import all_reduce, init_process_group  # noqa: F401

    assert not dist.is_available() and not dist.is_initialized() and not dist.is_nccl_available()
    assert dist.ReduceOp.SUM is not dist.ReduceOp.MAX and dist.Backend("NCCL") == dist.Backend.NCCL == "nccl"
    for call, feature in [(lambda: dist.init_process_group("gloo"), "torch.distributed.init_process_group"),
                          (lambda: dist.all_reduce(torch.ones(1)), "torch.distributed.all_reduce"),
                          (lambda: torch.onnx.export(nn.Linear(1, 1), torch.ones(1), "m.onnx"), "torch.onnx.export"),
                          (lambda: torch.jit.script(nn.Linear(1, 1)), "torch.jit.script"),
                          (lambda: torch.compile(nn.Linear(1, 1)), "torch.compile")]:
        with pytest.raises(RuntimeError, match=rf"{feature}: .* is not part of this build of torch"):
            call()
    with pytest.raises(AttributeError, match="torch.distributed.no_such_name: this build of torch has no distributed"):
        dist.no_such_name  # noqa: B018
    # What eager model code calls behaves as in eager PyTorch.
    assert not torch.onnx.is_in_onnx_export() and not torch.jit.is_scripting() and not torch.jit.is_tracing()
    assert not torch.compiler.is_compiling()

    @torch.jit.ignore
    def kept(x):
        return x + 1

    @torch.compiler.disable(recursive=False)
    def also_kept(x):
        return x * 2

    assert kept(1) == 2 and also_kept(3) == 6 and torch.jit.annotate(list, [1]) == [1]


def test_version_compares_as_a_version_the_way_extension_setup_files_compare_it():
    v = torch.__version__
    assert isinstance(v, str) and v.startswith("2.13.0.") and "+" in v  # the API level it implements, then the release
    assert v >= "2.9.0" and v < "2.13.1" and v > "2.13.0" and v >= (2, 6) and v < (2, 14)  # 2.13 is after 2.9
    assert v > v.split("+")[0] and v == str(v) and v != v.split("+")[0]  # the local label sorts after
    from torch.torch_version import TorchVersion

    assert TorchVersion("2.6.0rc1") < "2.6.0" < TorchVersion("2.6.0.post1") and TorchVersion("2.6") == "2.6.0"
    assert not TorchVersion("1.0") >= "not a version"  # falls back to comparing strings


def test_std_mean_and_var_mean_take_every_form_of_std():
    x = torch.arange(6.0).reshape(2, 3)
    std, mean = torch.std_mean(x)
    assert (round(std.item(), 4), mean.item()) == (1.8708, 2.5)
    var, mean = torch.var_mean(x, 1, False, True)  # dim, unbiased, keepdim
    assert torch.allclose(var, torch.full((2, 1), 2 / 3)) and mean.flatten().tolist() == [1.0, 4.0]
    var, mean = torch.var_mean(x, dim=None, correction=0, keepdim=True)
    assert var.shape == mean.shape == (1, 1) and abs(var.item() - 35 / 12) < 1e-6
    assert torch.var_mean(x, False)[0].item() == pytest.approx(35 / 12)
    assert type(torch.std_mean(x)) is tuple
    with pytest.raises(RuntimeError, match="var_mean only support floating point"):
        torch.var_mean(torch.arange(6))


def test_unravel_index_wraps_as_pytorch():
    rows, cols = torch.unravel_index(torch.tensor([4, 1, 6, -1]), (2, 3))
    assert rows.tolist() == [1, 0, 0, 1] and cols.tolist() == [1, 1, 0, 2]
    assert torch.unravel_index(torch.tensor(1), 6)[0].item() == 1 and torch.unravel_index(torch.tensor(1), ()) == ()
    with pytest.raises(TypeError, match="expected 'indices' to be integer dtype, but got torch.float32"):
        torch.unravel_index(torch.tensor(1.0), (2, 3))
    with pytest.raises(ValueError, match="'shape' cannot have negative values"):
        torch.unravel_index(torch.tensor(0), (2, -1))


def test_randint_like_and_the_torch_forms_of_tensor_predicates():
    ints = torch.randint_like(torch.zeros(200, dtype=torch.int32), 3, 5)
    assert ints.dtype == torch.int32 and set(ints.tolist()) == {3, 4}
    floats = torch.randint_like(torch.zeros(200), 2)
    assert floats.dtype == torch.float32 and set(floats.tolist()) == {0.0, 1.0}
    assert torch.is_nonzero(torch.tensor([1.0])) and not torch.is_nonzero(torch.tensor(0))
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        torch.is_nonzero(torch.ones(2))
    assert torch.is_same_size(torch.ones(2, 3), torch.zeros(2, 3)) and not torch.is_signed(torch.ones(1).bool())
    assert torch.get_device(torch.zeros(1)) == -1 and len(torch.unsafe_chunk(torch.arange(6), 3)) == 3


def test_variable_of_old_scripts_is_a_tensor_sharing_data():
    from torch.autograd import Variable

    t = torch.ones(2)
    v = Variable(t, requires_grad=True)
    assert type(v) is torch.Tensor and v.requires_grad and not t.requires_grad and v.data_ptr() == t.data_ptr()
    assert isinstance(t, Variable) and Variable().shape == (0,)
    with pytest.warns(UserWarning, match="volatile was removed"):
        Variable(t, volatile=True)
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        Variable([1, 2])
    assert torch.autograd.inference_mode is torch.inference_mode


def test_cauchy_log_normal_and_geometric_fills():
    g = torch.Generator().manual_seed(0)
    c = torch.empty(20000, dtype=torch.float64).cauchy_(2.0, 0.5, generator=g)
    assert abs(c.median().item() - 2.0) < 0.05 and abs((c - 2).abs().median().item() - 0.5) < 0.05
    ln = torch.empty(20000).log_normal_(1.0, 0.5, generator=g)
    assert (ln > 0).all() and abs(ln.log().mean().item() - 1.0) < 0.02 and abs(ln.log().std().item() - 0.5) < 0.02
    geo = torch.empty(20000, dtype=torch.int64).geometric_(0.25, generator=g)
    assert geo.min().item() >= 1 and abs(geo.double().mean().item() - 4.0) < 0.15
    same = torch.empty(5).cauchy_(generator=torch.Generator().manual_seed(3))
    assert same.tolist() == torch.empty(5).cauchy_(generator=torch.Generator().manual_seed(3)).tolist()
    with pytest.raises(RuntimeError, match=r"geometric_ expects p to be in \(0, 1\), but got p=1.5"):
        torch.ones(2).geometric_(1.5)
    with pytest.raises(RuntimeError, match="cauchy_ expects sigma > 0.0"):
        torch.ones(2).cauchy_(sigma=-1)
    with pytest.raises(RuntimeError, match="log_normal_ expects std > 0.0"):
        torch.ones(2).log_normal_(std=0)
    with pytest.raises(RuntimeError, match="Cauchy distribution is a continuous probability distribution"):
        torch.ones(2, dtype=torch.int64).cauchy_()


def test_tensor_new_is_the_legacy_constructor_of_its_dtype():
    x = torch.ones(2, dtype=torch.float64)
    assert x.new().shape == (0,) and x.new(2, 3).shape == (2, 3) and x.new(torch.Size([2, 3])).shape == (2, 3)
    assert x.new((2, 3)).tolist() == [2.0, 3.0] and x.new([[1, 2]]).dtype == torch.float64
    t = torch.zeros(3, dtype=torch.float64)
    assert x.new(t).data_ptr() == t.data_ptr()
    with pytest.raises(TypeError, match="expected a tensor of dtype torch.float64"):
        x.new(torch.ones(3))
    with pytest.raises(TypeError, match="data must be a sequence"):
        x.new(2.5)
    with pytest.raises(TypeError, match="dtype"):
        x.new(2, dtype=torch.int32)
