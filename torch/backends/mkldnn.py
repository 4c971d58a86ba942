"""oneDNN is not part of this build."""
enabled = True


def is_available():
    return False
