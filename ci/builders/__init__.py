"""Builders: the wheels through cibuildwheel (`cibw`) and, for macOS and
Windows, with zig on this host (`cross`); ci/factory.py builds the host's own."""
