def get_cpu_capability():
    """The instruction set the CPU kernels were compiled for (this build does not dispatch on it)."""
    return "DEFAULT"
