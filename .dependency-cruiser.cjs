// @ts-check
const fs = require('node:fs');
const { basename, join } = require('node:path');

/*
 * The layers of src/, checked by `npm run lint:layers` (CI runs it beside Biome). ARCHITECTURE.md
 * draws the same floors as a map.
 *
 * src/ is a building: each floor holds units (a folder with its subfolders, or named files), and a
 * file may import its own unit and the units of the floors below, never one of its own floor or
 * above. Imports so point one way and no two folders can import each other. The route layer
 * (every route declaration file, wherever its resource keeps it) and the composition (app.ts,
 * routes.ts, deps.ts, server.ts, the admin CLI) are the two top floors; the browser's code
 * (src/people/web) stands apart and imports only modules a browser can run.
 *
 * A path names a folder (its files and every subfolder not named on a floor of its own), a file,
 * or with `/*` a folder's own files only. A file on no floor cannot import or be imported, so a
 * new folder is given its floor when it is made. ARCHITECTURE.md numbers the floors in this order.
 */

/** Route declarations: each resource's routes.ts (or <part>-routes.ts), and the people's page routes. */
const ROUTE_FILES = String.raw`^src/.+/(?:routes|[a-z-]*-routes)\.ts$|^src/people/(?:pages|fill-page)\.ts$`;
const WEB = String.raw`^src/people/web/`;

/** The people's words, in every language the pages, the console and the messages speak. */
const PEOPLE_WORDS = ['', '-chat', '-console', '-console-admin', '-console-audit', '-console-process', '-console-review', '-console-security', '-fill', '-local-chat', '-messages'].map(
  (part) => `src/people/words${part}.ts`,
);

/*
 * The units of each floor, lowest first. Where a folder holds a piece that sits lower than the rest
 * of it, the piece is a unit of its own, named by its files, and the comment says why it has not
 * moved to a folder of its own.
 */
const FLOORS = [
  /* foundation: the clock, ids, the error catalogue and DomainError, text and the shared field schemas */
  [
    ['src/*'],
    ['src/text'],
    ['src/fields'],
    // the console roles' table, which imports nothing: the schema types users' roles by it and the
    // console's page reads it; the rest of src/organizations sits with the domain
    ['src/organizations/user-roles.ts'],
  ],
  /* the database: connection, schema, migrations, transactions, keyset pages */
  [['src/db']],
  /* the outside world's adapters, and the vocabularies they speak */
  [
    ['src/files'],
    ['src/rendering'],
    ['src/pdf-signing'],
    ['src/health'],
    ['src/whatsapp/message'],
    // the face matcher's port: the interface src/veriface/face implements and the flows above use;
    // it stays beside those flows until src/veriface/face, which imports it, can follow a move
    ['src/veriface/face-matcher.ts', 'src/veriface/unusable-photos.ts'],
    // the console's contracts with its browser code: the actions of the audit log, the review queue's
    // shapes, and what a role without a route's permission is answered (OpenAPI documents it too)
    ['src/console/audit-contract.ts', 'src/console/review/contract.ts', 'src/auth/console-refusals.ts'],
  ],
  [['src/veriface/face'], ['src/whatsapp/media'], ['src/photos'], ['src/templates/cache'], ['src/webhooks/payload']],
  [['src/veriface/document'], ['src/outbox']],
  [['src/context.ts']],
  /* the domain */
  [['src/templates']],
  [['src/webhooks']],
  [['src/organizations'], ['src/identity-attempts']],
  // the people's words: src/people keeps them until that folder is reorganized
  [PEOPLE_WORDS, ['src/whatsapp/*']],
  [
    ['src/messages'],
    // a conversation's start, which a process or a verification asks for (the invitation and its
    // code, the chat's records); the rest of src/whatsapp/conversation answers the person and
    // drives the processes. It gets a folder of its own once src/documents/sealing, which imports
    // invitations.ts, can follow a move.
    [
      'src/whatsapp/conversation/invitations.ts',
      'src/whatsapp/conversation/chat-queries.ts',
      'src/whatsapp/conversation/chat-input.ts',
      'src/whatsapp/conversation/flow-voice.ts',
    ],
  ],
  [['src/company'], ['src/veriface']],
  [['src/documents']],
  [
    // the shapes the people's pages exchange with the service: src/people keeps them until that folder is reorganized
    ['src/people/contract.ts'],
    ['src/whatsapp/records'],
    ['src/prebuilt'],
    ['src/verification'],
    ['src/photos/deletion'],
  ],
  [['src/references']],
  [['src/people'], ['src/templates/deleting']],
  [['src/whatsapp/conversation'], ['src/whatsapp/inbound'], ['src/console']],
  [['src/whatsapp/local']],
  /* HTTP: the route machinery, the access checks, the configuration the routes are given */
  [['src/http']],
  [['src/auth']],
  [['src/config.ts']],
  [{ name: 'the route layer', path: ROUTE_FILES }],
  /* the composition: the app, its route table, the ports chosen from the configuration, the server, the admin CLI */
  [['src/app.ts', 'src/routes.ts', 'src/deps.ts', 'src/server.ts', 'src/admin']],
];

/**
 * Imports against the floors, each with its reason, from one file to another. Keep this list
 * short: an import that runs up a floor is a piece in the wrong place. One whose import has gone
 * stops the check, so that none is left open for a new import.
 */
const EXCEPTIONS = [
  {
    from: 'src/outbox/enqueue.ts',
    to: 'src/whatsapp/records/record-queued.ts',
    why: "a queued WhatsApp message's record is written in the outbox's own transaction, under the outbox row's id",
  },
  {
    from: 'src/templates/write-queries.ts',
    to: 'src/documents/queries.ts',
    why: "a template's one-statement delete finds no document in signature made from it, as documents counts them (documentsInSignature)",
  },
  {
    from: 'src/veriface/face-share/matcher-share.ts',
    to: 'src/documents/process-events.ts',
    why: "the matcher's share serves both flows: a signer's refused comparison goes into the process's events as a verification's goes into its stages",
  },
  {
    from: 'src/documents/participant/delegate-signing.ts',
    to: 'src/people/contract.ts',
    why: 'a type: the delegation the signing page sends (src/people is reorganized elsewhere)',
  },
  {
    from: 'src/people/embed.ts',
    to: 'src/auth/key-resolver.ts',
    why: "the SDK's embed session is opened with an organization's public key, resolved as the access check does (src/people is reorganized elsewhere)",
  },
];

/** What the browser's code may import from outside src/people/web: modules without Node in them. */
const BROWSER_SAFE = [
  'src/error-catalogue.ts',
  'src/organizations/languages.ts',
  'src/organizations/user-roles.ts',
  'src/text/spanish-dates.ts',
  'src/templates/answer-text.ts',
  'src/templates/question-applicability.ts',
  'src/templates/question-types.ts',
  'src/console/audit-contract.ts',
  'src/console/review/contract.ts',
  'src/people/contract.ts',
  ...PEOPLE_WORDS,
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const { from, to } of EXCEPTIONS) {
  const imported = `${basename(to, '.ts')}.js'`;
  if (!fs.readFileSync(join(__dirname, from), 'utf8').includes(imported)) throw new Error(`.dependency-cruiser.cjs: ${from} no longer imports ${to}; remove its exception`);
}

/** Every path named on a floor, to find the unit a file belongs to (the deepest path naming it). */
const named = FLOORS.flat().flatMap((unit) => (Array.isArray(unit) ? unit : []));

/** The pattern of the files a path names, less those of deeper paths named on floors of their own. */
function pathPattern(path) {
  if (path.endsWith('/*')) {
    const folder = path.slice(0, -2);
    const files = named.filter((other) => other !== path && other.startsWith(`${folder}/`) && other.endsWith('.ts') && !other.slice(folder.length + 1).includes('/'));
    const notFiles = files.length > 0 ? `(?!(?:${files.map((file) => escape(file.slice(folder.length + 1))).join('|')})$)` : '';
    return `^${escape(folder)}/${notFiles}[^/]+$`;
  }
  if (path.endsWith('.ts')) return `^${escape(path)}$`;
  const deeper = named
    .filter((other) => other !== path && other.startsWith(`${path}/`))
    .map((other) => other.slice(path.length + 1))
    .map((sub) => (sub.endsWith('/*') ? `${escape(sub.slice(0, -2))}/[^/]+$` : `${escape(sub)}(?:/|$)`));
  const notDeeper = deeper.length > 0 ? `(?!${deeper.join('|')})` : '';
  return `^${escape(path)}/${notDeeper}`;
}

/** The pattern of a unit's files: never a route declaration or browser code unless it is their unit. */
function unitPattern(unit) {
  if (!Array.isArray(unit)) return unit.path;
  return `^(?!${ROUTE_FILES})(?!${WEB})(?:${unit.map(pathPattern).join('|')})`;
}

const unitName = (unit) => (Array.isArray(unit) ? unit.join(' + ') : unit.name);

const floorRules = FLOORS.flatMap((floor, level) => {
  const below = FLOORS.slice(0, level).flat().map(unitPattern);
  return floor.flatMap((unit) => {
    const own = unitPattern(unit);
    const allowed = [own, ...below, WEB];
    const excepted = EXCEPTIONS.filter((exception) => new RegExp(own).test(exception.from));
    const base = {
      name: 'floors',
      comment: `${unitName(unit)} (floor ${level}) imports only itself and the floors below`,
      severity: 'error',
    };
    return [
      { ...base, from: { path: own, pathNot: excepted.map((exception) => `^${escape(exception.from)}$`) }, to: { path: '^src/', pathNot: allowed } },
      ...[...new Set(excepted.map((exception) => exception.from))].map((from) => ({
        ...base,
        from: { path: `^${escape(from)}$` },
        to: { path: '^src/', pathNot: [...allowed, ...excepted.filter((exception) => exception.from === from).map((exception) => `^${escape(exception.to)}$`)] },
      })),
    ];
  });
});

const everyUnit = FLOORS.flat().map(unitPattern);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'on-a-floor',
      comment: 'every file of src/ belongs to a floor (FLOORS in .dependency-cruiser.cjs): give a new folder its floor',
      severity: 'error',
      from: { path: '^src/', pathNot: [...everyUnit, WEB] },
      to: {},
    },
    {
      name: 'browser-code-apart',
      comment: "nothing but the browser's code imports it: the service serves it as a bundle (src/people/assets.ts)",
      severity: 'error',
      from: { pathNot: WEB },
      to: { path: WEB },
    },
    {
      name: 'browser-imports-browser-safe',
      comment: 'the browser code imports from outside src/people/web only the modules of BROWSER_SAFE',
      severity: 'error',
      from: { path: WEB },
      to: { path: '^src/', pathNot: [WEB, ...BROWSER_SAFE.map((file) => `^${escape(file)}$`)] },
    },
    {
      name: 'browser-safe-stays-so',
      comment: 'a module of BROWSER_SAFE imports (other than types) only browser-safe modules, and nothing of Node',
      severity: 'error',
      from: { path: BROWSER_SAFE.map((file) => `^${escape(file)}$`) },
      to: { pathNot: BROWSER_SAFE.map((file) => `^${escape(file)}$`), dependencyTypesNot: ['type-only', 'npm'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
