// act runs this for every pinned action (ci/act_release.py maps each to this
// folder): ci/act/standins.py does the step, with the step's inputs in its environment.
const { spawnSync } = require("child_process");
const { TORCH_ACT_PYTHON: python, TORCH_ACT_STANDINS: standins } = process.env;
if (!python || !standins) {
  console.log("::error::a local stand-in for a GitHub-hosted action: it runs only under python3 ci/act_release.py");
  process.exit(1);
}
const result = spawnSync(python, [`${standins}/standins.py`], { stdio: "inherit" });
process.exit(result.status ?? 1);
