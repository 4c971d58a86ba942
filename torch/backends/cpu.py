"""torch.backends.cpu: which CPU code paths this process takes."""
from torch import _C


def get_cpu_capability():
    """"DEFAULT", "AVX2" or "AVX512": the widest of the hand-dispatched x86-64
    paths (the pointwise loops' wide copies, the AVX-512 exp/softmax/layer_norm
    kernels, the F16C float16 sum) that this CPU supports, capped by the
    ATEN_CPU_CAPABILITY environment variable ("default", "avx2", "avx512"),
    read once per process. Other platforms say "DEFAULT"."""
    return _C._get_cpu_capability()
