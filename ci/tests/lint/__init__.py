"""Tests of ci/lint/, one file per module."""
