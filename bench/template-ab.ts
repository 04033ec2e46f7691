/**
 * npx tsx bench/template-ab.ts <checkout A> [<checkout B>]: the template API's figures of bench/run.ts
 * (GET ?id=, PUT, POST + DELETE, each as a ratio to the bare route) for two checkouts in one run, B
 * defaulting to this one. Each side runs its own forked server (its own bench/server-child.ts and
 * SQLite folder, 100 templates stored); every slice of every subject alternates between A and B,
 * the order shifted every round, so a burst of other work on the machine slows one slice, not one
 * side. Each side's ratio is the median of its rounds' ratios to its own bare route; the server's
 * CPU time per request (from /proc) moves much less than rates on a shared machine. Prints figures,
 * not verdicts.
 *
 * AB_ROUNDS (default 6), AB_SLICE_SECONDS (default 1), AB_SUBJECTS (default all, comma-separated, e.g.
 * `get`; the bare route, each side's reference, always runs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSecondsOf, figure, fileCreationMicros, inTurns, number, type Run, type Server, say, seed, startServer, stopServers, table } from './load.js';
import { SUBJECTS as ALL_SUBJECTS, type Subject, templateSlice } from './template-requests.js';

const SUBJECTS = ALL_SUBJECTS.filter((subject) => !process.env.AB_SUBJECTS || subject === 'bare' || process.env.AB_SUBJECTS.split(',').includes(subject));
const ROUNDS = Number(process.env.AB_ROUNDS ?? 6);
const SLICE_SECONDS = Number(process.env.AB_SLICE_SECONDS ?? 1);
const STORED = 100;
const SIDES = ['A', 'B'] as const;
type Side = (typeof SIDES)[number];
type Turn = `${Subject} ${Side}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[Math.floor((sorted.length - 1) / 2)] ?? 0) + (sorted[Math.ceil((sorted.length - 1) / 2)] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const [first, second] = process.argv.slice(2);
  if (!first) throw new Error('usage: npx tsx bench/template-ab.ts <checkout A> [<checkout B>]');
  const checkouts: Record<Side, string> = { A: path.resolve(first), B: path.resolve(second ?? path.join(import.meta.dirname, '..')) };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-template-ab-'));
  const servers: Partial<Record<Side, Server>> = {};
  try {
    const ids: Record<Side, string[]> = { A: [], B: [] };
    for (const side of SIDES) {
      const server = await startServer({ dataDir: path.join(dataDir, side), checkout: checkouts[side], stores: ['service'] });
      servers[side] = server;
      ids[side] = (await seed(server, 'service', STORED)).ids;
    }
    const serverOf = (side: Side): Server => {
      const server = servers[side];
      if (!server) throw new Error(`side ${side} did not start`);
      return server;
    };
    say(
      `A/B of the template API: A = ${checkouts.A}, B = ${checkouts.B}; ${os.cpus().length} cores, ` +
        `load average ${number(os.loadavg()[0] ?? 0, 2)}; creating a file costs ${number(fileCreationMicros(dataDir))} µs of CPU here`,
    );
    const cpuMicros = new Map<Turn, number[]>();
    const parts = new Map<Turn, { subject: Subject; side: Side }>(
      SUBJECTS.flatMap((subject) => SIDES.map((side): [Turn, { subject: Subject; side: Side }] => [`${subject} ${side}`, { subject, side }])),
    );
    const slice = async (turn: Turn, seconds: number): Promise<Run> => {
      const part = parts.get(turn);
      if (!part) throw new Error(`no such turn: ${turn}`);
      const { subject, side } = part;
      const server = serverOf(side);
      const before = cpuSecondsOf(server.child);
      const result = await templateSlice(server, subject, ids[side], seconds);
      const after = cpuSecondsOf(server.child);
      if (before !== undefined && after !== undefined && result.ok > 0)
        cpuMicros.set(turn, [...(cpuMicros.get(turn) ?? []), ((after - before) * 1e6) / result.ok]);
      return result;
    };
    const turns = [...parts.keys()];
    // The warm-up lets V8 optimise each route and SQLite fill its cache before anything counts.
    for (const turn of turns) await slice(turn, SLICE_SECONDS);
    cpuMicros.clear();
    const runs = await inTurns(turns, ROUNDS, (turn) => slice(turn, SLICE_SECONDS));
    const of = (turn: Turn) => runs.get(turn) ?? [];
    const rows = SUBJECTS.map((subject) => {
      const a = figure(of(`${subject} A`), of('bare A'));
      const b = figure(of(`${subject} B`), of('bare B'));
      const problems = [...a.problems, ...b.problems];
      return [
        subject,
        number(a.perSecond),
        number(a.ratio, 2),
        number(median(cpuMicros.get(`${subject} A`) ?? [])),
        number(b.perSecond),
        number(b.ratio, 2),
        number(median(cpuMicros.get(`${subject} B`) ?? [])),
        problems.length > 0 ? `ERROR: ${[...new Set(problems)].join('; ')}` : '',
      ];
    });
    say('');
    say(table(['subject', 'A per second', 'A x bare', 'A CPU µs/request', 'B per second', 'B x bare', 'B CPU µs/request', ''], rows));
    say(
      `(${ROUNDS} rounds of ${SLICE_SECONDS} s, every subject's A and B in turns; x bare is the median of the rounds' ratios ` +
        `to the same side's bare route; CPU µs/request is the server process's, median over rounds; load average now ${number(os.loadavg()[0] ?? 0, 2)})`,
    );
  } finally {
    await stopServers(Object.values(servers), dataDir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`template-ab failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
