import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The README's shell examples, run in order against the real service started on its embedded
 * defaults, so the README cannot drift from the code. Every ```sh block runs, in one bash process
 * (variables carry from block to block), except those right after the comment
 * `<!-- not run by test/readme-examples.test.ts: <reason> -->`. Two things stand in for the reader:
 * `curl` fails on an HTTP error (as `--fail-with-body` does) so a broken example fails the test,
 * and `npm` runs in the repository while the examples' files (the `lease.pdf` the README writes
 * before its first upload among them) go to an empty folder of the test's own, so an example that
 * uses a file before the README makes it fails. The service's address replaces
 * http://localhost:3000.
 */

const root = path.resolve(import.meta.dirname, '..');
const SKIP = '<!-- not run by test/readme-examples.test.ts:';

function runnableBlocks(readme: string): string[] {
  const blocks: string[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const skipped = lines[i - 1]?.startsWith(SKIP) ?? false;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (!skipped) blocks.push(body.join('\n'));
  }
  return blocks;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe("the README's examples work when pasted, in order", () => {
  let service: ChildProcess;
  let dataDir: string;
  let workDir: string;
  let base: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-data-'));
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-work-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      service.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('service started')) resolve();
      });
      service.on('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
    });
  }, 60_000);

  afterAll(() => {
    service?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('the blocks not run are few, and each says why', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const skips = readme.split('\n').filter((line) => line.startsWith(SKIP));
    expect(skips.length).toBeLessThanOrEqual(6);
    for (const skip of skips) expect(skip).toMatch(/: \S.{10,} -->$/);
    expect(runnableBlocks(readme).length).toBeGreaterThanOrEqual(12);
  });

  it('every other block runs against the started service without an error', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const script = [
      'set -euo pipefail',
      `npm() { command npm --prefix ${JSON.stringify(root)} "$@"; }`,
      'curl() { command curl -sS --fail-with-body "$@"; echo; }',
      ...runnableBlocks(readme).map((block, i) => `echo "### block ${i + 1}" >&2\n${block.replaceAll('http://localhost:3000', base)}`),
    ].join('\n');
    const result = spawnSync('bash', ['-c', script], {
      cwd: workDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? workDir, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status, `${result.stderr}\n${result.stdout.slice(-3000)}`).toBe(0);
    expect(result.stdout).toContain('"code"');
  }, 150_000);
});
