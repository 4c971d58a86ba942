"""Plan: the build matrix (ci/matrix.toml) and its views (GitHub job matrix,
cibuildwheel selector, distribution names)."""
