import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

/**
 * Extracts the regular files and folders of a ustar archive (what the bundled Chromium's library
 * archive holds), refusing names that would leave `into`.
 */
export async function extractTar(archive: string, into: string): Promise<void> {
  const file = await open(archive, 'r');
  try {
    const header = Buffer.alloc(BLOCK);
    let position = 0;
    for (;;) {
      const { bytesRead } = await file.read(header, 0, BLOCK, position);
      if (bytesRead < BLOCK || header.every((byte) => byte === 0)) return;
      const name = [field(header, 345, 155), field(header, 0, 100)].filter((part) => part !== '').join('/');
      const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
      const type = String.fromCharCode(header[156] ?? 0);
      position += BLOCK;
      const target = path.resolve(into, name);
      if (!target.startsWith(path.resolve(into) + path.sep)) throw new Error(`tar entry ${name} leaves the folder`);
      if (type === '5') await mkdir(target, { recursive: true });
      else if (type === '0' || type === '\0') {
        const content = Buffer.alloc(size);
        await file.read(content, 0, size, position);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content, { mode: Number.parseInt(field(header, 100, 8).trim() || '644', 8) & 0o755 });
      }
      position += Math.ceil(size / BLOCK) * BLOCK;
    }
  } finally {
    await file.close();
  }
}
