"""The release rehearsed on this machine, on top of the factory's wheelhouse:
release.py's steps against loopback servers (`steps`), and the real
workflows of a tag push under act with the local stand-ins of ci/act/
(`workflows`)."""
