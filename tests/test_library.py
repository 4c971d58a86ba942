"""torch.library and torch.ops against the installed wheel: operators defined
from Python (Library, custom_op), their overloads, fake and autograd
registrations, opcheck, and the schema's alias annotations enforced."""
import itertools
import typing

import pytest
import torch
from torch.library import Library, custom_op, infer_schema, opcheck, register_autograd, register_fake

_counter = itertools.count()


def fresh_ns() -> str:
    """A namespace of its own per test: the registry lasts for the process."""
    return f"test_lib_{next(_counter)}"


def test_define_impl_and_the_overload_packet():
    ns = fresh_ns()
    lib = Library(ns, "DEF")
    lib.define("scale(Tensor x, float s=2.0) -> Tensor")
    lib.define("scale.int(Tensor x, int n) -> Tensor")
    lib.impl("scale", lambda x, s: x * s, "CPU")
    lib.impl("scale.int", lambda x, n: x * n + 1, "CPU")
    packet = getattr(torch.ops, ns).scale
    x = torch.arange(3.0)
    assert torch.equal(packet.default(x), x * 2)
    assert torch.equal(packet.default(x, s=3.0), x * 3)
    assert torch.equal(packet.int(x, 2), x * 2 + 1)
    assert sorted(packet.overloads()) == ["default", "int"]
    assert str(packet.default._schema) == f"{ns}::scale(Tensor x, float s=2.0) -> Tensor"
    assert packet.default.name() == f"{ns}::scale" and packet.int.name() == f"{ns}::scale.int"
    assert repr(packet.int) == f"<OpOverload(op='{ns}.scale', overload='int')>"
    with pytest.raises(AttributeError, match="no overload name 'nope'"):
        packet.nope
    with pytest.raises(TypeError, match="missing required argument 'x'"):
        packet.default()
    with pytest.raises(RuntimeError, match="already defined"):
        lib.define("scale(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match="Only a single TORCH_LIBRARY"):
        Library(ns, "DEF")


def test_a_python_kernel_per_device_and_a_missing_one():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x + x, "CPU")
    assert torch.equal(getattr(torch.ops, ns).twice(torch.ones(2)), torch.full((2,), 2.0))
    assert getattr(torch.ops, ns).twice.default._schema.arguments[0].name == "x"
    lib.define("only_cuda(Tensor x) -> Tensor")
    lib.impl("only_cuda", lambda x: x, "CUDA")
    with pytest.raises(NotImplementedError, match="only available for these backends: \\[CUDA\\]"):
        getattr(torch.ops, ns).only_cuda(torch.ones(1))


def test_a_python_kernel_returning_the_wrong_thing_is_a_type_error():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("bad(Tensor x) -> Tensor")
    lib.impl("bad", lambda x: 3, "CPU")
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        getattr(torch.ops, ns).bad(torch.ones(1))


def test_written_arguments_bump_their_version_and_undeclared_writes_are_refused():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("fill_into(Tensor x, Tensor(a!) out) -> ()")
    lib.impl("fill_into", lambda x, out: None if out.copy_(x) is None else None, "CPU")
    lib.define("sneaky(Tensor x) -> Tensor")
    lib.impl("sneaky", lambda x: x.add_(1).clone(), "CPU")
    out = torch.zeros(3)
    before = out._version
    getattr(torch.ops, ns).fill_into(torch.ones(3), out)
    assert torch.equal(out, torch.ones(3)) and out._version > before
    with pytest.raises(RuntimeError, match="wrote to its argument 'x', which its schema does not declare"):
        getattr(torch.ops, ns).sneaky(torch.zeros(2))
    # The same tensor in a read and a written place is fine.
    same = torch.ones(2)
    getattr(torch.ops, ns).fill_into(same, same)
    assert str(getattr(torch.ops, ns).fill_into.default._schema) == \
        f"{ns}::fill_into(Tensor x, Tensor(a!) out) -> ()"
    arg = getattr(torch.ops, ns).fill_into.default._schema.arguments[1]
    assert arg.alias_info.is_write and arg.is_write


def test_a_written_leaf_is_written_as_pytorch_custom_ops_allow():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("zero_it(Tensor(a!) x) -> ()")
    lib.impl("zero_it", lambda x: None if x.zero_() is None else None, "CPU")
    leaf = torch.ones(2, requires_grad=True)
    before = leaf._version
    getattr(torch.ops, ns).zero_it(leaf)
    assert leaf.tolist() == [0.0, 0.0] and leaf._version > before


def test_custom_op_with_fake_autograd_and_opcheck():
    ns = fresh_ns()

    @custom_op(f"{ns}::cube", mutates_args=())
    def cube(x: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
        return torch.from_numpy(x.detach().numpy() ** 3 * scale)  # opaque to autograd, as numpy code is

    @cube.register_fake
    def _(x, scale=1.0):
        return torch.empty_like(x)

    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x * ctx.scale, None

    x = torch.tensor([1.0, 2.0, -1.5], requires_grad=True)
    with pytest.raises(RuntimeError):  # no backward registered yet: the gradient cannot flow
        cube(x).sum().backward()
    cube.register_autograd(backward, setup_context=setup_context)
    y = cube(x, 2.0)
    torch.testing.assert_close(y, 2 * x.detach() ** 3)
    y.sum().backward()
    torch.testing.assert_close(x.grad, 6 * x.detach() ** 2)
    assert torch.autograd.gradcheck(lambda t: cube(t, 0.5), torch.randn(4, dtype=torch.float64, requires_grad=True))
    result = opcheck(cube._opoverload, (torch.randn(3, requires_grad=True),))
    assert result == {name: "SUCCESS" for name in torch.library.DEFAULT_TEST_UTILS}
    assert str(getattr(torch.ops, ns).cube.default._schema) == f"{ns}::cube(Tensor x, float scale=1.0) -> Tensor"


def test_custom_op_register_kernel_replaces_the_body_per_device():
    ns = fresh_ns()

    @custom_op(f"{ns}::tag", mutates_args=(), device_types="cpu")
    def tag(x: torch.Tensor) -> torch.Tensor:
        return x + 1

    assert torch.equal(tag(torch.zeros(1)), torch.ones(1))

    @tag.register_kernel("cpu")
    def _(x):
        return x + 10

    assert torch.equal(tag(torch.zeros(1)), torch.full((1,), 10.0))


def test_custom_op_mutation():
    ns = fresh_ns()

    @custom_op(f"{ns}::add_into", mutates_args=("out",))
    def add_into(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(a + b)

    register_fake(f"{ns}::add_into", lambda a, b, out: None)
    out = torch.empty(3)
    add_into(torch.ones(3), torch.ones(3), out)
    assert torch.equal(out, torch.full((3,), 2.0))
    assert opcheck(add_into, (torch.ones(3), torch.ones(3), torch.empty(3)))["test_schema"] == "SUCCESS"
    assert str(getattr(torch.ops, ns).add_into.default._schema) == \
        f"{ns}::add_into(Tensor a, Tensor b, Tensor(a!) out) -> ()"


def test_opcheck_finds_the_faults_it_is_for():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("lies(Tensor x) -> Tensor")
    # Writes its input through numpy (no version bump): only a value comparison sees it.
    lib.impl("lies", lambda x: (x.numpy().__iadd__(1), x.clone())[1], "CPU")
    register_fake(f"{ns}::lies", lambda x: torch.empty_like(x))
    with pytest.raises(torch.library.OpCheckError, match="does not declare as written"):
        opcheck(getattr(torch.ops, ns).lies.default, (torch.zeros(2),), test_utils="test_schema")

    lib.define("wrong_fake(Tensor x) -> Tensor")
    lib.impl("wrong_fake", lambda x: x.sum(0, keepdim=True), "CPU")
    register_fake(f"{ns}::wrong_fake", lambda x: torch.empty_like(x))
    with pytest.raises(torch.library.OpCheckError, match="the fake kernel gives shape"):
        opcheck(getattr(torch.ops, ns).wrong_fake.default, (torch.zeros(3, 2),))

    lib.define("no_fake(Tensor x) -> Tensor")
    lib.impl("no_fake", lambda x: x.clone(), "CPU")
    report = opcheck(getattr(torch.ops, ns).no_fake.default, (torch.zeros(1),), raise_exception=False)
    assert report["test_schema"] == "SUCCESS"
    assert isinstance(report["test_faketensor"], torch.library.OpCheckError)

    # As in PyTorch: an operator without a backward passes the registration
    # check (its outputs come from the not-implemented fallback), and a
    # gradient through it raises, naming the way to register one.
    lib.define("no_grad_rule(Tensor x) -> Tensor")
    lib.impl("no_grad_rule", lambda x: x * 2, "CPU")
    x = torch.ones(2, requires_grad=True)
    assert opcheck(getattr(torch.ops, ns).no_grad_rule.default, (x,),
                   test_utils="test_autograd_registration") == {"test_autograd_registration": "SUCCESS"}
    with pytest.raises(NotImplementedError, match="register_autograd"):
        getattr(torch.ops, ns).no_grad_rule(x).sum().backward()
    with pytest.raises(ValueError, match="unknown test_utils"):
        opcheck(getattr(torch.ops, ns).no_fake.default, (torch.zeros(1),), test_utils="test_everything")


def test_composite_implicit_kernels_are_differentiated_through():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("softsign(Tensor x) -> Tensor")
    lib.impl("softsign", lambda x: x / (1 + x.abs()), "CompositeImplicitAutograd")
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(getattr(torch.ops, ns).softsign, (x,))
    assert opcheck(getattr(torch.ops, ns).softsign.default, (x,))["test_faketensor"] == "SUCCESS"


def test_infer_schema():
    def g(x: torch.Tensor, out: torch.Tensor, size: typing.Sequence[int] = (), flag: bool = False,
          opt: typing.Optional[torch.Tensor] = None, *, scale: float = 0.5, tag: str = "a") -> None:
        raise AssertionError

    def h(xs: typing.List[torch.Tensor], n: int) -> typing.Tuple[torch.Tensor, torch.Tensor]:
        raise AssertionError

    assert infer_schema(g, mutates_args=("out",)) == \
        "(Tensor x, Tensor(a!) out, int[] size=[], bool flag=False, Tensor? opt=None, *, float scale=0.5, " \
        "str tag='a') -> ()"
    assert infer_schema(h, mutates_args=(), op_name="pair") == "pair(Tensor[] xs, int n) -> (Tensor, Tensor)"
    assert infer_schema(h, mutates_args="unknown") == "(Tensor(a!)[] xs, int n) -> (Tensor, Tensor)"
    with pytest.raises(ValueError, match="not arguments of g"):
        infer_schema(g, mutates_args=("nope",))
    with pytest.raises(ValueError, match="has no type annotation"):
        infer_schema(lambda x: x, mutates_args=())


def test_register_autograd_refuses_composite_and_names_must_exist():
    with pytest.raises(RuntimeError, match="does not exist"):
        register_fake("nowhere_ns::nothing", lambda x: x)
    with pytest.raises(ValueError, match="namespace::name"):
        register_autograd("no_namespace", lambda ctx, g: g)


def test_out_of_scope_hooks_raise_by_name():
    with pytest.raises(RuntimeError, match="register_vmap: torch.vmap is not part of this build"):
        torch.library.register_vmap("x::y", lambda *a: a)
    with pytest.raises(ValueError, match="aten"):
        Library("aten", "IMPL")


def test_aten_overloads_are_spelled_as_in_pytorch():
    x = torch.arange(3.0)
    assert torch.equal(torch.ops.aten.add.Tensor(x, x), x + x)
    assert torch.equal(torch.ops.aten.sin.default(x), torch.sin(x))
    out = torch.empty(3)
    torch.ops.aten.mul.out(x, x, out=out)
    assert torch.equal(out, x * x)
    assert "out" in torch.ops.aten.add.overloads()
    with pytest.raises(AttributeError, match="has no overload name 'nope'"):
        torch.ops.aten.add.nope


def test_torch_testing_internal_as_extension_suites_import_it():
    from torch.testing._internal.common_utils import TestCase
    from torch.testing._internal.optests import opcheck as internal_opcheck

    assert internal_opcheck is opcheck

    class Case(TestCase):
        def runTest(self):  # noqa: N802
            self.assertEqual(torch.ones(2), torch.ones(2))
            self.assertEqual([torch.ones(1), 2], [torch.ones(1), 2])
            self.assertNotEqual(torch.ones(2), torch.zeros(2))
            with self.assertRaises(AssertionError):
                self.assertEqual(torch.ones(2), torch.zeros(2))
            with self.assertRaises(AssertionError):  # dtypes must agree, as in PyTorch's TestCase
                self.assertEqual(torch.ones(2), torch.ones(2, dtype=torch.float64))

    result = Case().run()
    assert result.wasSuccessful(), result.failures + result.errors


def test_keyword_only_arguments_reach_kernels_fakes_and_autograd_by_name():
    ns = fresh_ns()

    @custom_op(f"{ns}::scaled", mutates_args=())
    def scaled(x: torch.Tensor, *, scale: float = 2.0) -> torch.Tensor:
        return x.detach() * scale

    @scaled.register_fake
    def _(x, *, scale=2.0):
        return torch.empty_like(x)

    def setup_context(ctx, inputs, keyword_only_inputs, output):  # PyTorch's form with keyword-only inputs
        ctx.scale = keyword_only_inputs["scale"]

    scaled.register_autograd(lambda ctx, grad: grad * ctx.scale, setup_context=setup_context)
    x = torch.ones(3, requires_grad=True)
    scaled(x, scale=5.0).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0, 5.0]
    assert torch.equal(getattr(torch.ops, ns).scaled(torch.ones(1), scale=4.0), torch.full((1,), 4.0))
    assert opcheck(scaled, (torch.ones(2, requires_grad=True),), {"scale": 3.0})["test_faketensor"] == "SUCCESS"
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        getattr(torch.ops, ns).scaled(torch.ones(1), 3.0)


def test_an_exception_in_a_python_kernel_keeps_its_class():
    ns = fresh_ns()
    lib = Library(ns, "FRAGMENT")
    lib.define("boom(Tensor x) -> Tensor")

    def boom(x):
        raise ValueError("bad value here")

    lib.impl("boom", boom, "CPU")
    with pytest.raises(ValueError, match="bad value here"):
        getattr(torch.ops, ns).boom(torch.ones(1))
