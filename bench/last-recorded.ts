/**
 * The figures each bench last recorded, kept in bench/last-recorded.json (in git), so that a run
 * far below them says so: a goal set well below what the service does let a fall to a quarter
 * pass unnoticed. The file changes only when asked (BENCH_RECORD=1, or by hand), never on every
 * run, so one noisy run does not lower the mark.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRecord } from '../src/is-record.js';

const FILE = path.join(import.meta.dirname, 'last-recorded.json');

export interface Measured {
  name: string;
  value: number;
  unit: string;
  /** Deliveries per second are better higher, milliseconds lower. */
  better: 'higher' | 'lower';
}

interface Recorded {
  date: string;
  /** The one-minute load average when they were recorded: a figure from a busy machine says so. */
  load: number;
  figures: Record<string, Measured>;
}

function isMeasured(value: unknown): value is Measured {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.value === 'number' &&
    typeof value.unit === 'string' &&
    (value.better === 'higher' || value.better === 'lower')
  );
}

function isRecorded(value: unknown): value is Recorded {
  return (
    isRecord(value) &&
    typeof value.date === 'string' &&
    typeof value.load === 'number' &&
    isRecord(value.figures) &&
    Object.values(value.figures).every(isMeasured)
  );
}

function readAll(): Record<string, Recorded> {
  if (!fs.existsSync(FILE)) return {};
  const parsed: unknown = JSON.parse(fs.readFileSync(FILE, 'utf8'));
  if (!isRecord(parsed)) throw new Error(`${FILE} is not an object of benches`);
  const all: Record<string, Recorded> = {};
  for (const [bench, recorded] of Object.entries(parsed)) {
    if (!isRecorded(recorded)) throw new Error(`${FILE}: the entry of ${bench} is not {date, load, figures}`);
    all[bench] = recorded;
  }
  return all;
}

/** Half as good: below half for a rate, above double for a time. */
function fellBelowHalf(now: Measured, last: Measured): boolean {
  return now.better === 'higher' ? now.value < last.value / 2 : now.value > last.value * 2;
}

/**
 * Prints a warning for each figure that fell below half of the one `bench` last recorded; with
 * BENCH_RECORD=1, records these figures as the new marks instead.
 */
export function compareWithLastRecorded(bench: string, figures: Measured[]): void {
  const all = readAll();
  if (process.env.BENCH_RECORD === '1') {
    const recorded: Recorded = {
      date: new Date().toISOString().slice(0, 10),
      load: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
      figures: Object.fromEntries(figures.map((figure) => [figure.name, figure])),
    };
    fs.writeFileSync(FILE, `${JSON.stringify({ ...all, [bench]: recorded }, null, 2)}\n`);
    process.stdout.write(`recorded ${figures.length} figure(s) of ${bench} in ${path.relative(process.cwd(), FILE)}\n`);
    return;
  }
  const last = all[bench];
  if (!last) return;
  for (const figure of figures) {
    const before = last.figures[figure.name];
    if (!before || !fellBelowHalf(figure, before)) continue;
    process.stdout.write(
      `WARNING: ${figure.name}: ${figure.value} ${figure.unit} is ${figure.better === 'higher' ? 'below half of' : 'over twice'} ` +
        `the ${before.value} ${before.unit} recorded on ${last.date} (load ${last.load}; now ${(os.loadavg()[0] ?? 0).toFixed(2)})\n`,
    );
  }
}
