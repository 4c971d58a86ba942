"""Helpers for setup.py: settings (env.py), version (version.py), CMake driver (cmake.py)."""
