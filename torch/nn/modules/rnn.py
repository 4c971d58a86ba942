"""RNN, LSTM and GRU (and their single-step Cells) in Python over ops, as
PyTorch's reference equations. An LSTM layer is one op (torch._lstm_sequence,
after one product for every step's input projection). RNN and GRU layers
work on the sequence as a list of per-step tensors (x_t W_ih^T + h W_hh^T at
each step) and stack their output once: slicing one big tensor per step
would give each step's gradient a full-size buffer. Parameter names, shapes, gate order and initialisation are
PyTorch's, so state_dicts load either way."""
import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter
from torch.nn.utils.rnn import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(mode, gi, h, w_hh, b_hh):
    """One time step given gi = x W_ih^T + b_ih; returns the new hidden state (and cell for LSTM)."""
    gh = F.linear(h if mode != "LSTM" else h[0], w_hh, b_hh)
    if mode == "RNN_TANH":
        return (gi + gh).tanh()
    if mode == "RNN_RELU":
        return (gi + gh).relu()
    if mode == "LSTM":
        # The pointwise part in one fused op: i, f, g, o = gates; c' = f c + i g; h' = o tanh(c').
        return torch._lstm_cell(gi + gh, h[1])
    r_i, z_i, n_i = gi.chunk(3, -1)
    r_h, z_h, n_h = gh.chunk(3, -1)
    r = (r_i + r_h).sigmoid()
    z = (z_i + z_h).sigmoid()
    n = (n_i + r * n_h).tanh()
    return (1 - z) * n + z * h


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be a positive integer")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError("num_layers must be a positive integer")
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if proj_size:
            raise NotImplementedError("LSTM proj_size is not supported")
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        kw = {"device": device, "dtype": dtype}
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else hidden_size * directions
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(torch.empty(shape, **kw)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            init.uniform_(p, -stdv, stdv)

    def flatten_parameters(self):
        """A cuDNN layout step in PyTorch; nothing to do here."""

    def _weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        get = lambda name: getattr(self, name + suffix) if self.bias or "weight" in name else None  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh")

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.shape[-1]}")
        directions = 2 if self.bidirectional else 1
        batch = input.shape[1]
        state_shape = (self.num_layers * directions, batch, self.hidden_size)
        hx = self._initial_state(hx, batched, state_shape, input)
        if self.mode == "LSTM" and input.shape[0] > 0:
            output, state = self._lstm_layers(input, hx)
        else:
            output, state = self._step_layers(input, hx, batch)
        if not batched:
            output = output.squeeze(1)
            state = tuple(s.squeeze(1) for s in state) if self.mode == "LSTM" else state.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, state

    def _forward_packed(self, packed, hx):
        """A PackedSequence: the step equations over each step's running sequences (a prefix of the sorted
        batch), so that each sequence's final state is the one after its own last step."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        if data.dim() != 2:
            raise RuntimeError(f"input must have 2 dimensions, got {data.dim()}")
        if data.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{data.shape[-1]}")
        directions = 2 if self.bidirectional else 1
        batch = int(batch_sizes[0])
        if hx is not None and sorted_indices is not None:  # the caller's batch order -> the packed order
            hx = tuple(h.index_select(1, sorted_indices) for h in hx) if self.mode == "LSTM" else \
                hx.index_select(1, sorted_indices)
        hx = self._initial_state(hx, True, (self.num_layers * directions, batch, self.hidden_size), data)
        steps = list(data.split(batch_sizes.tolist()))
        output, state = self._step_layers(steps, hx, batch, stack=False)
        if unsorted_indices is not None:
            state = tuple(h.index_select(1, unsorted_indices) for h in state) if self.mode == "LSTM" else \
                state.index_select(1, unsorted_indices)
        return PackedSequence(torch.cat(output), batch_sizes, sorted_indices, unsorted_indices), state

    def _lstm_layers(self, input, hx):
        """Each layer (and direction) in one op: the input projection of every
        step is one product, the recurrence and its gradient run in C++
        (torch._lstm_sequence), as PyTorch's fused LSTM does."""
        directions = 2 if self.bidirectional else 1
        h_n, c_n = [], []
        layer_input = input
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, direction)
                x = layer_input.flip(0) if direction else layer_input
                gi = F.linear(x, w_ih, None if b_ih is None else b_ih + b_hh)
                out, cells, _ = torch._lstm_sequence(gi, hx[0][index], hx[1][index], w_hh)
                h_n.append(out[-1])
                c_n.append(cells[-1])
                outputs.append(out.flip(0) if direction else out)
            layer_input = outputs[0] if directions == 1 else torch.cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        return layer_input, (torch.stack(h_n), torch.stack(c_n))

    def _step_layers(self, input, hx, batch, stack=True):
        """RNN and GRU (and an empty sequence, and packed input): the equations step by step. `input` is a
        (T, batch, features) tensor or a list of per-step tensors whose rows may be fewer than the batch's
        (a PackedSequence's): a step then advances only the first rows' states."""
        directions = 2 if self.bidirectional else 1
        h_n, c_n = [], []
        steps = list(input.unbind(0)) if stack else input  # per time step, (rows, features)
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, direction)
                h = (hx[0][index], hx[1][index]) if self.mode == "LSTM" else hx[index]
                order = range(len(steps) - 1, -1, -1) if direction else range(len(steps))
                seq = [None] * len(steps)
                for t in order:
                    rows = steps[t].shape[0]
                    if rows == batch:
                        h = _rnn_step(self.mode, F.linear(steps[t], w_ih, b_ih), h, w_hh, b_hh)
                        seq[t] = h[0] if self.mode == "LSTM" else h
                        continue
                    running = (h[0][:rows], h[1][:rows]) if self.mode == "LSTM" else h[:rows]
                    new = _rnn_step(self.mode, F.linear(steps[t], w_ih, b_ih), running, w_hh, b_hh)
                    if self.mode == "LSTM":
                        h = (torch.cat([new[0], h[0][rows:]]), torch.cat([new[1], h[1][rows:]]))
                        seq[t] = new[0]
                    else:
                        h = torch.cat([new, h[rows:]])
                        seq[t] = new
                outputs.append(seq)
                h_n.append(h[0] if self.mode == "LSTM" else h)
                if self.mode == "LSTM":
                    c_n.append(h[1])
            steps = outputs[0] if directions == 1 else [torch.cat(pair, -1) for pair in zip(*outputs)]
            if self.dropout and self.training and layer < self.num_layers - 1:
                steps = [F.dropout(x, self.dropout, True) for x in steps]
        if not stack:
            output = steps
        else:
            output = torch.stack(steps) if steps else input.new_zeros(0, batch, self.hidden_size * directions)
        h_n = torch.stack(h_n)
        return output, ((h_n, torch.stack(c_n)) if self.mode == "LSTM" else h_n)

    def _initial_state(self, hx, batched, shape, input):
        def check(h, what):
            h = h if batched else h.unsqueeze(1)
            if tuple(h.shape) != shape:
                raise RuntimeError(f"Expected {what} size {tuple(shape) if batched else (shape[0], shape[2])}, got "
                                   f"{tuple(h.shape) if batched else tuple(h.squeeze(1).shape)}")
            return h

        if hx is None:
            zeros = torch.zeros(shape, dtype=input.dtype, device=input.device)
            return (zeros, zeros) if self.mode == "LSTM" else zeros
        if self.mode == "LSTM":
            if not isinstance(hx, tuple) or len(hx) != 2:
                raise RuntimeError("LSTM expects hx as a tuple (h_0, c_0)")
            return check(hx[0], "hidden"), check(hx[1], "cell")
        return check(hx, "hidden")

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s


class RNN(RNNBase):
    def __init__(self, *args, nonlinearity="tanh", **kwargs):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    def __init__(self, mode, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.bias = mode, input_size, hidden_size, bias
        gate_size = _GATES[mode] * hidden_size
        kw = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(torch.empty(gate_size, input_size, **kw))
        self.weight_hh = Parameter(torch.empty(gate_size, hidden_size, **kw))
        if bias:
            self.bias_ih = Parameter(torch.empty(gate_size, **kw))
            self.bias_hh = Parameter(torch.empty(gate_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        stdv = 1.0 / math.sqrt(hidden_size)
        for p in self.parameters():
            init.uniform_(p, -stdv, stdv)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} expected {self.input_size}")
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
            hx = (zeros, zeros) if self.mode == "LSTM" else zeros
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if self.mode == "LSTM" else hx.unsqueeze(0)
        out = _rnn_step(self.mode, F.linear(x, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if self.mode == "LSTM" else out.squeeze(0)
        return out

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, bias,
                         device, dtype)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)
