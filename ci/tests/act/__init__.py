"""Tests of ci/act/, one file per module."""
