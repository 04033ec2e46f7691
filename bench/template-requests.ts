/**
 * The template API's requests as bench/run.ts and bench/template-ab.ts send them: the bare route,
 * GET ?id= and PUT over stored templates, and POST + DELETE cycles, each a slice of `seconds`.
 */
import autocannon from 'autocannon';
import { base, CONNECTIONS, PREFIX, problemsOf, type Run, run, type Server, storeOf } from './load.js';
import { type StoreAddress, sampleTemplate } from './protocol.js';

export const SUBJECTS = ['bare', 'get', 'put', 'cycle', 'put-many', 'cycle-many'] as const;
export type Subject = (typeof SUBJECTS)[number];

/**
 * The connections of the `-many` write slices. Every write is answered once its group's commit is
 * flushed to disk, so with the bench's 10 connections each one mostly waits (about two flushes): the
 * figure measures the disk's latency, not the server's work. With this many clients the groups grow
 * until the server's own work is the limit again, as it is for the bare route and the reads; the
 * write goals are judged there, the 10-connection figures printed beside them.
 */
export const WRITE_CONNECTIONS = 64;

/** Each request takes the next id round-robin, so reads and updates do not all hit one row. */
function rotating(ids: string[], build: (request: autocannon.Request, id: string) => autocannon.Request): autocannon.Request {
  let next = 0;
  return { setupRequest: (request) => build(request, ids[next++ % ids.length] ?? '') };
}

export function getOptions(store: StoreAddress, ids: string[]): autocannon.Options {
  return {
    url: store.url,
    headers: { authorization: store.privateKey },
    requests: [rotating(ids, (request, id) => ({ ...request, method: 'GET', path: `${PREFIX}/template?id=${id}` }))],
  };
}

function putOptions(store: StoreAddress, ids: string[], connections: number): autocannon.Options {
  let version = 0;
  return {
    connections,
    url: store.url,
    headers: { authorization: store.privateKey, 'content-type': 'application/json' },
    requests: [
      rotating(ids, (request, id) => ({
        ...request,
        method: 'PUT',
        path: `${PREFIX}/template`,
        body: JSON.stringify({ id, description: `Description version ${++version}` }),
      })),
    ],
  };
}

function field(body: string, name: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? Object.getOwnPropertyDescriptor(parsed, name)?.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST then DELETE of the id just created, on each connection (autocannon gives each pass through
 * `requests` a fresh context). Counted in requests, as the issue measures every figure: a cycle's
 * two count only when the DELETE answers 200 with `deleted: true` for that id; a failed POST leaves
 * no id, so its DELETE fails visibly.
 */
async function cycleRun(store: StoreAddress, seconds: number, connections: number): Promise<Run> {
  const created = new WeakMap<object, string>();
  let cycles = 0;
  let failures = 0;
  const result = await autocannon({
    ...base,
    connections,
    url: store.url,
    duration: seconds,
    headers: { authorization: store.privateKey },
    requests: [
      {
        method: 'POST',
        path: `${PREFIX}/template`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sampleTemplate()),
        onResponse: (status, body, context) => {
          const id = field(body, 'id');
          if (status === 200 && typeof id === 'string') created.set(context, id);
        },
      },
      {
        method: 'DELETE',
        setupRequest: (request, context) => ({ ...request, path: `${PREFIX}/template?id=${created.get(context) ?? 'none'}` }),
        onResponse: (status, body, context) => {
          const ok = status === 200 && field(body, 'deleted') === true && field(body, 'id') === created.get(context);
          if (ok) cycles++;
          else failures++;
        },
      },
    ],
  });
  const problems = problemsOf(result);
  if (failures > 0) problems.push(`${failures} failed cycles`);
  return { ok: cycles * 2, seconds: result.duration, problems };
}

/** One slice of `subject` on the server's service store; `ids` are the stored templates to read and update. */
export function templateSlice(server: Server, subject: Subject, ids: string[], seconds: number): Promise<Run> {
  const service = storeOf(server, 'service');
  if (subject === 'bare') return run({ url: `${server.bareUrl}/` }, seconds);
  if (subject === 'get') return run(getOptions(service, ids), seconds);
  if (subject === 'put') return run(putOptions(service, ids, CONNECTIONS), seconds);
  if (subject === 'put-many') return run(putOptions(service, ids, WRITE_CONNECTIONS), seconds);
  return cycleRun(service, seconds, subject === 'cycle' ? CONNECTIONS : WRITE_CONNECTIONS);
}
