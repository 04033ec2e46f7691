import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
// s3rver ships no type declarations; this is the part of its documented programmatic API used here.
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverServer;

/** The one account s3rver knows; any other access key id is refused with InvalidAccessKeyId. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** A real S3-compatible server on 127.0.0.1, a free port and a temporary folder of its own. */
export async function startLocalS3(bucket = 'firma-test'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
