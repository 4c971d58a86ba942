"""torch.layout: how a tensor's elements are stored. Only torch.strided (dense)
exists here; code that checks `t.layout == torch.strided` runs as in PyTorch."""


class layout:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):  # pickles as the one instance
        return (_by_name, (self._name,))


def _by_name(name):
    return globals()[name]


strided = layout("strided")
