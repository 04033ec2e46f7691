import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { closedPort } from './ports.js';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  port: number;
  /** Everything the service printed on stdout so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `npm start` as a person or a container runs it: src/server.ts in a process of its own, with a
 * data folder of its own, once it says it started. `terminal` gives it a terminal as its stdout.
 */
export async function startServerProcess(options: { terminal: boolean }): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-process-'));
  const port = await closedPort();
  const chatPort = await closedPort();
  const command = `${process.execPath} --import tsx src/server.ts`;
  // `script` gives the service a terminal as its stdout, as a person running `npm start` has.
  const [file, args] = options.terminal ? ['script', ['-qfec', command, '/dev/null']] : [process.execPath, ['--import', 'tsx', 'src/server.ts']];
  const child = spawn(file, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_CHAT_PORT: String(chatPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TERM: 'dumb',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await expect.poll(() => output.includes('service started'), { timeout: 60_000, interval: 200 }).toBe(true);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, output: () => output, stop };
}
