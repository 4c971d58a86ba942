"""Names of the reference PyTorch that this torch leaves out on purpose, with
the reason the coverage report prints. `names` are fnmatch patterns matched
against the bare name in every counted module (`modules` narrows that).
docs/USING.md's "Out of scope" list is the authority: a rule here names one of its
features, or internals that user programs do not call."""

RULES = [
    dict(
        reason='TorchScript / JIT internals',
        modules=['torch', 'torch.testing'],
        names=[
            'AliasDb', '*Type', 'Argument', 'ArgumentSpec', 'Block', 'CallStack', 'Capsule', 'ClassType', 'Code',
            'CompleteArgumentSpec', 'ConcreteModuleType*', 'DeepCopyMemoTable', 'ErrorReport', 'ExecutionPlan',
            'FileCheck', 'FunctionSchema', 'Gradient', 'Graph', 'GraphExecutorState', 'IODescriptor', 'InferredType',
            'LiteScriptModule', 'Node', 'OperatorInfo', 'Script*', 'StaticModule', 'TracingState', 'Use', 'Value',
            'fork', 'wait', 'import_ir_module*', 'merge_type_from_type_comment', 'parse_ir', 'parse_schema',
            'parse_type_comment', 'unify_type_list', 'AggregationType', 'BenchmarkConfig', 'BenchmarkExecutionStats',
            'ThroughputBenchmark', 'LockingLogger', 'LoggerBase', 'NoopLogger', 'BufferDict', 'ModuleDict',
            'ParameterDict', 'DispatchKey', 'DispatchKeySet', 'ExcludeDispatchKeyGuard',
        ],
    ),
    dict(
        reason='torch.compile and symbolic shapes',
        names=[
            'compile', 'Sym*', 'sym_*', 'classproperty', 'profiler_allow_cudagraph_*',
        ],
    ),
    dict(
        # torch.cond is control flow for compiled graphs; torch.linalg.cond,
        # the condition number, is in scope.
        reason='torch.compile and symbolic shapes',
        modules=['torch'],
        names=['cond', 'while_loop'],
    ),
    dict(
        reason='torch.compile and symbolic shapes (its hooks for custom operators: vmap, autocast, Triton, '
               'tensor subclasses, fake tensors with data-dependent shapes)',
        modules=['torch.library'],
        names=[
            'register_torch_dispatch', 'register_vmap', 'register_autocast', 'triton_op', 'wrap_triton', 'get_ctx',
        ],
    ),
    dict(
        reason='sparse tensors',
        names=[
            'sparse_*', '*smm', 'hspmm', 'spmm', 'saddmm', 'sspaddmm', '*indices_copy', 'values_copy', 'to_sparse*',
            'coalesce', 'is_coalesced', 'sparse_dim', 'dense_dim', 'sparse_mask', 'sparse_resize*', 'ccol_indices',
            'col_indices', 'crow_indices', 'row_indices', 'indices', 'values', 'resize_as_sparse_', 'to_dense',
            'segment_reduce',
        ],
    ),
    dict(
        reason='complex dtypes',
        names=[
            'complex', 'polar', 'view_as_complex*', 'view_as_real*', 'Complex*', 'cfloat', 'cdouble', 'chalf',
            'conj_physical*', 'is_conj', 'resolve_conj',
        ],
    ),
    dict(
        reason='complex dtypes (the FFTs produce or take complex tensors)',
        modules=['torch.fft'],
        names=[
            'fft', 'ifft', 'fft2', 'ifft2', 'fftn', 'ifftn', 'rfft', 'irfft', 'rfft2', 'irfft2', 'rfftn', 'irfftn',
            'hfft', 'ihfft', 'hfft2', 'ihfft2', 'hfftn', 'ihfftn',
        ],
    ),
    dict(
        reason='quantization',
        names=[
            'quantize*', 'dequantize', 'q_*', 'qscheme', 'int_repr', 'fake_quantize*',
            'fused_moving_avg_obs_fake_quant', 'choose_qparams_optimized', 'quantized_*', 'empty_quantized',
            'Q*Storage',
        ],
    ),
    dict(
        reason='vendor backend entry points (cuDNN, MIOpen, oneDNN, FBGEMM, Vulkan) this build does not use',
        names=[
            'cudnn_*', 'miopen_*', 'mkldnn_*', 'fbgemm_*', 'to_mkldnn', 'is_vulkan_available',
        ],
    ),
    dict(
        reason='devices this build has no backend for (IPU, XLA, XPU, MTIA)',
        names=[
            '*_ipu_*', '*_xla_*', 'ipu', 'xpu', 'mtia',
        ],
    ),
    dict(
        reason='distributed training',
        names=[
            'is_distributed',
        ],
    ),
]
