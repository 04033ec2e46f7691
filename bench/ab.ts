/**
 * npx tsx bench/ab.ts <checkout A> [<checkout B>]: an A/B run of creations between two checkouts
 * of the service (B defaults to this one), to decide whether a change earns its place. Each side
 * runs in its own forked server (its own bench/server-child.ts, its own SQLite folder); slices of
 * the same creation alternate between A and B, the order swapped every round, and each figure is
 * the median over rounds of B's rate over A's in the same round, so a burst of other work on the
 * machine slows one slice, not one side. Prints figures, not verdicts.
 *
 * AB_ROUNDS (default 8), AB_SLICE_SECONDS (default 1), AB_CREATIONS (default all, comma-separated).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CREATION_LABEL, CREATIONS, type Creation, creationSlice } from './creation.js';
import { figure, fileCreationMicros, inTurns, number, type Run, type Server, say, startServer, stopServers, table } from './load.js';

const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const SLICE_SECONDS = Number(process.env.AB_SLICE_SECONDS ?? 1);
const SIDES = ['A', 'B'] as const;
type Side = (typeof SIDES)[number];

async function main(): Promise<void> {
  const [first, second] = process.argv.slice(2);
  if (!first) throw new Error('usage: npx tsx bench/ab.ts <checkout A> [<checkout B>]');
  const checkouts: Record<Side, string> = { A: path.resolve(first), B: path.resolve(second ?? path.join(import.meta.dirname, '..')) };
  const creations = CREATIONS.filter((creation) => !process.env.AB_CREATIONS || process.env.AB_CREATIONS.split(',').includes(creation));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ab-'));
  const servers: Partial<Record<Side, Server>> = {};
  try {
    for (const side of SIDES) {
      servers[side] = await startServer({ dataDir: path.join(dataDir, side), checkout: checkouts[side], stores: ['service'] });
    }
    const serverOf = (side: Side): Server => {
      const server = servers[side];
      if (!server) throw new Error(`side ${side} did not start`);
      return server;
    };
    say(
      `A/B of creations: A = ${checkouts.A}, B = ${checkouts.B}; ${os.cpus().length} cores, load average ${number(os.loadavg()[0] ?? 0, 2)}; ` +
        `creating a file costs ${number(fileCreationMicros(dataDir))} µs of CPU here`,
    );
    const rows: string[][] = [];
    for (const creation of creations) {
      const delivered: Record<Side, Run[]> = { A: [], B: [] };
      const cpu: Record<Side, Run[]> = { A: [], B: [] };
      const slice = async (side: Side, seconds: number): Promise<Run> => {
        const runs = await creationSlice(serverOf(side), 'service', creation, seconds);
        delivered[side].push(runs.delivered);
        if (runs.cpu) cpu[side].push(runs.cpu);
        return runs.created;
      };
      for (const side of SIDES) await slice(side, SLICE_SECONDS);
      for (const side of SIDES) {
        delivered[side].length = 0;
        cpu[side].length = 0;
      }
      const runs = await inTurns(SIDES, ROUNDS, (side) => slice(side, SLICE_SECONDS));
      const a = runs.get('A') ?? [];
      const b = runs.get('B') ?? [];
      const created = figure(b, a);
      const invitations = figure(delivered.B, delivered.A);
      const perCpu = cpu.B.length === ROUNDS && cpu.A.length === ROUNDS ? number(figure(cpu.B, cpu.A).ratio, 2) : '';
      rows.push([
        CREATION_LABEL[creation as Creation],
        number(figure(a, a).perSecond),
        number(created.perSecond),
        number(created.ratio, 2),
        perCpu,
        number(invitations.ratio, 2),
        created.problems.length > 0 ? `ERROR: ${[...new Set(created.problems)].join('; ')}` : '',
      ]);
      say(`${creation}: B/A ${number(created.ratio, 2)}${perCpu === '' ? '' : `, per CPU second ${perCpu}`}`);
    }
    say('');
    say(table(['creation', 'A created/s', 'B created/s', 'B/A created', 'B/A created per CPU s', 'B/A delivered', ''], rows));
    say(
      `(${ROUNDS} rounds of ${SLICE_SECONDS} s, A and B in turns; B/A is the median of the rounds' ratios; ` +
        "created per CPU s counts the server process's CPU time from each slice's start until its outbox is drained)",
    );
  } finally {
    await stopServers(Object.values(servers), dataDir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`ab failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
