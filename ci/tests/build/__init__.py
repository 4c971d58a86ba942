"""Tests of ci/build/, one file per module."""
