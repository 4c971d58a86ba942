"""Each case builds its inputs from numpy, runs torch code, and returns a flat
list of floats (outputs and gradients). Add a case, then run record.py under
real PyTorch to store its answer."""
import math

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _fill(module, seed=0, scale=0.5):
    """Every parameter and floating buffer set from numpy, in registration order."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for _, p in module.named_parameters():
            p.copy_(torch.tensor(rng.standard_normal(tuple(p.shape)) * scale, dtype=p.dtype))
    return module


def _x(*shape, seed=1, dtype=torch.float64):
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=dtype).requires_grad_()


def _summary(out, *tensors):
    """Values of out and the gradients of a fixed weighting of out with respect to tensors."""
    outs = out if isinstance(out, (list, tuple)) else [out]
    outs = [o for o in outs if o is not None]
    flat = torch.cat([o.reshape(-1) for o in outs])
    weights = torch.tensor(np.linspace(-1.0, 1.0, flat.numel()), dtype=flat.dtype)
    (flat * weights).sum().backward()
    values = flat.detach().tolist()
    for t in tensors:
        values += t.grad.reshape(-1).tolist() if t.grad is not None else []
    return values


def _module_summary(module, out, *inputs):
    return _summary(out, *inputs, *module.parameters())


# ---- layers ----
@case
def conv2d_module():
    m = _fill(nn.Conv2d(2, 3, 3, stride=2, padding=1).double())
    x = _x(2, 2, 5, 6)
    return _module_summary(m, m(x), x)


@case
def conv2d_groups_dilation():
    m = _fill(nn.Conv2d(4, 4, (2, 3), padding=(1, 2), dilation=(2, 1), groups=2, bias=False).double())
    x = _x(1, 4, 5, 5)
    return _module_summary(m, m(x), x)


@case
def conv1d_same():
    m = _fill(nn.Conv1d(3, 2, 3, padding="same").double())
    x = _x(2, 3, 7)
    return _module_summary(m, m(x), x)


@case
def maxpool_avgpool():
    x = _x(2, 3, 6, 6)
    out = [nn.MaxPool2d(2)(x), nn.MaxPool2d(3, stride=2, padding=1)(x), nn.AvgPool2d(2)(x),
           nn.AdaptiveAvgPool2d((1, 1))(x), F.max_pool1d(x[:, 0], 2)]
    return _summary(out, x)


@case
def batchnorm_train_eval():
    m = _fill(nn.BatchNorm2d(3).double())
    x = _x(4, 3, 2, 2)
    out = m(x)
    stats = m.running_mean.tolist() + m.running_var.tolist()
    m.eval()
    return _module_summary(m, [out, m(x)], x) + stats


@case
def lstm_two_layers_batch_first():
    m = _fill(nn.LSTM(3, 4, num_layers=2, batch_first=True).double())
    x = _x(2, 5, 3)
    out, (h, c) = m(x)
    return _module_summary(m, [out, h, c], x)


@case
def gru_bidirectional_with_h0():
    m = _fill(nn.GRU(3, 2, bidirectional=True).double())
    x = _x(4, 2, 3)
    h0 = _x(2, 2, 2, seed=5)
    out, h = m(x, h0)
    return _module_summary(m, [out, h], x, h0)


@case
def rnn_relu_unbatched():
    m = _fill(nn.RNN(3, 4, nonlinearity="relu").double())
    x = _x(5, 3)
    out, h = m(x)
    return _module_summary(m, [out, h], x)


@case
def cells():
    x = _x(2, 3)
    out = []
    for i, cls in enumerate((nn.RNNCell, nn.LSTMCell, nn.GRUCell)):
        cell = _fill(cls(3, 4).double(), seed=i)
        r = cell(x)
        out += list(r) if isinstance(r, tuple) else [r]
    return _summary(out, x)


@case
def multihead_attention_masks():
    m = _fill(nn.MultiheadAttention(8, 2, batch_first=True).double())
    q, k = _x(2, 3, 8), _x(2, 4, 8, seed=2)
    pad = torch.tensor([[False, False, True, False], [False, False, False, True]])
    out, w = m(q, k, k, key_padding_mask=pad)
    causal = torch.ones(3, 3, dtype=torch.bool).triu(1)
    out2, w2 = m(q, q, q, attn_mask=causal, average_attn_weights=False)
    return _module_summary(m, [out, w, out2, w2], q, k)


@case
def transformer_encoder():
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
    m = _fill(nn.TransformerEncoder(layer, 2).double(), scale=0.3)
    x = _x(2, 5, 8)
    mask = torch.ones(5, 5, dtype=torch.bool).triu(1)
    return _module_summary(m, m(x, mask=mask), x)


@case
def transformer_encoder_norm_first_gelu():
    layer = nn.TransformerEncoderLayer(8, 4, dim_feedforward=12, dropout=0.0, activation="gelu", norm_first=True)
    m = _fill(nn.TransformerEncoder(layer, 1, norm=nn.LayerNorm(8)).double(), scale=0.3)
    x = _x(5, 2, 8)
    return _module_summary(m, m(x, src_key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2)), x)


@case
def transformer_decoder():
    layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
    m = _fill(nn.TransformerDecoder(layer, 2).double(), scale=0.3)
    tgt, memory = _x(2, 4, 8), _x(2, 5, 8, seed=2)
    causal = nn.Transformer.generate_square_subsequent_mask(4, dtype=torch.float64)
    pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    return _module_summary(m, m(tgt, memory, tgt_mask=causal, memory_key_padding_mask=pad), tgt, memory)


@case
def transformer_norm_first_gelu():
    m = _fill(nn.Transformer(8, 2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=12, dropout=0.0,
                             activation="gelu", norm_first=True).double(), scale=0.3)
    src, tgt = _x(5, 2, 8), _x(3, 2, 8, seed=2)
    out = m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(3, dtype=torch.float64),
            src_key_padding_mask=torch.tensor([[False] * 4 + [True]] * 2))
    return _module_summary(m, out, src, tgt)


@case
def scaled_dot_product_attention():
    q, k, v = _x(2, 2, 3, 4), _x(2, 2, 5, 4, seed=2), _x(2, 2, 5, 4, seed=3)
    bool_mask = torch.tensor(np.random.default_rng(4).random((3, 5)) > 0.3)
    bool_mask[:, 0] = True
    float_mask = torch.tensor(np.random.default_rng(5).standard_normal((3, 5)))
    out = [F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask),
           F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask, scale=0.7),
           F.scaled_dot_product_attention(q, q, q, is_causal=True)]
    return _summary(out, q, k, v)


@case
def embedding_padding_idx():
    m = _fill(nn.Embedding(5, 3, padding_idx=1).double())
    idx = torch.tensor([[0, 1, 4], [1, 1, 2]])
    return _module_summary(m, m(idx))


@case
def losses():
    x = _x(4, 3, 2)
    t = torch.tensor([[0, 2], [1, -100], [2, 2], [0, 1]])
    w = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    p = torch.tensor(np.random.default_rng(3).random((4, 3)))
    out = [F.cross_entropy(x, t), F.cross_entropy(x, t, weight=w, label_smoothing=0.2),
           F.cross_entropy(x[:, :, 0], p.softmax(1), label_smoothing=0.1, reduction="sum"),
           F.nll_loss(x.log_softmax(1), t, reduction="none"), F.binary_cross_entropy(x.sigmoid(), x.detach() * 0 + 0.3),
           F.l1_loss(x, x.detach() * 0.5), F.smooth_l1_loss(x, x.detach() * 0.1, beta=0.5),
           F.binary_cross_entropy_with_logits(x, (x.detach() > 0).double(), pos_weight=torch.tensor([2.0, 1.0],
                                              dtype=torch.float64))]
    return _summary(out, x)


@case
def activations_and_norms():
    x = _x(3, 4)
    out = [F.leaky_relu(x, 0.2), F.silu(x), F.softplus(x * 5, beta=2), F.elu(x), F.hardtanh(x, -0.5, 0.5),
           F.normalize(x, dim=1), nn.LogSoftmax(dim=1)(x), F.one_hot(torch.tensor([2, 0]), 4).double(),
           F.pad(x, (1, 2, 0, 1), value=0.5), nn.Flatten(0)(x)]
    return _summary(out, x)


# ---- tensor ops that are new ----
@case
def sort_topk_tril():
    x = _x(3, 5)
    values, indices = x.sort(1, descending=True)
    top, top_i = x.topk(2, dim=0)
    out = [values, indices.double(), top, top_i.double(), x.tril(), x.triu(1), torch.tril(x, -1),
           x.argsort(0).double()]
    return _summary(out, x)


# ---- optimisation ----
def _lr_trace(make, optimizer=torch.optim.SGD, steps=12, **kw):
    p = nn.Parameter(torch.zeros(1))
    opt = optimizer([p], lr=0.1, **kw)
    sched = make(opt)
    trace = []
    for _ in range(steps):
        opt.step()
        sched.step()
        trace += sched.get_last_lr()
    return trace


@case
def lr_schedulers():
    L = torch.optim.lr_scheduler
    return (_lr_trace(lambda o: L.StepLR(o, 3, 0.5)) + _lr_trace(lambda o: L.LambdaLR(o, lambda e: 1 / (e + 1)))
            + _lr_trace(lambda o: L.CosineAnnealingLR(o, 10, 0.001))
            + _lr_trace(lambda o: L.OneCycleLR(o, 1.0, total_steps=13), momentum=0.9)
            + _lr_trace(lambda o: L.OneCycleLR(o, 1.0, total_steps=13, anneal_strategy="linear", three_phase=True),
                        torch.optim.Adam)
            + _lr_trace(lambda o: L.MultiStepLR(o, [2, 5], 0.1)) + _lr_trace(lambda o: L.ExponentialLR(o, 0.9))
            + _lr_trace(lambda o: L.LinearLR(o, 0.25, 1.0, 4))
            + _lr_trace(lambda o: L.CosineAnnealingWarmRestarts(o, 3, 2))
            + _lr_trace(lambda o: L.SequentialLR(o, [L.LinearLR(o, 0.1, 1.0, 3), L.CosineAnnealingLR(o, 5)], [3])))


def _fit(optimizer, steps=6, closure_step=False, **kw):
    """Parameters of a small float64 regression (two tensors, one without a
    gradient at first) after `steps` steps of optimizer(**kw)."""
    rng = np.random.default_rng(5)
    w = nn.Parameter(torch.tensor(rng.standard_normal((3, 2)), dtype=torch.float64))
    b = nn.Parameter(torch.tensor(rng.standard_normal(2), dtype=torch.float64))
    x = torch.tensor(rng.standard_normal((8, 3)), dtype=torch.float64)
    y = torch.tensor(rng.standard_normal((8, 2)), dtype=torch.float64)
    opt = optimizer([w, b], **kw)

    def closure():
        opt.zero_grad()
        loss = (torch.tanh(x @ w + b) - y).pow(2).mean()
        loss.backward()
        return loss

    trace = []
    for _ in range(steps):
        if closure_step:
            trace.append(opt.step(closure).item())
        else:
            closure()
            opt.step()
    return trace + w.detach().reshape(-1).tolist() + b.detach().tolist()


@case
def optimizers_first_order():
    O = torch.optim
    return (_fit(O.Adagrad, lr=0.1) + _fit(O.Adagrad, lr=0.1, lr_decay=0.05, weight_decay=0.1,
                                            initial_accumulator_value=0.2)
            + _fit(O.Adadelta) + _fit(O.Adadelta, lr=0.5, rho=0.8, weight_decay=0.1, maximize=True)
            + _fit(O.Adamax, lr=0.05) + _fit(O.Adamax, lr=0.05, weight_decay=0.1)
            + _fit(O.NAdam, lr=0.05) + _fit(O.NAdam, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)
            + _fit(O.NAdam, lr=0.05, weight_decay=0.1, momentum_decay=0.01)
            + _fit(O.RAdam, lr=0.05, steps=9) + _fit(O.RAdam, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True,
                                                     steps=9)
            + _fit(O.RMSprop, lr=0.01) + _fit(O.RMSprop, lr=0.01, momentum=0.9, centered=True, weight_decay=0.1)
            + _fit(O.Rprop, lr=0.05) + _fit(O.Rprop, lr=0.05, etas=(0.3, 1.5), step_sizes=(0.01, 0.2), maximize=True)
            + _fit(O.ASGD, lr=0.1) + _fit(O.ASGD, lr=0.1, t0=2, lambd=0.01, weight_decay=0.1)
            + _fit(O.Adam, lr=0.05, decoupled_weight_decay=True, weight_decay=0.1, foreach=False)
            + _fit(O.SGD, lr=0.1, momentum=0.9, fused=False))


@case
def optimizers_lbfgs():
    O = torch.optim
    return (_fit(O.LBFGS, steps=3, closure_step=True, lr=0.5, max_iter=5)
            + _fit(O.LBFGS, steps=3, closure_step=True, history_size=3, line_search_fn="strong_wolfe")
            + _fit(O.LBFGS, steps=2, closure_step=True, max_iter=50, line_search_fn="strong_wolfe"))


@case
def lr_schedulers_cyclic_polynomial_chained():
    L = torch.optim.lr_scheduler
    return (_lr_trace(lambda o: L.PolynomialLR(o, total_iters=8, power=2.0))
            + _lr_trace(lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=3), momentum=0.9, steps=15)
            + _lr_trace(lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=4, mode="triangular2"),
                        momentum=0.9, steps=15)
            + _lr_trace(lambda o: L.CyclicLR(o, 0.01, 0.1, 2, mode="exp_range", gamma=0.9), torch.optim.Adam, steps=9)
            + _lr_trace(lambda o: L.CyclicLR(o, 0.01, 0.1, 2, scale_fn=lambda x: 1 / (x + 1), scale_mode="iterations",
                                             cycle_momentum=False))
            + _lr_trace(lambda o: L.ChainedScheduler([L.ConstantLR(o, 0.1, total_iters=3), L.ExponentialLR(o, 0.9)]))
            + _lr_trace(lambda o: L.ChainedScheduler([L.LinearLR(o, 0.5, total_iters=4), L.StepLR(o, 3, 0.5),
                                                      L.PolynomialLR(o, 20)])))


@case
def clip_grad_norm():
    a, b = nn.Parameter(torch.tensor([3.0, 4.0])), nn.Parameter(torch.tensor([12.0]))
    (a.sum() * 2 + b.sum() * 3).backward()
    total = nn.utils.clip_grad_norm_([a, b], 1.0)
    values = [float(total)] + a.grad.tolist() + b.grad.tolist()
    inf_norm = nn.utils.clip_grad_norm_([a, b], 0.1, norm_type=math.inf)
    return values + [float(inf_norm)] + a.grad.tolist()


@case
def grad_scaler_cpu():
    p = nn.Parameter(torch.tensor([1.0]))
    opt = torch.optim.SGD([p], lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0, growth_interval=2)
    trace = []
    for v in [1.0, float("inf"), 1.0, 1.0, 2.0]:
        opt.zero_grad()
        scaler.scale((p * v).sum()).backward()
        scaler.step(opt)
        scaler.update()
        trace += [p.item(), scaler.get_scale()]
    return trace


@case
def autocast_cpu_dtypes():
    a = torch.tensor(np.random.default_rng(0).standard_normal((2, 3)), dtype=torch.float32)
    w = torch.tensor(np.random.default_rng(1).standard_normal((4, 3)), dtype=torch.float32)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        mm, lin, add = a @ a.T, F.linear(a, w), a + a
        ce = F.cross_entropy(a @ a.T, torch.tensor([0, 1]))
    codes = {torch.bfloat16: 1.0, torch.float32: 2.0}
    return [codes[t.dtype] for t in (mm, lin, add, ce)] + lin.float().reshape(-1).tolist()


@case
def autograd_function():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x ** 3 * k

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2 * ctx.k, None

    x = _x(4)
    return _summary(Cube.apply(x, 2.0) + x, x)


# ---- functional breadth: activations, losses, layers ----
@case
def functional_activations():
    x = _x(3, 4, seed=3)
    outs = [F.relu6(x * 3), F.hardsigmoid(x * 3), F.hardswish(x * 3), F.selu(x), F.celu(x, 0.7), F.mish(x),
            F.logsigmoid(x), F.softsign(x), F.softshrink(x, 0.4), F.hardshrink(x, 0.4), F.tanhshrink(x),
            F.threshold(x, 0.1, -2.0), F.glu(x, 1), F.softmin(x, 1), F.rrelu(x),
            F.prelu(x.reshape(3, 4, 1), torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)),
            F.prelu(x, torch.tensor([0.25], dtype=torch.float64))]
    return _summary(outs, x)


@case
def functional_losses():
    a, b = _x(4, 3, seed=4), _x(4, 3, seed=5)
    t = torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=torch.float64)
    probs = a.softmax(1)
    target = torch.tensor(np.random.default_rng(6).uniform(0.1, 1.0, (4, 3)), dtype=torch.float64)
    labels = torch.tensor([0, 2, 1, 2])
    multi = torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])
    var = torch.tensor(np.random.default_rng(7).uniform(0.5, 2.0, (4, 3)), dtype=torch.float64)
    outs = [F.huber_loss(a, b, delta=0.5), F.huber_loss(a, b, reduction="none"),
            F.kl_div(probs.log(), target, reduction="batchmean"), F.kl_div(a, b, reduction="sum", log_target=True),
            F.margin_ranking_loss(a[:, 0], b[:, 0], t, margin=0.2), F.hinge_embedding_loss(a, torch.ones(4, 3) * -1),
            F.soft_margin_loss(a, b.detach().sign()), F.multilabel_soft_margin_loss(a, (b > 0).double()),
            F.cosine_similarity(a, b), F.pairwise_distance(a, b), F.pdist(a),
            F.cosine_embedding_loss(a, b, t, margin=0.1), F.triplet_margin_loss(a, b, a.flip(0), swap=True),
            F.triplet_margin_with_distance_loss(a, b, a.flip(0)), F.poisson_nll_loss(a, target),
            F.poisson_nll_loss(target, target * 3, log_input=False, full=True),
            F.gaussian_nll_loss(a, b, var), F.gaussian_nll_loss(a, b, var[:, 0], full=True),
            F.multi_margin_loss(a, labels), F.multi_margin_loss(a, labels, p=2, margin=0.5),
            F.multilabel_margin_loss(a, multi)]
    return _summary(outs, a, b)


@case
def functional_layers():
    x = _x(2, 4, 5, 6, seed=8)
    w = torch.tensor(np.random.default_rng(9).standard_normal(4), dtype=torch.float64)
    outs = [F.group_norm(x, 2, w, w * 0.5), F.instance_norm(x), F.local_response_norm(x, 3),
            F.rms_norm(x, (6,)), F.pixel_shuffle(_x(1, 8, 2, 3, seed=10), 2), F.pixel_unshuffle(x, 1),
            F.channel_shuffle(x, 2), F.pad(x, (2, 1, 1, 3), mode="reflect"), F.pad(x, (2, 1, 1, 3), mode="replicate"),
            F.pad(x, (2, 1, 1, 3), mode="circular"), F.pad(x[0], (1, 2), mode="reflect"),
            F.avg_pool1d(x[0], 3, 2, 1), F.adaptive_avg_pool2d(x, (3, 4)), F.adaptive_max_pool2d(x, (2, 4)),
            F.adaptive_avg_pool1d(x[0], 4), F.adaptive_max_pool1d(x[0], 4), F.lp_pool2d(x.abs() + 0.1, 2, 2),
            F.interpolate(x, scale_factor=2, mode="nearest"), F.interpolate(x, size=(7, 9), mode="bilinear"),
            F.interpolate(x, size=(3, 4), mode="bilinear", align_corners=True),
            F.interpolate(x[0], scale_factor=1.5, mode="linear"), F.interpolate(x, size=(3, 4), mode="area"),
            F.interpolate(x, size=(7, 9), mode="nearest-exact"),
            F.unfold(x, (2, 3), padding=1, stride=2), F.fold(F.unfold(x, 3, padding=1), (5, 6), 3, padding=1)]
    return _summary(outs, x)


@case
def functional_convolutions_and_3d():
    x = _x(2, 4, 5, 6, seed=11)
    w = torch.tensor(np.random.default_rng(12).standard_normal((4, 3, 3, 2)), dtype=torch.float64).requires_grad_()
    v = _x(1, 2, 4, 5, 6, seed=13)
    wk = torch.tensor(np.random.default_rng(14).standard_normal((3, 2, 2, 3, 2)), dtype=torch.float64)
    e = torch.tensor(np.random.default_rng(15).standard_normal((10, 3)), dtype=torch.float64)
    outs = [F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1),
            F.conv_transpose2d(x, torch.tensor(np.random.default_rng(17).standard_normal((4, 2, 3, 2)),
                                               dtype=torch.float64), stride=(1, 2), groups=2, dilation=2),
            F.conv_transpose1d(x[:, :, 0], w[:, :, 0], stride=3, padding=1),
            F.conv3d(v, wk, stride=(1, 2, 1), padding=1), F.avg_pool3d(v, 2), F.max_pool3d(v, (2, 2, 3), stride=1),
            F.adaptive_avg_pool3d(v, (3, 2, 4)), F.adaptive_max_pool3d(v, 2),
            F.bilinear(x[:, :, 0, :3], x[:, :, 1, :5],
                       torch.tensor(np.random.default_rng(16).standard_normal((2, 3, 5)), dtype=torch.float64)),
            F.embedding_bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), e, torch.tensor([0, 4])),
            F.embedding_bag(torch.tensor([[1, 2, 4], [4, 3, 9]]), e, mode="max"),
            F.embedding_bag(torch.tensor([1, 2, 4, 5]), e, torch.tensor([0, 1]), mode="sum",
                            per_sample_weights=torch.tensor([0.5, 1.0, 2.0, -1.0], dtype=torch.float64))]
    return _summary(outs, x, w, v)


@case
def nn_modules_breadth():
    x = _x(2, 4, 6, 6, seed=21)
    stack = _fill(nn.Sequential(nn.Conv2d(4, 6, 3, padding=1), nn.GroupNorm(3, 6), nn.Hardswish(), nn.ReflectionPad2d(1),
                                nn.ConvTranspose2d(6, 4, 4, stride=2, padding=1), nn.InstanceNorm2d(4, affine=True),
                                nn.Mish(), nn.AdaptiveMaxPool2d((3, 5)), nn.PReLU(4), nn.ReplicationPad2d((1, 0, 2, 1)),
                                nn.LPPool2d(2, 2), nn.Upsample(scale_factor=2, mode="bilinear"), nn.CELU(0.5),
                                nn.PixelUnshuffle(2), nn.ChannelShuffle(4), nn.LocalResponseNorm(3),
                                nn.Flatten(), nn.Linear(144, 5), nn.SELU(), nn.RMSNorm(5)).double())
    v = _x(1, 2, 4, 5, 5, seed=22)
    three_d = _fill(nn.Sequential(nn.Conv3d(2, 3, 2, padding=1), nn.BatchNorm3d(3), nn.MaxPool3d(2), nn.AvgPool3d(1),
                                  nn.AdaptiveAvgPool3d(2)).double())
    a, b = _x(3, 4, seed=23), _x(3, 5, seed=24)
    bil = _fill(nn.Bilinear(4, 5, 2).double())
    bag = _fill(nn.EmbeddingBag(10, 3, mode="sum").double())
    running = nn.InstanceNorm1d(4, track_running_stats=True).double()
    running(_x(3, 4, 7, seed=25).detach())
    outs = [stack(x), three_d(v), bil(a, b), bag(torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 2])),
            running.running_mean, running.running_var,
            nn.Fold((6, 6), 3, padding=1)(nn.Unfold(3, padding=1)(x)), nn.Softmax2d()(x), nn.GLU(1)(x),
            nn.ConstantPad3d(1, 2.0)(v), nn.CircularPad1d(2)(x[0]), nn.PixelShuffle(2)(x)]
    return _summary(outs, x, v, a, b, *stack.parameters(), *three_d.parameters())


# ---- torch.distributions ----
@case
def distributions_densities():
    D = torch.distributions
    loc, scale = _x(3, seed=31), (_x(3, seed=32).detach().abs() + 0.5).requires_grad_()
    v = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64)
    pos = torch.tensor([0.3, 1.2, 2.0], dtype=torch.float64)
    unit = torch.tensor([0.2, 0.5, 0.9], dtype=torch.float64)
    conc = torch.tensor([0.7, 2.0, 3.5], dtype=torch.float64).requires_grad_()
    probs = torch.tensor([0.2, 0.5, 0.9], dtype=torch.float64).requires_grad_()
    cov = torch.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 1.5]], dtype=torch.float64)
    dists = [D.Normal(loc, scale), D.Laplace(loc, scale), D.Cauchy(loc, scale), D.Gumbel(loc, scale),
             D.LogNormal(loc, scale), D.HalfNormal(scale), D.HalfCauchy(scale), D.Exponential(scale),
             D.Uniform(loc - 3, loc + scale + 3), D.Gamma(conc, scale), D.Chi2(conc), D.Beta(conc, scale),
             D.StudentT(conc + 2, loc, scale)]
    outs = []
    for d in dists:
        value = unit if isinstance(d, D.Beta) else (pos if isinstance(d, (D.LogNormal, D.HalfNormal, D.HalfCauchy,
                                                                           D.Exponential, D.Gamma, D.Chi2)) else v)
        outs += [d.log_prob(value), d.entropy()]
        if not isinstance(d, (D.Cauchy, D.HalfCauchy)):
            outs += [d.mean, d.variance]
        if isinstance(d, (D.Normal, D.Laplace, D.Cauchy, D.Exponential, D.Uniform, D.HalfNormal, D.LogNormal,
                          D.Gumbel)):
            outs += [d.cdf(value), d.icdf(unit)]
    discrete = [(D.Bernoulli(probs), torch.tensor([0.0, 1.0, 1.0], dtype=torch.float64)),
                (D.Bernoulli(logits=loc), torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)),
                (D.Geometric(probs), torch.tensor([0.0, 2.0, 5.0], dtype=torch.float64)),
                (D.Poisson(scale), torch.tensor([0.0, 2.0, 5.0], dtype=torch.float64)),
                (D.Binomial(5, probs), torch.tensor([0.0, 2.0, 5.0], dtype=torch.float64)),
                (D.Categorical(probs), torch.tensor(1)), (D.Categorical(logits=loc), torch.tensor([2, 0])),
                (D.OneHotCategorical(probs), torch.tensor([0.0, 0.0, 1.0], dtype=torch.float64)),
                (D.Multinomial(4, probs), torch.tensor([1.0, 0.0, 3.0], dtype=torch.float64))]
    for d, value in discrete:
        outs += [d.log_prob(value)] + ([] if isinstance(d, D.Poisson) else [d.entropy()])  # PyTorch has no Poisson entropy
        if not isinstance(d, D.Categorical):
            outs += [d.mean, d.variance]
    mvn = D.MultivariateNormal(loc, cov * scale.detach().mean())
    dirichlet = D.Dirichlet(conc)
    outs += [mvn.log_prob(v), mvn.entropy(), mvn.variance, D.MultivariateNormal(loc, scale_tril=torch.linalg.cholesky(cov)).log_prob(v),
             dirichlet.log_prob(unit / unit.sum()), dirichlet.entropy(), dirichlet.mean, dirichlet.variance,
             D.Independent(D.Normal(loc, scale), 1).log_prob(v),
             D.TransformedDistribution(D.Normal(loc, scale), [D.AffineTransform(1.0, 2.0), D.ExpTransform()]).log_prob(pos),
             D.TransformedDistribution(D.Normal(loc, scale), D.SigmoidTransform()).log_prob(unit),
             D.TransformedDistribution(D.Normal(loc, scale), D.TanhTransform()).log_prob(unit - 0.5)]
    return _summary(outs, loc, scale, conc, probs)


@case
def distributions_kl():
    D = torch.distributions
    a, b = _x(3, seed=33), _x(3, seed=34)
    s1 = (a.detach().abs() + 0.5).requires_grad_()
    s2 = (b.detach().abs() + 0.7).requires_grad_()
    p1 = torch.tensor([0.2, 0.5, 0.9], dtype=torch.float64)
    p2 = torch.tensor([0.3, 0.4, 0.6], dtype=torch.float64)
    cov1 = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
    cov2 = torch.tensor([[1.0, -0.2], [-0.2, 0.5]], dtype=torch.float64)
    pairs = [(D.Normal(a, s1), D.Normal(b, s2)), (D.Laplace(a, s1), D.Laplace(b, s2)),
             (D.Exponential(s1), D.Exponential(s2)), (D.Gamma(s1, s2), D.Gamma(s2, s1)),
             (D.Beta(s1, s2), D.Beta(s2, s1)), (D.Uniform(a - 1, a + 1), D.Uniform(a - 2, a + 3)),
             (D.Bernoulli(p1), D.Bernoulli(p2)), (D.Categorical(p1), D.Categorical(p2)),
             (D.Poisson(s1), D.Poisson(s2)), (D.Geometric(p1), D.Geometric(p2)), (D.Gumbel(a, s1), D.Gumbel(b, s2)),
             (D.Dirichlet(s1), D.Dirichlet(s2)), (D.Binomial(5, p1), D.Binomial(5, p2)),
             (D.MultivariateNormal(a[:2], cov1), D.MultivariateNormal(b[:2], cov2)),
             (D.Independent(D.Normal(a, s1), 1), D.Independent(D.Normal(b, s2), 1))]
    return _summary([D.kl_divergence(p, q) for p, q in pairs], a, b, s1, s2)


@case
def python_composed_ops():
    x = _x(3, 4, seed=41)
    y = _x(3, 4, seed=42)
    v = _x(4, seed=43)
    m = _x(4, 4, seed=44)
    zeros = torch.tensor([[1.5, 0.0, 2.0, -1.0], [0.5, 2.0, 0.0, 0.0]], dtype=torch.float64).requires_grad_()
    outs = [torch.addmv(x[:, 0], x, v, beta=0.5, alpha=2), torch.addr(x, v[:3], v, alpha=0.3),
            torch.baddbmm(x.unsqueeze(0), x.unsqueeze(0), m.unsqueeze(0), beta=2), torch.inner(x, y), torch.kron(x[:2, :2], y[:2, :2]),
            torch.dist(x, y, 3), torch.cross(x[:, :3], y[:, :3], dim=1), torch.nan_to_num(x / (x - x[0, 0])),
            torch.float_power(x.abs(), 1.5), torch.ldexp(x, torch.tensor([1, 2, 3, 4])), torch.cumprod(x, 1),
            torch.cumprod(zeros, 1), torch.logcumsumexp(x, 1), torch.cummax(x, 1).values, torch.cummin(x, 0).values,
            torch.median(x, 1).values, torch.median(x), torch.quantile(x, 0.3, dim=1),
            torch.quantile(x.reshape(-1), torch.tensor([0.1, 0.9], dtype=torch.float64)), torch.kthvalue(x, 2, 0).values,
            torch.index_add(x, 0, torch.tensor([0, 2]), y[:2], alpha=2), torch.index_copy(x, 1, torch.tensor([3, 0]), y[:, :2]),
            torch.masked_scatter(x, x > 0, y.reshape(-1)), torch.select_scatter(x, y[0], 0, 1),
            torch.diagonal_scatter(m, v, 0), torch.renorm(x, 2, 0, 1.0), torch.repeat_interleave(x, 2, dim=1),
            torch.cov(x), torch.corrcoef(x), torch.cdist(x, y), torch.trapezoid(x, dim=1),
            torch.cumulative_trapezoid(x, dim=1), torch.logdet(m @ m.T + torch.eye(4)), torch.det(m), torch.inverse(m),
            torch.linalg.solve(m, v), torch.linalg.qr(m).R, torch.linalg.eigvalsh(m + m.T), torch.linalg.svdvals(m),
            torch.cholesky_solve(y[:, :2], torch.linalg.cholesky(m[:3, :3] @ m[:3, :3].T + torch.eye(3))),
            torch.atan2(x, y), torch.special.zeta(x.detach().abs() + 2, y.abs() + 1), torch.special.entr(x.abs()),
            torch.special.ndtr(x), torch.special.log_ndtr(x), torch.special.xlog1py(x, y.abs())]
    return _summary(outs, x, y, v, m, zeros)


# ---- variable-length sequences and module hooks ----
@case
def packed_sequences_through_rnns():
    from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence

    values = []
    for mode in ("LSTM", "GRU", "RNN"):
        for bidirectional in (False, True):
            m = _fill(getattr(nn, mode)(3, 4, num_layers=2, bidirectional=bidirectional, batch_first=True).double())
            x = _x(4, 5, 3)
            directions = 2 if bidirectional else 1
            h0 = torch.tensor(np.random.default_rng(2).standard_normal((2 * directions, 4, 4)))
            packed = pack_padded_sequence(x, [2, 5, 1, 3], batch_first=True, enforce_sorted=False)
            out, h = m(packed, (h0, h0 * 0.5) if mode == "LSTM" else h0)
            padded, lengths = pad_packed_sequence(out, batch_first=True, total_length=6)
            values += lengths.double().tolist()
            values += _module_summary(m, [padded, *(h if mode == "LSTM" else (h,))], x)
    seqs = [_x(n, 2, seed=n) for n in (3, 1, 4)]
    packed = pack_sequence(seqs, enforce_sorted=False)
    values += packed.batch_sizes.double().tolist()
    return values + _summary([packed.data, pad_sequence(seqs, padding_value=-1.0, padding_side="left")], *seqs)


@case
def module_hooks_change_values_and_gradients():
    m = _fill(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double())
    m[0].register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
    m[1].register_forward_hook(lambda mod, args, out: out + args[0] * 0.1)
    m[2].register_full_backward_pre_hook(lambda mod, grad_output: (grad_output[0] * 3,))
    m[0].register_full_backward_hook(lambda mod, grad_input, grad_output: (grad_input[0] - 1,))
    x = _x(5, 3)
    return _module_summary(m, m(x), x)


@case
def autograd_functional_and_second_derivatives():
    from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

    x = torch.tensor(np.random.default_rng(3).standard_normal(3))
    y = torch.tensor(np.random.default_rng(4).standard_normal((2, 2)))

    def f(a):
        return a.sin() * a.sum()

    def g(a, b):
        return a.exp().sum() * b, a[:2] * b[0]

    def s(a, b):
        return a.pow(3).sum() * b.sum() + (a[:2] @ b).sum() + F.gelu(a).sum() + torch.tanh(b).prod()

    results = [vjp(f, x, torch.ones(3, dtype=torch.float64)), jvp(f, x, torch.ones(3, dtype=torch.float64)),
               jacobian(f, x), jacobian(g, (x, y)), hessian(s, (x, y)),
               hvp(lambda a: s(a, y), x, torch.arange(3.0, dtype=torch.float64)),
               vhp(s, (x, y), (torch.ones(3, dtype=torch.float64), torch.ones(2, 2, dtype=torch.float64)))]
    # create_graph through a small network: the gradient penalty's gradient with respect to the weights.
    net = _fill(nn.Sequential(nn.Linear(3, 5), nn.Softplus(), nn.Linear(5, 2), nn.LogSoftmax(-1)).double())
    points = _x(4, 3)
    (gp,) = torch.autograd.grad(net(points)[:, 0].sum(), points, create_graph=True)
    values = []

    def flat(r):
        if isinstance(r, (tuple, list)):
            for item in r:
                flat(item)
        else:
            values.extend(r.detach().reshape(-1).tolist())
    flat(results)
    return values + _module_summary(net, (gp.norm(dim=1) - 1) ** 2)
