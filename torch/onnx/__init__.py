"""torch.onnx: ONNX export is not part of this build. is_in_onnx_export() is
False (model code asks it); the exporters raise a RuntimeError naming the
feature, so scripts that export only when asked run."""
from torch._unsupported import define


def is_in_onnx_export():
    return False


define(globals(), "torch.onnx", "ONNX export (torch.onnx)", ["export", "dynamo_export", "select_model_mode_for_export",
                                                             "register_custom_op_symbolic",
                                                             "unregister_custom_op_symbolic"])
