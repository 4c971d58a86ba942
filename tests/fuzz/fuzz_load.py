"""Coverage-guided fuzzing of torch.load (atheris), starting from the files
of load_seeds.py: every input must load or raise RuntimeError, within the
address-space limit below (a file must not expand into unbounded memory).

    python tests/fuzz/fuzz_load.py CORPUS_DIR -runs=5000 -seed=1   # see ci/fuzz.sh
"""
import io
import os
import resource
import sys

import atheris

with atheris.instrument_imports(include=["torch", "zipfile", "json", "pickle"]):
    import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_seeds  # noqa: E402


def one_input(data):
    try:
        torch.load(io.BytesIO(data))
    except RuntimeError:
        pass


def write_seeds(corpus):
    os.makedirs(corpus, exist_ok=True)
    files = {**load_seeds.valid(), **{k: v for k, v in load_seeds.hostile().items() if len(v) < 1 << 20}}
    for name, data in files.items():
        with open(os.path.join(corpus, f"seed-{name}"), "wb") as f:
            f.write(data)


def main():
    corpora = [a for a in sys.argv[1:] if not a.startswith("-")]
    if corpora and os.path.isdir(corpora[0]):  # files given instead: libFuzzer replays them
        write_seeds(corpora[0])
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
