// Reads snapshot-golden's --junit report back with a real JUnit consumer (junit2json, pinned in
// scripts/junit-reader) and holds it against the same run's --format json report and the verdicts
// the test planted. Prints one "FAIL: ..." line per disagreement, "ok" when there is none.
// Usage: node junit_check.mjs READER_DIR JUNIT_XML REPORT_JSON [SET/FIXTURE=VERDICT ...]
//   READER_DIR   the folder whose node_modules holds junit2json (scripts/junit-reader)
//   SET/FIXTURE=VERDICT  a verdict the JSON report must give that fixture of that set (the
//                planted ones; every other fixture must pass)
// Exit codes: 0 all agree, 1 a disagreement, 2 usage, 3 the parser or a report cannot be read.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [readerDir, xmlPath, jsonPath, ...plantedArgs] = process.argv.slice(2);
if (!readerDir || !xmlPath || !jsonPath) {
  console.error('usage: node junit_check.mjs READER_DIR JUNIT_XML REPORT_JSON [SET/FIXTURE=VERDICT ...]');
  process.exit(2);
}

let parse;
try {
  // junit2json is an ES module: resolve it from the reader's package, then import the file.
  const resolved = createRequire(path.join(path.resolve(readerDir), 'package.json')).resolve('junit2json');
  ({ parse } = await import(pathToFileURL(resolved).href));
} catch (e) {
  console.error(`cannot load junit2json from ${readerDir}: ${e.message}`);
  process.exit(3);
}

let junit, report;
try {
  junit = await parse(readFileSync(xmlPath, 'utf8'));
  report = JSON.parse(readFileSync(jsonPath, 'utf8'));
} catch (e) {
  console.error(`cannot read the reports: ${e.message}`);
  process.exit(3);
}

let failures = 0;
const fail = (msg) => { console.log(`FAIL: ${msg}`); failures += 1; };
const expectEqual = (what, got, want) => {
  if (got !== want) fail(`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
};

// The JSON report itself: its schema, and the planted verdicts (every other fixture passes).
expectEqual('JSON schema', report.schema, 'snapshot-golden-check/1');
const strict = report.strict === true;
const planted = new Map();
for (const arg of plantedArgs) {
  const eq = arg.lastIndexOf('=');
  if (eq < 0) { console.error(`not SET/FIXTURE=VERDICT: ${arg}`); process.exit(2); }
  planted.set(arg.slice(0, eq), arg.slice(eq + 1));
}
const jsonFixtures = report.fixtures ?? [];
const seen = new Set();
for (const f of jsonFixtures) {
  const key = `${f.set}/${f.name}`;
  seen.add(key);
  expectEqual(`JSON verdict of ${key}`, f.verdict, planted.get(key) ?? 'pass');
}
for (const key of planted.keys()) if (!seen.has(key)) fail(`planted fixture ${key} is not in the JSON report`);

const isFailure = (verdict) => verdict !== 'pass' && (verdict !== 'format-drift' || strict);
const c = report.counts ?? {};
expectEqual('JSON counts.fixtures = fixtures listed', c.fixtures, jsonFixtures.length);
for (const v of ['pass', 'format-drift', 'accounts-drift', 'master-disagrees', 'unreadable']) {
  expectEqual(`JSON counts.${v} = fixtures listed with it`, c[v], jsonFixtures.filter((f) => f.verdict === v).length);
}
expectEqual('JSON counts.failures', c.failures,
  c['accounts-drift'] + c['master-disagrees'] + c.unreadable + (strict ? c['format-drift'] : 0));
expectEqual('JSON exit_code', report.exit_code, c.failures > 0 ? 1 : 0);

// The JUnit report as junit2json reads it: <testsuites> attributes, then one <testsuite> per set in
// the JSON's order, one <testcase> per fixture in the JSON's order.
const suites = junit.testsuite ?? [];
const countIn = (cases, key) => cases.filter((t) => Array.isArray(t[key]) && t[key].length > 0).length;
const allCases = suites.flatMap((s) => s.testcase ?? []);
expectEqual('<testsuites> name', junit.name, 'snapshot-golden');
expectEqual('<testsuites tests> = JSON counts.fixtures', junit.tests, c.fixtures);
expectEqual('<testsuites failures> = JSON accounts-drift + master-disagrees (+ format-drift with --strict)',
  junit.failures, c.failures - c.unreadable);
expectEqual('<testsuites errors> = JSON counts.unreadable', junit.errors, c.unreadable);
expectEqual('<testcase> elements = JSON counts.fixtures', allCases.length, c.fixtures);
expectEqual('<failure> testcases = JSON failures - unreadable', countIn(allCases, 'failure'), c.failures - c.unreadable);
expectEqual('<error> testcases = JSON counts.unreadable', countIn(allCases, 'error'), c.unreadable);
expectEqual('<failure> + <error> testcases = JSON counts.failures',
  countIn(allCases, 'failure') + countIn(allCases, 'error'), c.failures);

// The JSON lists the fixtures set after set; a set's are the next sets[i].fixtures of them (two
// sets may share a name: by position, not by name).
const sets = report.sets ?? [];
expectEqual('<testsuite> elements = JSON sets', suites.length, sets.length);
expectEqual('JSON sets[].fixtures summed = fixtures listed', sets.reduce((n, s) => n + s.fixtures, 0), jsonFixtures.length);
let offset = 0;
sets.forEach((set, i) => {
  const fixtures = jsonFixtures.slice(offset, offset + set.fixtures);
  offset += set.fixtures;
  const label = `suite ${i} (${set.name})`;
  fixtures.forEach((f) => expectEqual(`${label}: JSON fixture ${f.name}: set`, f.set, set.name));
  const suite = suites[i];
  if (!suite) return;
  const cases = suite.testcase ?? [];
  const setFailures = fixtures.filter((f) => f.verdict !== 'unreadable' && isFailure(f.verdict)).length;
  const setErrors = fixtures.filter((f) => f.verdict === 'unreadable').length;
  expectEqual(`${label}: name`, suite.name, set.name);
  expectEqual(`${label}: tests attribute = JSON sets[${i}].fixtures`, suite.tests, set.fixtures);
  expectEqual(`${label}: <testcase> elements = JSON sets[${i}].fixtures`, cases.length, set.fixtures);
  expectEqual(`${label}: failures attribute`, suite.failures, setFailures);
  expectEqual(`${label}: <failure> testcases`, countIn(cases, 'failure'), setFailures);
  expectEqual(`${label}: errors attribute`, suite.errors, setErrors);
  expectEqual(`${label}: <error> testcases`, countIn(cases, 'error'), setErrors);
  expectEqual(`${label}: skipped attribute`, suite.skipped, 0);
  fixtures.forEach((f, j) => {
    const t = cases[j];
    if (!t) return;
    const where = `${label}: testcase ${j}`;
    expectEqual(`${where}: name = fixture name`, t.name, f.name);
    expectEqual(`${where}: classname = set name`, t.classname, set.name);
    const failure = t.failure?.[0];
    const error = t.error?.[0];
    const out = t['system-out'];
    if (f.verdict === 'unreadable') {
      if (!error) fail(`${where} (${f.name}, unreadable): no <error>`);
      else expectEqual(`${where} (${f.name}): <error type>`, error.type, 'unreadable');
      if (failure) fail(`${where} (${f.name}, unreadable): a <failure> too`);
    } else if (isFailure(f.verdict)) {
      if (!failure) fail(`${where} (${f.name}, ${f.verdict}): no <failure>`);
      else {
        expectEqual(`${where} (${f.name}): <failure type>`, failure.type, f.verdict);
        if (!String(failure.message ?? '').startsWith(`${f.verdict}: `)) {
          fail(`${where} (${f.name}): <failure message> does not start with "${f.verdict}: ": ${failure.message}`);
        }
        if (!String(failure.inner ?? '').trim()) fail(`${where} (${f.name}): <failure> without details`);
      }
      if (error) fail(`${where} (${f.name}, ${f.verdict}): an <error> too`);
    } else {
      if (failure || error) fail(`${where} (${f.name}, ${f.verdict}): a <failure> or <error> for a non-failing fixture`);
      if (f.verdict === 'format-drift') {
        if (!Array.isArray(out) || !String(out[0]).startsWith('format-drift')) {
          fail(`${where} (${f.name}, format-drift): no <system-out> naming it`);
        }
      } else if (out) {
        fail(`${where} (${f.name}, pass): a <system-out>`);
      }
    }
  });
});

// Each failing testcase is named after its fixture, and they are exactly the failing fixtures.
const failingNames = (list) => list.sort().join(', ');
expectEqual('failing testcases (suite/name)',
  failingNames(suites.flatMap((s) => (s.testcase ?? []).filter((t) => t.failure || t.error).map((t) => `${s.name}/${t.name}`))),
  failingNames(jsonFixtures.filter((f) => isFailure(f.verdict)).map((f) => `${f.set}/${f.name}`)));

if (failures) {
  console.log(`${failures} disagreement(s)`);
  process.exit(1);
}
console.log(`ok: ${c.fixtures} testcases in ${sets.length} suites, ${junit.failures} failures, ${junit.errors} errors` +
  `${strict ? ' (--strict)' : ''}`);
