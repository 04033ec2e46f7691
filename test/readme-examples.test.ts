import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from './support/ports.js';
import { dropSchema } from './support/postgres.js';
import { dialects } from './support/service.js';

/*
 * The shell examples of the README and of the guides, run in order against the real service started
 * on its embedded defaults, so the documentation cannot drift from the code. The files run in the
 * order of EXAMPLE_FILES (docs/testing.md says it), each file's ```sh blocks in order, in one bash
 * process, so variables carry from block to block and from the README to the guides. A block right
 * after the comment `<!-- not run by test/readme-examples.test.ts: <reason> -->` is left out. Two
 * things stand in for the reader: `curl` fails on an HTTP error (as `--fail-with-body` does) so a
 * broken example fails the test, and `npm` runs in the repository while the examples' files (the
 * `lease.pdf` the README writes, the webhook receiver's log) go to an empty folder of the test's
 * own, so an example that uses a file before a guide makes it fails. The service runs on free
 * ports given to the script as PORT and LOCAL_CHAT_PORT, which the examples' addresses follow (a
 * pasted http://localhost:3000 would fail), and it runs with WEBHOOK_ALLOW_PRIVATE=true, as the API
 * guide asks before its local webhook receiver.
 */

const root = path.resolve(import.meta.dirname, '..');
const SKIP = '<!-- not run by test/readme-examples.test.ts:';
const EXAMPLE_FILES = [
  'README.md',
  'docs/api.md',
  'docs/people-pages.md',
  'docs/whatsapp.md',
  'docs/face-matching.md',
  'docs/operations.md',
  'docs/testing.md',
];
const postgresUrl = process.env.TEST_DATABASE_URL;

function read(file: string): string {
  return fs.readFileSync(path.join(root, file), 'utf8');
}

function runnableBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const skipped = lines[i - 1]?.startsWith(SKIP) ?? false;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (!skipped) blocks.push(body.join('\n'));
  }
  return blocks;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');
}

function anchorsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

const documentation = ['README.md', 'CONTRIBUTING.md', ...fs.readdirSync(path.join(root, 'docs')).map((name) => `docs/${name}`)].filter((file) =>
  file.endsWith('.md'),
);

describe('the README and the guides link to what exists', () => {
  it('every relative link leads to a file of the repository, and every #anchor to a heading of it', () => {
    const broken: string[] = [];
    for (const file of documentation) {
      for (const match of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [linked, anchor] = target.split('#') as [string, string | undefined];
        const linkedFile = linked === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), linked));
        if (!fs.existsSync(path.join(root, linkedFile))) broken.push(`${file}: ${target}`);
        else if (anchor !== undefined && linkedFile.endsWith('.md') && !anchorsOf(read(linkedFile)).has(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the README's and the guides' examples work when pasted, in order", () => {
  it('every guide with shell examples is in the order the test runs', () => {
    const withExamples = documentation.filter((file) => read(file).includes('\n```sh\n'));
    expect(withExamples.filter((file) => !EXAMPLE_FILES.includes(file))).toEqual([]);
  });

  it('the blocks not run are few, and each says why', () => {
    const skips = EXAMPLE_FILES.flatMap((file) => read(file).split('\n')).filter((line) => line.startsWith(SKIP));
    expect(skips.length).toBeLessThanOrEqual(6);
    for (const skip of skips) expect(skip).toMatch(/: \S.{10,} -->$/);
    expect(EXAMPLE_FILES.flatMap((file) => runnableBlocks(read(file))).length).toBeGreaterThanOrEqual(20);
  });

  for (const dialect of dialects) {
    describe(`on ${dialect}`, () => {
      let service: ChildProcess;
      let dataDir: string;
      let workDir: string;
      let base: string;
      let port: number;
      let chatPort: number;
      const schema = `readme_${crypto.randomBytes(6).toString('hex')}`;
      const store: Record<string, string> = dialect === 'postgres' && postgresUrl ? { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema } : {};

      beforeAll(async () => {
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-data-'));
        workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-work-'));
        port = await closedPort();
        chatPort = await closedPort();
        base = `http://127.0.0.1:${port}`;
        service = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            DATA_DIR: dataDir,
            PORT: String(port),
            LOCAL_CHAT_PORT: String(chatPort),
            HOST: '127.0.0.1',
            PUBLIC_URL: base,
            LOG_LEVEL: 'info',
            WEBHOOK_ALLOW_PRIVATE: 'true',
            ...store,
          },
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

      afterAll(async () => {
        service?.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(workDir, { recursive: true, force: true });
        if (store.DATABASE_URL) await dropSchema(store.DATABASE_URL, schema);
      });

      it('every other block runs against the started service without an error', () => {
        const blocks = EXAMPLE_FILES.flatMap((file) => runnableBlocks(read(file)).map((block, i) => ({ file, i, block })));
        const script = [
          'set -euo pipefail',
          // A receiver an example starts in the background stops with the script, even when a block fails.
          "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
          `npm() { command npm --prefix ${JSON.stringify(root)} "$@"; }`,
          'curl() { command curl -sS --fail-with-body "$@"; echo; }',
          ...blocks.map(({ file, i, block }) => `echo "### ${file}, block ${i + 1}" >&2\n${block}`),
        ].join('\n');
        const result = spawnSync('bash', ['-c', script], {
          cwd: workDir,
          // The examples follow PORT and LOCAL_CHAT_PORT, as a reader's shell does after starting the service on other ports.
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? workDir,
            DATA_DIR: dataDir,
            LOG_LEVEL: 'silent',
            PORT: String(port),
            LOCAL_CHAT_PORT: String(chatPort),
            ...store,
          },
          encoding: 'utf8',
          timeout: 150_000,
        });
        expect(result.status, `${result.stderr}\n${result.stdout.slice(-3000)}`).toBe(0);
        expect(result.stdout).toContain('"code"');
        expect(fs.readFileSync(path.join(workDir, 'deliveries.log'), 'utf8').match(/"type":"webhook\.test"/g)).toHaveLength(2);
      }, 180_000);
    });
  }
});
