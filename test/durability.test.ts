import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { applySqlitePragmas, SQLITE_PRAGMAS } from '../src/db/sqlite-pragmas.js';
import { PDF_BASE64 } from './support/signing.js';

const root = path.resolve(import.meta.dirname, '..');
const hasStrace = spawnSync('strace', ['-V']).status === 0;

describe('the service’s connection to the SQLite file runs in WAL mode and flushes the log itself after each COMMIT', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pragmas-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('the service’s connection reads back journal_mode wal, synchronous 1 (NORMAL: the group commit flushes the log), foreign keys on, temp_store 2 (MEMORY)', async () => {
    const handle = await openDatabase({ databaseUrl: undefined, databaseSchema: 'public', dataDir });
    try {
      const read = async (name: string) => Object.values((await sql.raw(`PRAGMA ${name}`).execute(handle.db)).rows[0] as Record<string, unknown>)[0];
      expect(await read('journal_mode')).toBe('wal');
      expect(await read('synchronous')).toBe(SQLITE_PRAGMAS.synchronous);
      expect(await read('foreign_keys')).toBe(1);
      expect(await read('temp_store')).toBe(SQLITE_PRAGMAS.temp_store);
    } finally {
      await handle.close();
    }
  });

  it('a connection that does not take a pragma is refused', () => {
    // An in-memory database cannot be in WAL mode: it answers "memory".
    const file = new BetterSqlite3(':memory:');
    try {
      expect(() => applySqlitePragmas(file)).toThrow(/journal_mode is memory, not wal/);
    } finally {
      file.close();
    }
  });
});

/**
 * `strace -f` splits a call that another thread's call interrupts into `<unfinished ...>` and
 * `<... name resumed>` lines (more often on a busy machine): joined here into one line, placed where
 * the call completed, so a read's data and a sync's end are found where they happened.
 */
function joinSplitCalls(lines: string[]): string[] {
  const started = new Map<string, string>();
  const joined: string[] = [];
  for (const line of lines) {
    const pid = /^(\d+)\s/.exec(line)?.[1];
    if (pid !== undefined && line.endsWith('<unfinished ...>')) {
      started.set(pid, line.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^\d+\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (pid !== undefined && resumed) {
      joined.push(`${started.get(pid) ?? ''}${resumed[1] ?? ''}`);
      started.delete(pid);
      continue;
    }
    joined.push(line);
  }
  return joined;
}

/** One line of `strace -f -y -s`: the call's name and what strace printed of it. */
function traced(lines: string[], call: string): number[] {
  return lines.flatMap((line, index) => (new RegExp(`\\b${call}\\(`).test(line) ? [index] : []));
}

describe.skipIf(!hasStrace)('a process the service acknowledged is on disk before the answer is written', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-durable-'));
  const trace = path.join(dataDir, 'strace.txt');
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the write-ahead log is fsynced after the request arrives and before the HTTP answer leaves, the document file before it (strace of the real service)', async () => {
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
    const org = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', 'org', 'create', '--name', 'Durable', '--email', 'owner@durable.test'], {
        cwd: root,
        env,
      }).toString(),
    ) as { privateKey: string };
    child = spawn(
      'strace',
      [
        '-f',
        '-y',
        '-s',
        '4200',
        '-e',
        'trace=read,recvfrom,write,writev,pwrite64,fsync,fdatasync',
        '-o',
        trace,
        process.execPath,
        '--import',
        'tsx',
        'src/server.ts',
      ],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const { pid, port } = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
      let out = '';
      child?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /"pid":(\d+),[^\n]*"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(out);
        if (match) resolve({ pid: Number(match[1]), port: Number(match[2]) });
      });
      child?.on('exit', (code) => reject(new Error(`the service ended with ${code}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}/v1.5/ext/document/upload`, {
      method: 'POST',
      headers: { authorization: org.privateKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@durable.test', name: 'Durable lease', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@durable.test' }] }),
    });
    const { code } = (await response.json()) as { code: string };
    expect(code).toMatch(/^[A-Z0-9]{10}$/);
    // The service shuts down on SIGTERM, and strace ends with the process it traced.
    const ended = new Promise((resolve) => child?.on('exit', resolve));
    process.kill(pid, 'SIGTERM');
    await ended;

    const lines = joinSplitCalls(fs.readFileSync(trace, 'utf8').split('\n'));
    const request = lines.findIndex((line) => /\b(read|recvfrom)\(\d+<(socket|TCP):/.test(line) && line.includes('POST /v1.5/ext/document/upload'));
    const answer = lines.findIndex((line) => /\b(write|writev)\(\d+<(socket|TCP):/.test(line) && line.includes(`\\"code\\":\\"${code}\\"`));
    expect(request, 'the request read from its socket').toBeGreaterThan(-1);
    expect(answer, 'the answer written to its socket').toBeGreaterThan(request);
    const syncs = [...traced(lines, 'fdatasync'), ...traced(lines, 'fsync')].sort((a, b) => a - b);
    const walSyncs = syncs.filter((index) => lines[index]?.includes('service.sqlite-wal>'));
    expect(walSyncs.some((index) => index > request && index < answer)).toBe(true);
    // The row names the PDF, so the file is flushed before the row reaches the log. A checkpoint on
    // another thread may sync the log at any time: the order is read from the log write that holds
    // the row, not from whichever log sync comes first.
    const fileSync = syncs.find((index) => index > request && /\/documents\/[0-9a-f]{2}\/[0-9a-f]{24}-0\.pdf\.[0-9a-f]+\.part>/.test(lines[index] ?? ''));
    expect(fileSync, 'the document file flushed').toBeDefined();
    const key = /\/(documents\/[0-9a-f]{2}\/[0-9a-f]{24}-0\.pdf)\./.exec(lines[fileSync ?? -1] ?? '')?.[1] ?? '';
    const rowWrite = traced(lines, 'pwrite64').find((index) => index > request && lines[index]?.includes('service.sqlite-wal>') && lines[index]?.includes(key));
    expect(rowWrite, 'the row written to the log').toBeDefined();
    expect(fileSync).toBeLessThan(rowWrite ?? -1);
    expect(walSyncs.filter((index) => index < answer).at(-1)).toBeGreaterThan(rowWrite ?? Number.MAX_SAFE_INTEGER);
  }, 60_000);
});
