"""python tools/api_coverage snapshot | report [--check]   (see __init__.py)

Run as a script path, not with -m from the checkout: the checkout's root on
sys.path would shadow the torch being read."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.getcwd()) != ROOT]
sys.path.insert(0, HERE)

import api_reading  # noqa: E402
import api_report  # noqa: E402

DOC = os.path.join(ROOT, "docs", "API_COVERAGE.md")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/api_coverage")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("snapshot", help="read the importable (reference) PyTorch's API into pytorch-<version>.json")
    report = sub.add_parser("report", help="compare the importable torch with the reference; write the report")
    report.add_argument("--check", action="store_true", help="fail if the report on disk differs")
    report.add_argument("--output", default=DOC)
    args = parser.parse_args(argv)

    api = api_reading.read_api()
    if args.command == "snapshot":
        path = os.path.join(HERE, f"pytorch-{api['torch_version'].rsplit('.', 1)[0]}.json")
        with open(path, "w") as f:
            json.dump(api, f, indent=0, sort_keys=True)
            f.write("\n")
        print(f"wrote {path}")
        return 0

    import torch
    reference = api_report.load_reference()
    comparison = api_report.compare(reference, api)
    text = api_report.render(reference, comparison, torch.__version__.split("+")[0])
    implemented, _, missing = api_report.totals(comparison)
    summary = f"coverage {implemented}/{implemented + missing} = {implemented / (implemented + missing):.1%}"
    if args.check:
        with open(args.output) as f:
            if f.read() != text:
                print(f"{args.output} is not current ({summary}): run python tools/api_coverage report",
                      file=sys.stderr)
                return 1
        print(summary)
        return 0
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {args.output}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
