"""ci/ccache.sh's base_dir: objects are keyed by paths relative to it, so it
must cover the checkout wherever the checkout is. With the temporary
directory as the fallback, a CI clone in /check/... keyed every object by its
absolute path and shared nothing with a run in /tmp (the sanitizer build took
22 minutes instead of half of one)."""
import os
import shutil
import subprocess

import pytest

CCACHE_SH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ccache.sh")

pytestmark = pytest.mark.skipif(shutil.which("ccache") is None, reason="ccache is not installed")


def base_dir(checkout, tmpdir):
    env = dict(os.environ, TMPDIR=str(tmpdir))
    env.pop("CCACHE_BASEDIR", None)
    out = subprocess.run(["bash", "-c", f'source "{CCACHE_SH}" 2>/dev/null; echo "$CCACHE_BASEDIR"'],
                         cwd=checkout, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_a_checkout_under_the_temporary_directory_shares_it(tmp_path):
    checkout = tmp_path / "tmp" / "clone" / "main"
    checkout.mkdir(parents=True)
    assert base_dir(checkout, tmp_path / "tmp") == os.path.realpath(tmp_path / "tmp")


def test_a_checkout_elsewhere_is_its_own_base_dir(tmp_path):
    checkout = tmp_path / "check" / "work" / "main"
    checkout.mkdir(parents=True)
    # A temporary directory with nothing but / in common with the checkout.
    elsewhere = "/dev/shm"
    if not os.path.isdir(elsewhere) or os.path.commonpath([os.path.realpath(checkout), elsewhere]) != "/":
        pytest.skip("needs /dev/shm beside the pytest temporary directory")
    assert base_dir(checkout, elsewhere) == os.path.realpath(checkout)
