"""Tests of ci/builders/, one file per module."""
