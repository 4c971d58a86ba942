"""Lint of the workflows: action pins (`action_pins`), runner labels
(`runners`), and the requirements each matrix cell installs (`requirements`)."""
