"""Tests of ci/check/, one file per module."""
