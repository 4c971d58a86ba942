"""Code generator: native_functions.yaml -> C++ operator API and Python bindings.

model.py    parses the YAML into frozen dataclasses (and rejects what it does not know)
cpp.py      translates a schema into the C++ API (at:: functions, Tensor methods, at::native)
operators.py  PyTorch's other C++ spellings: at::_ops structs, TensorOptions factories, torch:: factories
python.py   translates a schema into a Python signature and binding code
gen.py      the driver: reads the YAML, fills the templates/, writes the build directory
"""
