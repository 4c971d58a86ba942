"""CUDA library flags. The matmul flags are kept; cuBLAS here always computes float32 in float32."""


class _MatmulFlags:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built():
    from torch import version

    return version.cuda is not None


def flash_sdp_enabled():
    return False


def mem_efficient_sdp_enabled():
    return False


def math_sdp_enabled():
    return True


def enable_flash_sdp(enabled):
    pass


def enable_mem_efficient_sdp(enabled):
    pass


def enable_math_sdp(enabled):
    if not enabled:
        raise RuntimeError("the math scaled_dot_product_attention kernel is the only one this build has")
