import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChromiumLaunch } from './bundled-chromium.js';

/**
 * Flags that turn Chromium's own sandbox off or fold its processes into one (a renderer bug would
 * then run with the browser's rights, as the service's user): @sparticuz/chromium ships them for
 * AWS Lambda, where no sandbox can start.
 */
const SANDBOX_OFF_FLAGS = new Set(['--no-sandbox', '--disable-setuid-sandbox', '--single-process', '--no-zygote']);

/** The user Chromium runs as when the service runs as root: Debian's `nobody`. */
export const SANDBOX_USER = { uid: 65534, gid: 65534 } as const;

/** How Chromium is started: with its sandbox, or without and why. */
export type SandboxedLaunch = ChromiumLaunch & ({ sandbox: true } | { sandbox: false; reason: string });

/** Whether `command` succeeds: the probes below start nothing that lasts. */
function succeeds(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 5000 });
  return result.status === 0;
}

/**
 * A script that starts Chromium as SANDBOX_USER: Playwright makes the browser's profile folder
 * (0700, the service's) and passes it as --user-data-dir, so it is handed to that user first.
 * setpriv keeps the pipes Playwright talks through and drops every capability.
 */
async function dropPrivilegesScript(executablePath: string): Promise<string> {
  const folder = path.join(tmpdir(), 'seal-chromium-sandbox');
  await mkdir(folder, { recursive: true, mode: 0o755 });
  const script = path.join(folder, 'chromium-as-nobody');
  const { uid, gid } = SANDBOX_USER;
  // Written aside and renamed: an instance starting beside this one may be running the script. The
  // name is this start's own: renderers of one process (threads) share its pid.
  const partial = `${script}.${process.pid}.${randomUUID()}.partial`;
  await writeFile(
    partial,
    `#!/bin/sh
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) chown -R ${uid}:${gid} "\${arg#--user-data-dir=}" ;; esac
done
exec setpriv --reuid=${uid} --regid=${gid} --clear-groups --inh-caps=-all --bounding-set=-all -- ${JSON.stringify(executablePath)} "$@"
`,
    { mode: 0o755 },
  );
  await chmod(partial, 0o755);
  await rename(partial, script);
  return script;
}

/**
 * Chromium with its sandbox whenever the machine allows it. Not root: the sandbox's user
 * namespace is probed and used. Root (the sandbox refuses to start as root): Chromium is started
 * as `nobody` through setpriv (util-linux), the binary made executable for it. Otherwise it runs
 * with --no-sandbox and `reason` says why, for the caller to log.
 */
export async function withSandbox(launch: ChromiumLaunch): Promise<SandboxedLaunch> {
  const args = launch.args.filter((flag) => !SANDBOX_OFF_FLAGS.has(flag));
  const unsandboxed = (reason: string): SandboxedLaunch => ({ ...launch, args: [...args, '--no-sandbox'], sandbox: false, reason });
  const uid = process.getuid?.();
  if (uid === undefined) return unsandboxed('this platform has no user ids');
  if (uid !== 0) {
    if (succeeds('unshare', ['--user', 'true'])) return { ...launch, args, sandbox: true };
    return unsandboxed('user namespaces are not available to this user (in a container: allow them, e.g. with Docker seccomp defaults and a non-root user)');
  }
  const { uid: sandboxUid, gid } = SANDBOX_USER;
  const asUser = ['--reuid', String(sandboxUid), '--regid', String(gid), '--clear-groups', '--'];
  if (!succeeds('setpriv', [...asUser, 'unshare', '--user', 'true'])) {
    return unsandboxed(
      'the service runs as root and setpriv or user namespaces for an unprivileged user are not available; run the service as a non-root user',
    );
  }
  // The bundled binary is unpacked 0700 by its package; the user Chromium runs as must run it.
  await chmod(launch.executablePath, 0o755).catch(() => undefined);
  return { ...launch, executablePath: await dropPrivilegesScript(launch.executablePath), args, sandbox: true };
}
