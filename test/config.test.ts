import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration is read from the environment once, with a clear error on bad values', () => {
  it('has embedded defaults: port 3000, ./data, SQLite, local files', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      uploadMaxBytes: 5 * 1024 * 1024,
      templateCacheBytes: 16 * 1024 * 1024,
      s3: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads PORT, HOST, PUBLIC_URL, DATA_DIR, DATABASE_URL and S3 settings', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://sign.example.test/',
      DATA_DIR: '/var/lib/sign',
      DATABASE_URL: 'postgres://u@db/sign',
      S3_BUCKET: 'files',
      AWS_REGION: 'eu-west-1',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://sign.example.test',
      dataDir: '/var/lib/sign',
      databaseUrl: 'postgres://u@db/sign',
      s3: { bucket: 'files', region: 'eu-west-1' },
    });
  });

  for (const [env, fragment] of [
    [{ PORT: 'eighty' }, '"PORT" must be a number'],
    [{ PORT: '70000' }, '"PORT" must be less than or equal to 65535'],
    [{ PUBLIC_URL: 'not a url' }, '"PUBLIC_URL" must be a valid uri'],
    [{ DATABASE_URL: 'mysql://x/y' }, '"DATABASE_URL" must be a valid uri with a scheme matching'],
    [{ UPLOAD_MAX_BYTES: '-1' }, '"UPLOAD_MAX_BYTES" must be greater than or equal to 1'],
    [{ TEMPLATE_CACHE_MB: '-1' }, '"TEMPLATE_CACHE_MB" must be greater than or equal to 0'],
    [{ AWS_ACCESS_KEY_ID: 'only-one' }, 'AWS_SECRET_ACCESS_KEY'],
    [{ WEBHOOK_TIMEOUT_MS: '10000', OUTBOX_LEASE_MS: '5000' }, '"OUTBOX_LEASE_MS" must be longer than WEBHOOK_TIMEOUT_MS'],
    [{ FACE_MATCHER: 'cloud' }, '"FACE_MATCHER" must be one of [local, manual]'],
    [{ FACE_WORKERS: '0' }, '"FACE_WORKERS" must be greater than or equal to 1'],
    [{ FACE_QUEUE_MAX: '0' }, '"FACE_QUEUE_MAX" must be greater than or equal to 1'],
    [{ FACE_MATCH_THRESHOLD: '101' }, '"FACE_MATCH_THRESHOLD" must be less than or equal to 100'],
  ] as const) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(fragment);
    });
  }
});

describe('faces are compared on the machine unless FACE_MATCHER=manual', () => {
  it('defaults to the local matcher, one worker per core but one, 20 photos queued, threshold 50, liveness threshold 0.5', () => {
    expect(loadConfig({}).faceMatcher).toEqual({
      kind: 'local',
      workers: Math.max(1, os.availableParallelism() - 1),
      queueMax: 20,
      threshold: 50,
      livenessThreshold: 0.5,
    });
  });

  it('reads FACE_WORKERS, FACE_QUEUE_MAX, FACE_MATCH_THRESHOLD and LIVENESS_THRESHOLD; manual needs none of them', () => {
    expect(loadConfig({ FACE_WORKERS: '3', FACE_QUEUE_MAX: '1', FACE_MATCH_THRESHOLD: '62.5', LIVENESS_THRESHOLD: '0' }).faceMatcher).toEqual({
      kind: 'local',
      workers: 3,
      queueMax: 1,
      threshold: 62.5,
      livenessThreshold: 0,
    });
    expect(loadConfig({ FACE_MATCHER: 'manual' }).faceMatcher).toEqual({ kind: 'manual' });
  });
});

describe('the service exits with a clear error on bad configuration', () => {
  it('prints the problem and exits with code 2', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/server.ts'],
        { cwd: root, env: { PATH: process.env.PATH ?? '', PORT: 'eighty' } },
        (error, _stdout, stderr) => resolve({ code: error && typeof error.code === 'number' ? error.code : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Invalid configuration: "PORT" must be a number');
  });
});
