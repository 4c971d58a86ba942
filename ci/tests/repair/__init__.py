"""Tests of ci/repair/, one file per module."""
