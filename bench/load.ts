/**
 * What the bench's scripts share: the forked server (bench/server-child.ts), autocannon runs, slices
 * taken in turns, and figures as medians of each round's ratio.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { type ChildMessage, type DrainCommand, isChildMessage, type SeedCommand, type StoreAddress, type StoreName } from './protocol.js';

export const PREFIX = '/v1.5/ext';
export const CONNECTIONS = 10;

export interface Server {
  child: ChildProcess;
  bareUrl: string;
  stores: Partial<Record<StoreName, StoreAddress>>;
  /** Messages delivered by each store's outbox when last drained. */
  delivered: Partial<Record<StoreName, number>>;
}

/** Successful operations over a time; `problems` is anything that makes the figure suspect. */
export interface Run {
  ok: number;
  seconds: number;
  problems: string[];
}

export const perSecond = (run: Run) => run.ok / run.seconds;

function nextMessage(child: ChildProcess): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      child.off('exit', onExit);
      if (!isChildMessage(message)) reject(new Error(`unexpected message from the server: ${JSON.stringify(message)}`));
      else if (message.type === 'error') reject(new Error(`server: ${message.message}`));
      else resolve(message);
    };
    const onExit = (code: number | null, signal: string | null) => {
      child.off('message', onMessage);
      reject(new Error(`the server process exited (${signal ?? code})`));
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * Forks `checkout`'s bench/server-child.ts (this checkout's by default; bench/ab.ts gives another's)
 * on `dataDir`, running the stores named (all by default).
 */
export async function startServer(options: { dataDir: string; profileDir?: string | undefined; checkout?: string; stores?: StoreName[] }): Promise<Server> {
  const checkout = options.checkout ?? path.resolve(import.meta.dirname, '..');
  const child = fork(path.join(checkout, 'bench', 'server-child.ts'), [options.dataDir, ...(options.stores ? [options.stores.join(',')] : [])], {
    cwd: checkout,
    execArgv: ['--import', 'tsx', ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextMessage(child).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  if (ready.type !== 'ready') throw new Error(`expected the server to be ready, got ${ready.type}`);
  await settled(child);
  return { child, bareUrl: ready.bareUrl, stores: ready.stores, delivered: {} };
}

const SETTLE_PROBE_MS = 500;
/** Below a tenth of a core over a probe: what a started instance with nothing to serve uses. */
const SETTLED_CPU_SECONDS = 0.05;
const SETTLE_MAX_MS = 60_000;

/**
 * Resolves once the server has stopped using the CPU by itself: a serving instance loads its face
 * model in worker threads as it starts (one per store here, seconds of CPU each), and a figure
 * measured meanwhile measures that too. Where /proc cannot tell, it resolves at once.
 */
async function settled(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  let before = cpuSecondsOf(child);
  while (before !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_PROBE_MS));
    const now = cpuSecondsOf(child);
    if (now === undefined || now - before < SETTLED_CPU_SECONDS) return;
    before = now;
  }
}

// The kernel's unit for a process's CPU times in /proc (USER_HZ), 100 on every Linux build in use.
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user and system, all threads) the process has used so far, read from /proc; undefined
 * where there is no /proc. The machine is shared, so a slice's rate moves with whatever else runs;
 * the server's CPU time for each creation moves much less, as time spent waiting for a core or the
 * disk is not counted.
 */
export function cpuSecondsOf(child: ChildProcess): number | undefined {
  if (child.pid === undefined) return undefined;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name (in parentheses, which may hold spaces) start at the third: utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export function storeOf(server: Server, name: StoreName): StoreAddress {
  const store = server.stores[name];
  if (!store) throw new Error(`the server runs no ${name} store`);
  return store;
}

/** Closing the IPC channel lets the child close its databases itself; signals only if it does not. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.disconnect();
  const term = setTimeout(() => child.kill('SIGTERM'), 3_000);
  const kill = setTimeout(() => child.kill('SIGKILL'), 6_000);
  await exited;
  clearTimeout(term);
  clearTimeout(kill);
}

/** Stops every server started (a side that failed to start is undefined) and removes their data folder. */
export async function stopServers(servers: (Server | undefined)[], dataDir: string): Promise<void> {
  for (const server of servers) if (server) await stopServer(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Sends a command to the server and waits for its answer. */
async function ask(server: Server, command: SeedCommand | DrainCommand): Promise<ChildMessage> {
  const reply = nextMessage(server.child);
  server.child.send(command);
  return reply;
}

export async function seed(server: Server, store: StoreName, count: number): Promise<{ ids: string[]; stored: number }> {
  const seeded = await ask(server, { type: 'seed', store, count });
  if (seeded.type !== 'seeded') throw new Error(`expected seeded, got ${seeded.type}`);
  return seeded;
}

/** Waits until the store's outbox has nothing due; answers how many messages it delivered since the last drain. */
export async function drain(server: Server, store: StoreName): Promise<number> {
  const drained = await ask(server, { type: 'drain', store });
  if (drained.type !== 'drained') throw new Error(`expected drained, got ${drained.type}`);
  const before = server.delivered[store] ?? 0;
  server.delivered[store] = drained.delivered;
  return drained.delivered - before;
}

export function problemsOf(result: autocannon.Result): string[] {
  const problems: string[] = [];
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx`);
  if (result.errors > 0) problems.push(`${result.errors} socket errors`);
  return problems;
}

// autocannon ends a run only on its sampling tick (1 s by default), which would round short runs up.
export const base = { connections: CONNECTIONS, sampleInt: 100 } as const;

export async function run(options: autocannon.Options, seconds: number): Promise<Run> {
  const result = await autocannon({ ...base, ...options, duration: seconds });
  return { ok: result['2xx'], seconds: result.duration, problems: problemsOf(result) };
}

/** Every round runs each name once, starting one name later than the round before. */
export async function inTurns<K extends string>(names: readonly K[], rounds: number, slice: (name: K) => Promise<Run>): Promise<Map<K, Run[]>> {
  const runs = new Map<K, Run[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) runs.get(name)?.push(await slice(name));
  }
  return runs;
}

export interface Figure {
  perSecond: number;
  /** The median over rounds of this figure's rate over the reference's in the same round. */
  ratio: number;
  problems: string[];
}

export function figure(runs: Run[], reference: Run[]): Figure {
  const ratios = runs.map((r, i) => perSecond(r) / perSecond(reference[i] ?? r)).sort((a, b) => a - b);
  const median = ((ratios[Math.floor((ratios.length - 1) / 2)] ?? 0) + (ratios[Math.ceil((ratios.length - 1) / 2)] ?? 0)) / 2;
  const ok = runs.reduce((total, r) => total + r.ok, 0);
  const seconds = runs.reduce((total, r) => total + r.seconds, 0);
  return { perSecond: ok / seconds, ratio: median, problems: [...runs, ...reference].flatMap((r) => r.problems) };
}

export const number = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export const say = (text: string) => process.stdout.write(`${text}\n`);

const PROBE_FILES = 300;

/**
 * What creating a small file costs here, in CPU microseconds: each process created writes one. On
 * ext4 without a journal (this machine's disk), creating files in the minutes after many were
 * deleted (a test run, a bench's own cleanup) costs up to ten times as much, as the kernel skips
 * recently freed inodes one by one; printed so that a slow run can be told from a slow service. The
 * files stay in `folder`, removed with it.
 */
export function fileCreationMicros(folder: string): number {
  const probe = path.join(folder, 'file-probe');
  fs.mkdirSync(probe, { recursive: true });
  const bytes = Buffer.alloc(1024, 120);
  const before = process.cpuUsage();
  for (let i = 0; i < PROBE_FILES; i++) fs.writeFileSync(path.join(probe, `${i}`), bytes, { flag: 'wx' });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PROBE_FILES;
}
