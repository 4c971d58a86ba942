"""Tests of ci/testing/, one file per module."""
