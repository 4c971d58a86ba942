"""Answers recorded from real PyTorch 2.13 for programs written against the
torch API (cases.py). `record.py`, run with PyTorch installed, writes
values.json; test_oracle.py replays every case on this torch and compares.
Inputs and weights come from numpy's seeded generator, never from torch's
random functions, so both libraries see the same numbers."""
