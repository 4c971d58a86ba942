"""Tests of ci/publish/, one file per module."""
