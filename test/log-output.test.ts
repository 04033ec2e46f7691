import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from './support/ports.js';

const root = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];

/** Starts the service until it says it started, and answers what it printed on stdout. */
async function startedOutput(options: { terminal: boolean }): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-logs-'));
  dirs.push(dataDir);
  const port = await closedPort();
  const command = `${process.execPath} --import tsx src/server.ts`;
  // `script` gives the service a terminal as its stdout, as a person running `npm start` has.
  const [file, args] = options.terminal ? ['script', ['-qfec', command, '/dev/null']] : [process.execPath, ['--import', 'tsx', 'src/server.ts']];
  const child = spawn(file, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', TERM: 'dumb' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    await expect.poll(() => output.includes('service started'), { timeout: 60_000, interval: 200 }).toBe(true);
    return output;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('logs are pretty-printed when stdout is a terminal, and JSON lines otherwise', { timeout: 120_000 }, () => {
  it('on a terminal, each line is readable text with its level and message, not JSON', async () => {
    const output = await startedOutput({ terminal: true });
    const started = output.split(/\r?\n/).find((line) => line.includes('service started')) ?? '';
    expect(started).toMatch(/INFO/);
    expect(started.trim().startsWith('{')).toBe(false);
  });

  it('piped, each line is one JSON object a collector can read', async () => {
    const output = await startedOutput({ terminal: false });
    const started = output.split('\n').find((line) => line.includes('service started')) ?? '';
    expect(JSON.parse(started)).toMatchObject({ level: 30, msg: 'service started' });
  });
});
