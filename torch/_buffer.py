"""The memory behind any object with the buffer protocol (bytes, bytearray,
memoryview, mmap, array.array), for torch.frombuffer.

torch._C builds against the stable ABI of Python 3.9, which has no buffer
protocol (PEP 688 brought it in 3.11), so the buffer is taken here through
ctypes.pythonapi: PyObject_GetBuffer and PyBuffer_Release, whose Py_buffer
layout has been fixed since Python 3.3. A BufferExport holds the buffer until
it is garbage: the tensor made over it keeps it alive.
"""
import ctypes

_PyBUF_SIMPLE = 0
_PyBUF_WRITABLE = 1


class _PyBuffer(ctypes.Structure):
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes = (ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int)
_get_buffer.restype = ctypes.c_int
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes = (ctypes.POINTER(_PyBuffer),)
_release_buffer.restype = None


class BufferExport:
    """obj's buffer, held: `address`, `nbytes`, `readonly`. Writable where obj allows it."""

    def __init__(self, obj):
        self._view = None
        view = _PyBuffer()
        try:
            _get_buffer(obj, ctypes.byref(view), _PyBUF_WRITABLE)
        except (BufferError, TypeError):
            try:
                _get_buffer(obj, ctypes.byref(view), _PyBUF_SIMPLE)
            except (BufferError, TypeError):
                raise ValueError("object does not implement Python buffer protocol.") from None
        self._view = view
        self.address = view.buf or 0
        self.nbytes = view.len
        self.readonly = bool(view.readonly)

    def __del__(self):
        if self._view is not None:
            _release_buffer(ctypes.byref(self._view))
            self._view = None
