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

describe('TRUST_PROXY believes a number of proxies or their addresses, never every sender', () => {
  it('reads none by default, a hop count, or addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  });

  it('refuses true at start, saying what to set instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow('Set the number of proxies in front of the service (TRUST_PROXY=1');
  });

  for (const value of ['0', '17', 'proxy.example.com', '10.0.0.0/33', '127.0.0.1/8/1', 'yes']) {
    it(`refuses TRUST_PROXY=${value}`, () => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/Invalid configuration: "TRUST_PROXY"/);
    });
  }
});

describe('TSA_URLS lists the timestamp authorities in the order they are tried; TSA_URL is a list of one', () => {
  it('reads none by default, one from TSA_URL, and several from TSA_URLS in order', () => {
    expect(loadConfig({}).tsaUrls).toEqual([]);
    expect(loadConfig({ TSA_URL: 'http://tsa.example/' }).tsaUrls).toEqual(['http://tsa.example/']);
    expect(loadConfig({ TSA_URLS: 'https://a.example/tsa, http://b.example:8080/' }).tsaUrls).toEqual(['https://a.example/tsa', 'http://b.example:8080/']);
  });

  it('refuses both at once, and anything but http or https URLs', () => {
    expect(() => loadConfig({ TSA_URL: 'http://a.example/', TSA_URLS: 'http://b.example/' })).toThrow('set TSA_URLS or TSA_URL, not both');
    expect(() => loadConfig({ TSA_URLS: 'http://a.example/,ftp://b.example/,' })).toThrow(
      'Invalid configuration: "TSA_URLS" must be http or https URLs separated by commas; not "ftp://b.example/", ""',
    );
  });
});

describe('PADES_LEVEL chooses the level final documents are sealed at; every level above B-B needs a timestamp authority', () => {
  it('is B-B without a timestamp authority and B-T with one, as before the setting; any level can be chosen with one', () => {
    expect(loadConfig({}).padesLevel).toBe('B-B');
    expect(loadConfig({ TSA_URLS: 'http://tsa.example/' }).padesLevel).toBe('B-T');
    for (const level of ['B-B', 'B-T', 'B-LT', 'B-LTA']) expect(loadConfig({ TSA_URLS: 'http://tsa.example/', PADES_LEVEL: level }).padesLevel).toBe(level);
  });

  for (const level of ['B-T', 'B-LT', 'B-LTA']) {
    it(`refuses to start at ${level} without a timestamp authority, saying what to set`, () => {
      expect(() => loadConfig({ PADES_LEVEL: level })).toThrow(
        `Invalid configuration: PADES_LEVEL=${level} needs a timestamp authority: set TSA_URLS (RFC 3161 servers, tried in order), or PADES_LEVEL=B-B`,
      );
    });
  }

  it('refuses a level that is none of the four', () => {
    expect(() => loadConfig({ PADES_LEVEL: 'B-LTV' })).toThrow('"PADES_LEVEL" must be one of [B-B, B-T, B-LT, B-LTA]');
  });
});

describe("the local chat's keyless operator has a port of its own on 127.0.0.1, never the service's", () => {
  it('is PORT + 1 by default, LOCAL_CHAT_PORT when set, and none when off or with a WhatsApp provider', () => {
    expect(loadConfig({}).localChatPort).toBe(3001);
    expect(loadConfig({ PORT: '8080' }).localChatPort).toBe(8081);
    expect(loadConfig({ LOCAL_CHAT_PORT: '4100' }).localChatPort).toBe(4100);
    expect(loadConfig({ LOCAL_CHAT_PORT: 'off' }).localChatPort).toBeUndefined();
    expect(loadConfig({ WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1' }).localChatPort).toBeUndefined();
  });

  it("refuses the service's own port and a value that is not a port", () => {
    expect(() => loadConfig({ PORT: '8080', LOCAL_CHAT_PORT: '8080' })).toThrow("must not be the service's PORT");
    expect(() => loadConfig({ LOCAL_CHAT_PORT: 'on' })).toThrow('"LOCAL_CHAT_PORT" must be a port number or off');
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
