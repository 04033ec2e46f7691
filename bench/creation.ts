/**
 * Creations measured as users make them: signing processes from the 0.4 KB sample template and
 * from the 40 KB contract (three signers each, invited by e-mail), and face validations
 * (`POST /veriface`, invited by WhatsApp). Each slice gives two figures: creations answered by the
 * API, and the invitations they queued delivered to the local mailbox, counted until the outbox
 * is drained (so the next slice never pays for this one's deliveries).
 */
import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { contractAnswers } from './contract-template.js';
import { cpuSecondsOf, drain, PREFIX, type Run, run, type Server } from './load.js';
import { ANSWERS, type ProcessTemplate, type StoreAddress, type StoreName, verifaceBody } from './protocol.js';

export const CREATIONS = ['sample', 'contract', 'veriface'] as const;
export type Creation = (typeof CREATIONS)[number];

export const CREATION_LABEL: Record<Creation, string> = {
  sample: 'POST /document/save, 0.4 KB template, 3 signers',
  contract: 'POST /document/save, 40 KB contract, 30 answers, 3 signers',
  veriface: 'POST /veriface (WhatsApp invitation)',
};

const ANSWERS_OF: Record<ProcessTemplate, { key: string; value: string }[]> = { sample: ANSWERS, contract: contractAnswers() };

/** POST /document/save from a template with its answers and three signers, each invited by e-mail. */
function processOptions(store: StoreAddress, template: ProcessTemplate): autocannon.Options {
  let n = 0;
  const data = ANSWERS_OF[template];
  return {
    url: store.url,
    headers: { authorization: store.privateKey, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: `${PREFIX}/document/save`,
        setupRequest: (request) => {
          n++;
          return {
            ...request,
            body: JSON.stringify({
              email: store.creatorEmail,
              name: `Bench process ${n}`,
              document: store.processTemplates[template],
              data,
              signProfile: [0, 1, 2].map((i) => ({ name: `Signer ${i}`, email: `signer${i}.${n}@bench.test` })),
            }),
          };
        },
      },
    ],
  };
}

function verifaceOptions(store: StoreAddress): autocannon.Options {
  return {
    url: store.url,
    headers: { authorization: store.privateKey, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path: `${PREFIX}/veriface`, body: JSON.stringify(verifaceBody(store.creatorEmail)) }],
  };
}

export interface CreationRuns {
  /** Creations answered by the API during the slice. */
  created: Run;
  /** Messages delivered from the slice's start until the outbox was drained. */
  delivered: Run;
  /**
   * The creations answered over the server's CPU seconds from the slice's start until the outbox was
   * drained, so every slice pays for all of its invitations; undefined without /proc.
   */
  cpu?: Run;
}

/** One slice of `creation` on `store`, then the outbox drained. */
export async function creationSlice(server: Server, store: StoreName, creation: Creation, seconds: number): Promise<CreationRuns> {
  const address = server.stores[store];
  if (!address) throw new Error(`the server runs no ${store} store`);
  const started = performance.now();
  const cpuBefore = cpuSecondsOf(server.child);
  const created = await run(creation === 'veriface' ? verifaceOptions(address) : processOptions(address, creation), seconds);
  const delivered = await drain(server, store);
  const cpuAfter = cpuSecondsOf(server.child);
  return {
    created,
    delivered: { ok: delivered, seconds: (performance.now() - started) / 1000, problems: [] },
    ...(cpuBefore === undefined || cpuAfter === undefined ? {} : { cpu: { ok: created.ok, seconds: cpuAfter - cpuBefore, problems: [] } }),
  };
}
