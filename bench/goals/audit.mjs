// R14: `pnpm audit --prod` reports 0 high/critical advisories, and Express is ≥ 5. The audit asks
// the configured registry's advisory endpoint; a registry without one (a mirror) is reported as
// SKIP with its answer, never as a pass.
import { spawnSync } from 'node:child_process';
import { ROOT, goal, log, main, skip } from '../lib/common.mjs';
import { serverRequire } from '../lib/deps.mjs';

main('R14', async () => {
  const express = serverRequire('express/package.json').version;
  log('R14', `pnpm audit --prod --json (express ${express})`);
  const run = spawnSync('pnpm', ['audit', '--prod', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 90_000,
  });
  let report = null;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    // not JSON: the endpoint failed
  }
  const vulns = report?.metadata?.vulnerabilities;
  if (!vulns) {
    // The registry's address is not repeated into results (they end up in notes and READMEs).
    const answer = (run.stdout + run.stderr).replace(/https?:\/\/\S+/g, '<registry>').replace(/[│×]/g, ' ');
    const reason = answer.replace(/\s+/g, ' ').trim().slice(0, 200) || `exit ${run.status}`;
    return [
      skip({
        id: 'R14',
        title: 'pnpm audit --prod: high/critical advisories',
        reason: `audit unavailable: ${reason}`,
        details: { express },
      }),
    ];
  }
  const bad = (vulns.high ?? 0) + (vulns.critical ?? 0);
  return [
    goal({
      id: 'R14',
      title: 'pnpm audit --prod: high + critical advisories',
      value: Number(express.split('.')[0]) >= 5 ? bad : NaN,
      op: '==',
      target: 0,
      digits: 0,
      details: { vulnerabilities: vulns, express },
      note: `${JSON.stringify(vulns)}; express ${express}`,
    }),
  ];
});
