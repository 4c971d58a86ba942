"""Check: a repaired wheel's tests without running it: manylinux policy,
RPATHs and contents (`wheel`), Mach-O (`macho`, `macho_signature`), PE
(`pe`), and native code for the baseline CPU only (`cpu_code`)."""
