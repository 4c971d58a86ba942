// act runs this for every pinned action (ci/rehearse/workflows.py maps each to this
// folder): ci/act/standins.py does the step, with the step's inputs in its
// environment, in the step's working directory; the checkout that holds the
// `ci` package is two folders above the stand-ins.
const { spawnSync } = require("child_process");
const path = require("path");
const { TORCH_ACT_PYTHON: python, TORCH_ACT_STANDINS: standins } = process.env;
if (!python || !standins) {
  console.log("::error::a local stand-in for a GitHub-hosted action: it runs only under python3 -m ci act-release");
  process.exit(1);
}
const env = { ...process.env, PYTHONPATH: path.resolve(standins, "..", "..") };
const result = spawnSync(python, ["-m", "ci.act.standins"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
