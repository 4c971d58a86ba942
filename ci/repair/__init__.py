"""Repair: a built wheel made self-contained by auditwheel, delocate
(`macos`, with `macos_tools/` standing in for Apple's tools off macOS) or
delvewheel (`wheel`), then given its third-party notices and SBOM (`notices`)."""
