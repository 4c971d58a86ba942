"""cuDNN is not part of this build: is_available() is False, the flags are kept but unused."""
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None
