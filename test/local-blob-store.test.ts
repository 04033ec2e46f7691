import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { LocalBlobStore } from '../src/files/local-blob-store.js';
import { UrlSigner } from '../src/files/url-signer.js';

// Every test gets a store in a folder of its own, removed after it.
let dataDir: string;
let root: string;
let store: LocalBlobStore;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-blob-store-'));
  root = path.join(dataDir, 'files');
  store = new LocalBlobStore(root, 'http://127.0.0.1', new UrlSigner('secret', systemClock));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('LocalBlobStore.delete', () => {
  const put = (key: string, content = 'x') => {
    const file = path.join(root, ...key.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };
  const exists = (relative: string) => fs.existsSync(path.join(root, ...relative.split('/')));

  it('accepts keys whose files and folder do not exist, and creates nothing', async () => {
    fs.mkdirSync(path.join(root, 'templates'), { recursive: true });
    await store.delete(['templates/a/mask.html', 'templates/a/complete.html']);
    expect(exists('templates/a')).toBe(false);
    expect(exists('templates')).toBe(true);
  });

  it('removes the files, then their folder once empty', async () => {
    put('templates/a/mask.html');
    put('templates/a/complete.html');
    await store.delete(['templates/a/mask.html', 'templates/a/complete.html']);
    expect(exists('templates/a')).toBe(false);
    expect(exists('templates')).toBe(true);
  });

  it('removes the files that exist when others of the same folder do not', async () => {
    put('templates/a/mask.html');
    await store.delete(['templates/a/mask.html', 'templates/a/complete.html']);
    expect(exists('templates/a')).toBe(false);
  });

  it('keeps a folder that still holds other files', async () => {
    put('processes/p/one.pdf');
    put('processes/p/two.pdf');
    await store.delete(['processes/p/one.pdf', 'processes/p/missing.pdf']);
    expect(exists('processes/p/one.pdf')).toBe(false);
    expect(exists('processes/p/two.pdf')).toBe(true);
  });

  it('cleans each folder of keys spread over several', async () => {
    put('templates/a/mask.html');
    put('templates/b/mask.html');
    await store.delete(['templates/a/mask.html', 'templates/b/mask.html', 'templates/c/mask.html']);
    expect(exists('templates/a')).toBe(false);
    expect(exists('templates/b')).toBe(false);
    expect(exists('templates/c')).toBe(false);
  });

  it('refuses an invalid key before deleting anything', async () => {
    put('templates/a/mask.html');
    await expect(store.delete(['templates/a/mask.html', 'templates/../a'])).rejects.toThrow('Invalid blob key');
    expect(exists('templates/a/mask.html')).toBe(true);
  });

  it('passes on errors other than a missing file', async () => {
    put('templates/a/mask.html');
    await expect(store.delete(['templates/a'])).rejects.toMatchObject({ code: 'EISDIR' });
    put('documents/plain');
    await expect(store.delete(['documents/plain/file.pdf'])).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(exists('templates/a/mask.html')).toBe(true);
  });
});

describe('LocalBlobStore.writeBytes replaces a blob whole and flushed, in direct calls, leaving nothing else behind', () => {
  const folderOf = (key: string) => fs.readdirSync(path.dirname(path.join(root, ...key.split('/'))));
  const bytesAt = (key: string) => fs.readFileSync(path.join(root, ...key.split('/')));

  it('creates the folders, writes the bytes, and a second write replaces the first whole', async () => {
    const key = 'processes/0123456789abcdef01234567/documents/0.html';
    const large = Buffer.alloc(300_000, 'a');
    await store.writeBytes(key, large, 'text/html');
    expect(bytesAt(key).equals(large)).toBe(true);
    await store.writeBytes(key, Buffer.from('short'), 'text/html');
    expect(bytesAt(key).toString()).toBe('short');
    expect(folderOf(key)).toEqual(['0.html']);
  });

  it('refuses empty bytes and leaves the blob already there as it was', async () => {
    const key = 'processes/0123456789abcdef01234567/documents/0.html';
    await store.writeBytes(key, Buffer.from('kept'), 'text/html');
    await expect(store.writeBytes(key, Buffer.alloc(0), 'text/html')).rejects.toThrow('FILE_EMPTY');
    expect(bytesAt(key).toString()).toBe('kept');
    expect(folderOf(key)).toEqual(['0.html']);
  });

  it('with ifAbsent, the first write stays: a second is refused with FILE_EXISTS and leaves nothing behind', async () => {
    const key = 'processes/0123456789abcdef01234567/documents/0.pdf';
    const options = { contentType: 'application/pdf', maxBytes: 100, ifAbsent: true };
    await store.write(key, Readable.from([Buffer.from('first')]), options);
    await expect(store.write(key, Readable.from([Buffer.from('second')]), options)).rejects.toThrow('FILE_EXISTS');
    expect(bytesAt(key).toString()).toBe('first');
    expect(folderOf(key)).toEqual(['0.pdf']);
  });

  it('a write that fails leaves no temporary file', async () => {
    const key = 'processes/0123456789abcdef01234567/documents/0.html';
    // A folder where the file should go: the rename fails.
    fs.mkdirSync(path.join(root, ...key.split('/'), 'inside'), { recursive: true });
    await expect(store.writeBytes(key, Buffer.from('x'), 'text/html')).rejects.toThrow();
    expect(folderOf(key)).toEqual(['0.html']);
  });
});

describe('LocalBlobStore.presignAll: each URL grants its own key, keys of one folder signed two by two', () => {
  const signer = new UrlSigner('secret', systemClock);
  const store = new LocalBlobStore(path.join(os.tmpdir(), 'unused'), 'http://127.0.0.1:3000', signer);
  const options = { method: 'GET', expiresInSeconds: 300 } as const;
  const opens = (url: string, key: string) => {
    const parsed = new URL(url);
    return signer.check('GET', `/files/${key}`, Object.fromEntries(parsed.searchParams)) === 'ok';
  };

  it('answers one URL per key, in order, each opening its key and no other', async () => {
    const keys = ['templates/a/mask.html', 'templates/a/complete.html', 'templates/a/extra.html', 'templates/b/mask.html'];
    const urls = await store.presignAll(keys, options);
    expect(urls.map((url) => new URL(url).pathname)).toEqual(keys.map((key) => `/files/${key}`));
    for (const [i, url] of urls.entries()) {
      for (const [j, key] of keys.entries()) expect(opens(url, key), `${url} on ${key}`).toBe(i === j);
    }
  });

  it('names both files of a pair in each of its URLs; a key alone carries no list', async () => {
    const urls = await store.presignAll(['templates/a/mask.html', 'templates/a/complete.html', 'templates/a/extra.html'], options);
    expect(urls.map((url) => new URL(url).searchParams.get('files'))).toEqual(['mask.html,complete.html', 'mask.html,complete.html', null]);
    expect(new Set(urls.map((url) => new URL(url).searchParams.get('signature'))).size).toBe(3);
  });

  it('signs the same key twice in a row alone, not as a pair', async () => {
    const urls = await store.presignAll(['templates/a/mask.html', 'templates/a/mask.html'], options);
    expect(urls.map((url) => new URL(url).searchParams.get('files'))).toEqual([null, null]);
    expect(urls.every((url) => opens(url, 'templates/a/mask.html'))).toBe(true);
  });
});
