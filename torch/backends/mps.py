"""Apple's Metal backend is not part of this build."""


def is_available():
    return False


def is_built():
    return False
