"""The local stand-ins for GitHub's hosted actions that a tag push's
workflows use under act (`standins`, `artifacts`, `standin/`); README.md
here says what stands in for what. ci/rehearse/workflows.py runs them."""
