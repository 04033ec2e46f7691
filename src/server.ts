import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { listenForOperator, type OperatorListener } from './auth/operator-machine.js';
import { ConfigError, loadConfig } from './config.js';
import { DataFolderInUseError, lockDataFolder } from './db/data-folder-lock.js';
import { createDeps, RECURRING_JOBS } from './deps.js';
import { logTransport } from './log-output.js';
import { mailboxDir } from './messages/local-mailbox.js';
import { scheduleRecurringJobs } from './outbox/jobs.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const folderLock = config.databaseUrl ? undefined : lockDataFolder(config.dataDir);
  const deps = await createDeps(config, { logger: pino({ level: config.logLevel, name: 'outbox', ...logTransport() }) });
  const app = await buildApp(config, deps);
  // Started before listening, so /health says "not ready" from its first answer until they are done.
  deps.startBackgroundWork();
  deps.startRendererSelfTest().then(
    () => app.log.info({ renderer: deps.renderer.describe() }, 'PDF renderer self-test passed'),
    (error: unknown) => app.log.error({ err: error, renderer: deps.renderer.describe() }, 'PDF renderer self-test failed: final documents cannot be sealed'),
  );
  await scheduleRecurringJobs(deps.db, deps.clock, RECURRING_JOBS);
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ publicUrl: config.publicUrl, store: deps.dialect, files: deps.blobs.kind }, 'service started');
  const operator = await operatorListener(app, config.localChatPort);
  if (deps.documentSigner.identity.replacedUnverifiable) {
    app.log.warn(
      'the self-signed certificate this service made before had a serial number verifiers cannot read, so documents sealed with it did not verify: it was replaced; trust the new one instead (it travels in every signature: see docs/api.md, Checking a signature yourself)',
    );
  }
  if (deps.documentSigner.identity.selfSigned) {
    app.log.warn(
      'final documents are signed with a self-signed certificate made by this service: the signature proves they were not changed, not who sealed them (set SIGNING_P12)',
    );
  }
  if (deps.localMailbox.length > 0) {
    app.log.warn({ channels: deps.localMailbox, folder: mailboxDir(config.dataDir) }, 'no provider configured: these messages go to the local mailbox only');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, then let the worker finish its round and record it, then close the store.
    await operator?.close();
    await app.close();
    await deps.close();
    folderLock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The local WhatsApp chat's keyless port, on 127.0.0.1 only (none with a WhatsApp provider, or LOCAL_CHAT_PORT=off). */
async function operatorListener(app: FastifyInstance, port: number | undefined): Promise<OperatorListener | undefined> {
  if (port === undefined) return undefined;
  try {
    const operator = await listenForOperator(app, port);
    app.log.info({ page: `http://127.0.0.1:${operator.port}/whatsapp/local` }, 'the local WhatsApp chat page, for this machine only');
    return operator;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
      throw new ConfigError(
        `LOCAL_CHAT_PORT ${port} (the local chat page's port, PORT + 1 unless set) is in use: set LOCAL_CHAT_PORT to a free port, or to off`,
      );
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof DataFolderInUseError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
