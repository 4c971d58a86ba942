"""The example extension against the installed torch: values, gradients,
errors as Python exceptions, and (on a CUDA build) the CUDA kernel's registration."""
import pytest
import torch

import fused_ops


def reference(x, bias):
    return (x + bias).relu()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_unfused_ops(dtype):
    x, bias = torch.randn(8, 5, dtype=dtype), torch.randn(5, dtype=dtype)
    assert torch.equal(fused_ops.bias_relu(x, bias), reference(x, bias))
    # non-contiguous input
    xt = torch.randn(5, 8, dtype=dtype).t()
    assert torch.equal(fused_ops.bias_relu(xt, bias), reference(xt, bias))


def test_gradients_flow_through_the_autograd_function():
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    bias = torch.randn(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fused_ops.bias_relu, (x, bias))
    out = fused_ops.bias_relu(x, bias)
    assert out.grad_fn.name() == "BiasReLUBackward"
    out.sum().backward()
    expected = (x + bias > 0).double()
    assert torch.equal(x.grad, expected)
    assert torch.equal(bias.grad, expected.sum(0))


def test_the_raw_operator_refuses_a_gradient():
    x = torch.randn(2, 3, requires_grad=True)
    out = torch.ops.fused_ops.bias_relu(x, torch.zeros(3))
    with pytest.raises(NotImplementedError, match="fused_ops::bias_relu"):
        out.sum().backward()


def test_errors_from_cpp_arrive_as_python_exceptions():
    with pytest.raises(RuntimeError, match="bias must be 1-d"):
        fused_ops.bias_relu(torch.zeros(2, 3), torch.zeros(4))
    with pytest.raises(RuntimeError, match="Float but bias is Double"):
        fused_ops.bias_relu(torch.zeros(2, 3), torch.zeros(3, dtype=torch.float64))
    with pytest.raises(TypeError, match="argument 'bias' must be Tensor, not int"):
        torch.ops.fused_ops.bias_relu(torch.zeros(2, 3), 1)


def test_kernels_registered_for_this_torch():
    schema = str(torch.ops.fused_ops.bias_relu.default._schema)
    assert schema == "fused_ops::bias_relu(Tensor x, Tensor bias) -> Tensor"
    assert fused_ops._build_info.TORCH_VERSION == torch.__version__
    assert fused_ops._build_info.WITH_CUDA == (torch.version.cuda is not None)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_kernel_matches_cpu():
    x, bias = torch.randn(1000, 33), torch.randn(33)
    got = fused_ops.bias_relu(x.cuda(), bias.cuda())
    assert got.device.type == "cuda"
    assert torch.equal(got.cpu(), reference(x, bias))
    xg = x.cuda().requires_grad_()
    fused_ops.bias_relu(xg, bias.cuda()).sum().backward()
    assert torch.equal(xg.grad.cpu(), (x + bias > 0).float())
