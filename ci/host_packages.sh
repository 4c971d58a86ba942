#!/usr/bin/env bash
# The Debian packages of the named groups, installed in one apt-get before
# the steps that use them start. Each step still installs what it misses when
# run on its own (ci/local/image.py, ci/testing/wine.py, ci/repair/macos.py,
# ci/qemu_aarch64.sh); doing it here first means that steps running at the
# same time (.ci/run's background jobs) never meet on dpkg's lock.
#
#   bash ci/host_packages.sh GROUP...   # image, cross, qemu
#
# Without root or apt-get it says so and leaves it to the steps.
set -euo pipefail

# As each step would install them: wine64 without its recommendations (a
# desktop's worth), the rest with theirs (podman's networking helpers).
packages=()
lean_packages=()
for group in "$@"; do
  case "$group" in
    image) packages+=(podman runc debootstrap) ;;  # the container image and cibuildwheel's engine (ci/local/image.py)
    cross) packages+=(llvm)                        # Mach-O tools for delocate (ci/repair/macos.py)
           lean_packages+=(wine64) ;;              # the Windows wheel's suite (ci/testing/wine.py)
    qemu) packages+=(g++-aarch64-linux-gnu qemu-user) ;;  # the linux-aarch64 build and its suite
    *) echo "ci/host_packages.sh: unknown group $group (image, cross, qemu)" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "ci/host_packages.sh: not root with apt-get; each step installs or names what it needs" >&2
  exit 0
fi
missing() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
export DEBIAN_FRONTEND=noninteractive
updated=""
install() {  # install [apt-get options] PACKAGES...: an index update first only if the install fails
  apt-get install -y -q "$@" >/dev/null && return
  [ -z "$updated" ] || return 1
  apt-get update -q >/dev/null && updated=1 && apt-get install -y -q "$@" >/dev/null
}
mapfile -t want < <(missing "${packages[@]}")
mapfile -t lean < <(missing "${lean_packages[@]}")
if [ ${#want[@]} -eq 0 ] && [ ${#lean[@]} -eq 0 ]; then
  echo "ci/host_packages.sh: all installed" >&2
  exit 0
fi
echo "ci/host_packages.sh: apt-get install ${want[*]} ${lean[*]}" >&2
[ ${#want[@]} -eq 0 ] || install "${want[@]}"
[ ${#lean[@]} -eq 0 ] || install --no-install-recommends "${lean[@]}"
