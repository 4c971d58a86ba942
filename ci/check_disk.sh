# Sourced by .ci/run first: a full run writes about 10 GiB (the factory's
# build trees and test venvs, CUDA's toolkit and NVIDIA's runtime wheels,
# the sanitizer build, the source-install copies, cibuildwheel's
# containers), plus the caches a fresh machine fills once (CPython builds,
# the container image). Below TORCH_CI_MIN_FREE_GIB (12) on the filesystems
# it writes to, it stops here and says so, instead of failing with ENOSPC
# halfway through a step.
check_disk() {
  local need="${TORCH_CI_MIN_FREE_GIB:-12}" dir free seen=""
  for dir in "$PWD" "${TMPDIR:-/tmp}" "$HOME" /var/lib/containers; do
    [ -d "$dir" ] || continue
    local dev
    dev="$(df -P "$dir" | awk 'NR == 2 {print $1}')"
    case " $seen " in *" $dev "*) continue ;; esac
    seen="$seen $dev"
    free="$(df -Pk "$dir" | awk 'NR == 2 {print int($4 / 1048576)}')"
    echo "ci/check_disk.sh: $free GiB free on $dev ($dir)" >&2
    if [ "$free" -lt "$need" ]; then
      echo "ci/check_disk.sh: a full .ci/run needs about $need GiB free on $dev ($dir) and only $free GiB are;" \
        "free some space (old clones in ${TMPDIR:-/tmp}, build/ trees) or set TORCH_CI_MIN_FREE_GIB" >&2
      return 1
    fi
  done
}
check_disk
