"""Tests of ci/rehearse/, one file per module."""
