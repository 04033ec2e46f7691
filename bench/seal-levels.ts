/**
 * What each PAdES level costs a warm seal of an uploaded two-page PDF (issue 44): B-B as the
 * instance always could; B-T with a loopback timestamp authority; B-LT, which also asks an
 * `openssl ocsp` responder about the seal's and the TSA's certificates and writes a DSS; B-LTA,
 * which adds a document timestamp. All on loopback, with a test CA's certificates, so the figures
 * are the service's own work plus one round trip per answer, not a network's.
 */
import fs from 'node:fs';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { updateSettings } from '../src/organizations/settings.js';
import type { PadesLevel } from '../src/pdf-signing/pades-level.js';
import { identityFromP12 } from '../src/pdf-signing/signing-identity.js';
import { startTestService, type TestService } from '../test/support/service.js';
import { P12_PASSWORD, startTestCa } from '../test/support/test-ca.js';
import { startTimestampAuthority } from '../test/support/timestamp-authority.js';

export interface LevelTimes {
  level: PadesLevel;
  median: number;
  p90: number;
}

/** Seals `ids` one at a time; their sorted times in ms. */
async function sealTimes(svc: TestService, ids: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const processId of ids) {
    const started = performance.now();
    if (!(await sealProcess(svc.deps, { processId }))) throw new Error(`process ${processId} was not sealed`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/**
 * The median and p90 of `count` seals at each level, the organization's setting changed between
 * them; `finished` makes one finished process of organization A ready to seal.
 */
export async function measureLevels(options: { count: number; finished: (svc: TestService) => Promise<string> }): Promise<LevelTimes[]> {
  const ca = await startTestCa();
  const tsa = await startTimestampAuthority({ identity: await identityFromP12(fs.readFileSync(ca.tsa.p12), P12_PASSWORD) });
  const svc = await startTestService('sqlite', { SIGNING_P12: ca.signer.p12, SIGNING_P12_PASSWORD: P12_PASSWORD, TSA_URLS: tsa.url, PADES_LEVEL: 'B-B' });
  try {
    const results: LevelTimes[] = [];
    for (const level of ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const) {
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { padesLevel: level } });
      const ids: string[] = [];
      // One more than measured: the first warms the level's path (the renderer, the first OCSP connection).
      for (let i = 0; i <= options.count; i++) ids.push(await options.finished(svc));
      await sealTimes(svc, ids.slice(0, 1));
      const times = await sealTimes(svc, ids.slice(1));
      results.push({ level, median: times[Math.floor(times.length / 2)] ?? 0, p90: times[Math.min(times.length - 1, Math.floor(times.length * 0.9))] ?? 0 });
    }
    return results;
  } finally {
    await svc.close();
    await tsa.close();
    await ca.close();
  }
}
