#!/usr/bin/env node
// `npm run test:audit`: Doyensec's Electronegativity over the shell's own code (main, preload, the page's
// CSP), failing on any HIGH finding, with its findings written to .cache/electronegativity.csv.
// Offline: the check that asks the network for Electron releases is excluded.
// Called through its runner rather than its CLI, for two faults of 1.10.3: the CLI breaks on the project's
// commander 14 (it requires `commander` without declaring it), and its CSV writer races (header and rows
// are two unawaited writes to one file, so the report can come out garbled). The runner returns the
// findings themselves; the gate and the CSV are made from them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity/dist/runner.js');
const { devDependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const report = path.join(root, '.cache', 'electronegativity.csv');

// What ships as the shell: its sources and the page that carries the CSP; not its tests or test doubles.
const input = mkdtempSync(path.join(tmpdir(), 'flink-ops-electronegativity-'));
const shipped = (source) => !/\.test\.ts$|[/\\]testing([/\\]|$)/.test(source);
let result;
try {
  for (const folder of ['main', 'preload', 'common']) {
    cpSync(path.join(root, 'electron', folder), path.join(input, 'electron', folder), { recursive: true, filter: shipped });
  }
  cpSync(path.join(root, 'renderer', 'index.html'), path.join(input, 'renderer', 'index.html'));
  const logged = console.log;
  console.log = () => undefined; // the runner prints a progress bar and a table
  try {
    result = await run({
      input,
      customScan: [],
      excludeFromScan: ['availablesecurityfixesglobalcheck'],
      isRelative: true,
      isVerbose: false,
      electronVersionOverride: devDependencies.electron,
      parserPlugins: [],
    });
  } finally {
    console.log = logged;
  }
} finally {
  rmSync(input, { recursive: true, force: true });
}
if (result.errors.length > 0) {
  console.error(`Electronegativity could not check everything: ${JSON.stringify(result.errors)}`);
  process.exit(1);
}

const findings = result.issues.map((issue) => ({
  issue: issue.id,
  severity: issue.severity.name,
  confidence: issue.confidence.name,
  filename: issue.file,
  location: `${issue.location.line}:${issue.location.column}`,
  sample: issue.sample,
  description: issue.description,
  url: `https://github.com/doyensec/electronegativity/wiki/${issue.id}`,
}));
mkdirSync(path.dirname(report), { recursive: true });
writeFileSync(report, stringify(findings, { header: true, columns: ['issue', 'severity', 'confidence', 'filename', 'location', 'sample', 'description', 'url'] }));

const high = findings.filter((f) => f.severity === 'HIGH');
const counts = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'].map((s) => `${findings.filter((f) => f.severity === s).length} ${s}`);
console.log(`Electronegativity (Electron ${devDependencies.electron}, ${result.atomicChecks + result.globalChecks} checks): ${counts.join(', ')}; report in ${path.relative(root, report)}`);
for (const finding of high) console.error(`  HIGH ${finding.issue} at ${finding.filename}:${finding.location}: ${finding.description}`);
process.exit(high.length > 0 ? 1 : 0);
