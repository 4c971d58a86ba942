# Sourced by .ci/run: compile through ccache, so that what the factory's
# first CPU build compiles is not compiled again by the from-source installs
# (ci/test_source_installs.sh: pip install ., the sdist, -e, README's
# Developing block), each a copy of the tree in a temporary directory.
# ccache keys each object by compiler, flags and preprocessed source; the
# cache lives outside the repository. base_dir turns absolute paths under it
# into relative ones, so copies of the tree in different places share
# objects. It must not be / (system headers would turn relative too and
# differ from one tree depth to the next: no hits at all). Where the checkout
# is not under the temporary directory (CI clones to /check/...), base_dir is
# the checkout itself: its in-tree builds (the factory's, the sanitizers') key
# by relative paths, as a clone under /tmp does, and ci/test_source_installs.sh
# keeps its copies under build/ for the same reason.
# Without root and apt-get, or where the install fails, every build simply
# compiles everything (CMake uses ccache only when it finds it: USE_CCACHE).
if ! command -v ccache >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q ccache >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q ccache >/dev/null; } ||
    echo "ci/ccache.sh: ccache did not install; builds compile everything" >&2
fi
if command -v ccache >/dev/null; then
  export CCACHE_DIR="${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/torch-factory/ccache}"
  CCACHE_BASEDIR="$(python3 -c '
import os, sys, tempfile
tmp = tempfile.gettempdir()
checkout = os.path.realpath(sys.argv[1])
common = os.path.commonpath([checkout, os.path.realpath(tmp)])
print(common if common != "/" else checkout)' "$PWD")"
  export CCACHE_BASEDIR CCACHE_NOHASHDIR=1
  echo "ci/ccache.sh: $(ccache --version | head -n 1), cache $CCACHE_DIR, base_dir $CCACHE_BASEDIR" >&2
fi
