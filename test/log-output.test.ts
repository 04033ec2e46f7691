import { describe, expect, it } from 'vitest';
import { startServerProcess } from './support/server-process.js';

/** Starts the service until it says it started, and answers what it printed on stdout. */
async function startedOutput(options: { terminal: boolean }): Promise<string> {
  const server = await startServerProcess(options);
  await server.stop();
  return server.output();
}

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
