import { execFileSync } from 'node:child_process';
import fs, { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledChromium } from '../src/rendering/bundled-chromium.js';
import { ChromiumRenderer } from '../src/rendering/chromium-renderer.js';
import { withSandbox } from '../src/rendering/chromium-sandbox.js';
import { pageLayoutOf } from '../src/templates/page-layout.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { startTestService } from './support/service.js';

/** Chromium processes this test process started (its children), by pid. */
function chromiumChildren(executablePath: string): number[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n');
  return lines.flatMap((line) => {
    const [pid, command] = [line.trim().split(/\s+/, 1)[0], line.trim().slice(line.trim().indexOf(' ') + 1)];
    return pid && command.startsWith(executablePath) ? [Number(pid)] : [];
  });
}

/** Every process this test process started, however deep (Chromium's renderers are its grandchildren), that runs Chromium. */
function chromiumDescendants(): { pid: number; args: string; status: string }[] {
  const rows = fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return [{ pid: Number(name), ppid: Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]), args, status }];
    } catch {
      return [];
    }
  });
  const ours = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) if (ours.has(row.ppid) && !ours.has(row.pid)) grew = Boolean(ours.add(row.pid));
  }
  return rows.filter((row) => row.pid !== process.pid && ours.has(row.pid) && row.args.includes('chromium'));
}

describe('the PDF renderer: one long-lived bundled Chromium, pages reused, no network, no JavaScript', () => {
  let renderer: ChromiumRenderer;
  let executablePath: string;
  beforeAll(async () => {
    executablePath = (await bundledChromium()).executablePath;
    renderer = new ChromiumRenderer(bundledChromium, { concurrency: 2, engine: 'bundled' });
  });
  afterAll(async () => renderer.close());

  it.runIf(pdfToolsInstalled)('renders HTML to a PDF whose text stays extractable (pdftotext), accents included', async () => {
    const pdf = await renderer.render('<!DOCTYPE html><html lang="es"><body><p>Contrato de compraventa: Ñandú, acción, «cláusula»</p></body></html>');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdftotext(pdf)).toContain('Contrato de compraventa: Ñandú, acción, «cláusula»');
  });

  it.runIf(pdfToolsInstalled)('the page reaches no network, reads no local file and runs no JavaScript while rendering', async () => {
    const secret = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-')), 'secret.html');
    fs.writeFileSync(secret, '<p>LOCAL SECRET</p>');
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests++;
      res.end('body{color:red}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const origin = `http://127.0.0.1:${address.port}`;
    try {
      const pdf = await renderer.render(
        `<html><head><link rel="stylesheet" href="${origin}/style.css"></head><body>` +
          `<p id="p">Static text</p><img src="${origin}/tracker.png"><iframe src="${origin}/frame"></iframe>` +
          `<iframe src="file://${secret}"></iframe><object data="file://${secret}"></object>` +
          `<script>document.getElementById('p').textContent = 'SCRIPT RAN'; fetch('${origin}/fetch');</script></body></html>`,
      );
      const text = pdftotext(pdf);
      expect(text).toContain('Static text');
      expect(text).not.toContain('SCRIPT RAN');
      expect(text).not.toContain('LOCAL SECRET');
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.runIf(pdfToolsInstalled)(
    'a template’s header and footer are as confined as the document: no request leaves them and no script of theirs runs',
    async () => {
      let requests = 0;
      const server = http.createServer((_req, res) => {
        requests++;
        res.end('x');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const origin = `http://127.0.0.1:${address.port}`;
      const band =
        `<span id="b">Band {{page}}/{{pages}}</span><img src="${origin}/tracker.png"><link rel="stylesheet" href="${origin}/s.css">` +
        `<script>document.getElementById('b').textContent = 'BAND SCRIPT RAN'; fetch('${origin}/fetch');</script>`;
      try {
        const pdf = await renderer.render(
          '<p>Body</p><p style="break-before:page">Body again</p>',
          pageLayoutOf({ header: { height: '10mm', contents: { default: band } }, footer: { height: '10mm', contents: { default: band } } }),
        );
        const text = pdftotext(pdf);
        expect(text).toContain('Band 1/2');
        expect(text).toContain('Band 2/2');
        expect(text).not.toContain('BAND SCRIPT RAN');
        expect(requests).toBe(0);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it("the browser starts without the package's flags for trusted pages nor its GPU emulated in software, and without a GPU", async () => {
    await renderer.render('<p>flags</p>');
    const args = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.startsWith(executablePath))
      .join(' ')
      .split(/\s+/);
    expect(args).toContain('--disable-gpu');
    for (const flag of [
      '--disable-web-security',
      '--allow-running-insecure-content',
      '--use-gl=angle',
      '--use-angle=swiftshader',
      '--in-process-gpu',
      '--single-process',
      '--no-zygote',
      '--no-sandbox',
    ]) {
      expect(args).not.toContain(flag);
    }
  });

  it('Chromium runs sandboxed: its renderers are under seccomp-bpf, in a user namespace of their own, and never as root', async () => {
    await renderer.render('<p>sandboxed</p>');
    const processes = chromiumDescendants();
    const renderers = processes.filter((p) => p.args.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    const ownNamespace = fs.readlinkSync('/proc/self/ns/user');
    for (const p of renderers) {
      expect(p.status).toMatch(/^Seccomp:\s+2$/m);
      expect(fs.readlinkSync(`/proc/${p.pid}/ns/user`)).not.toBe(ownNamespace);
    }
    // As root the service starts Chromium as another user: no Chromium process keeps root's rights.
    if (process.getuid?.() === 0) for (const p of processes) expect(p.status).toMatch(/^Uid:\s+[1-9]\d*\s/m);
  });

  it.runIf(pdfToolsInstalled)('renders side by side within its concurrency, each page its own', async () => {
    const pdfs = await Promise.all(
      Array.from({ length: 5 }, (_, i) => renderer.render(`<p>Document ${i}</p><p style="break-before:page">second page ${i}</p>`)),
    );
    pdfs.forEach((pdf, i) => {
      const text = pdftotext(pdf);
      expect(text).toContain(`Document ${i}`);
      expect(text).toContain(`second page ${i}`);
      expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(2);
    });
  });

  it.runIf(pdfToolsInstalled)('a browser that died is started again on the next render', async () => {
    await renderer.render('<p>warm</p>');
    const pids = chromiumChildren(executablePath);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await expect.poll(() => renderer.describe().running, { timeout: 10_000 }).toBe(false);
    expect(pdftotext(await renderer.render('<p>after a crash</p>'))).toContain('after a crash');
    expect(renderer.describe().running).toBe(true);
  });

  it.runIf(pdfToolsInstalled)('a render Chromium dies under is rendered again on a new Chromium, saying so', async () => {
    const warnings: string[] = [];
    const dying = new ChromiumRenderer(bundledChromium, { concurrency: 1, engine: 'bundled', warn: (_details, message) => warnings.push(message) });
    try {
      await dying.render('<p>warm</p>');
      const pids = chromiumChildren(executablePath);
      expect(pids.length).toBeGreaterThan(0);
      // Killed, then the render asked at once: it starts on the dead Chromium, which the renderer
      // learns of only once the render is under way.
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      expect(pdftotext(await dying.render('<p>rendered all the same</p>'))).toContain('rendered all the same');
      expect(warnings).toEqual(['Chromium closed during a render: rendering it again']);
    } finally {
      await dying.close();
    }
  });

  it.runIf(existsSync('/usr/bin/chromium') && pdfToolsInstalled)(
    'CHROMIUM_PATH points at another Chromium (Debian’s), which renders the same way',
    async () => {
      const debian = new ChromiumRenderer(async () => ({ executablePath: '/usr/bin/chromium', args: [] }), { concurrency: 1, engine: 'debian' });
      try {
        expect(pdftotext(await debian.render('<p>Rendered by Debian’s Chromium</p>'))).toContain('Rendered by Debian’s Chromium');
      } finally {
        await debian.close();
      }
    },
  );
});

describe('the start-up self-test and /health', () => {
  it('the self-test renders a tiny PDF and checks its text; /health reports the renderer', async () => {
    const svc = await startTestService('sqlite');
    try {
      const before = await svc.app.inject({ method: 'GET', url: '/health' });
      expect(before.json().renderer).toEqual({ engine: 'bundled chromium (@sparticuz/chromium)', running: false, selfTest: 'not run' });
      await svc.deps.renderer.selfTest();
      const after = (await svc.app.inject({ method: 'GET', url: '/health' })).json();
      expect(after.renderer.running).toBe(true);
      expect(after.renderer.selfTest.passedMs).toBeGreaterThan(0);
    } finally {
      await svc.close();
    }
  });

  it('instances started together in one process (their renderers are threads sharing its pid) each pass the self-test', async () => {
    // The sandbox's start script is written aside then renamed: twenty starts at once each get it.
    const launch = await bundledChromium();
    const launches = await Promise.all(Array.from({ length: 20 }, () => withSandbox(launch)));
    for (const started of launches) expect(existsSync(started.executablePath)).toBe(true);
    const services = await Promise.all([startTestService('sqlite'), startTestService('sqlite'), startTestService('sqlite')]);
    try {
      await Promise.all(services.map((svc) => svc.deps.renderer.selfTest()));
      for (const svc of services) expect((await svc.app.inject({ method: 'GET', url: '/health' })).json().renderer.running).toBe(true);
    } finally {
      await Promise.all(services.map((svc) => svc.close()));
    }
  });

  it('a Chromium that dies while it starts is started again: the self-test passes, after saying it tries again', async () => {
    // The first launch is a "Chromium" that exits at once, as one that crashed on a busy machine.
    const dies = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dying-chromium-')), 'chromium');
    fs.writeFileSync(dies, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const launches: string[] = [];
    const warnings: string[] = [];
    const renderer = new ChromiumRenderer(
      async () => {
        const launch = launches.length === 0 ? { executablePath: dies, args: [] } : await bundledChromium();
        launches.push(launch.executablePath);
        return launch;
      },
      { concurrency: 1, engine: 'bundled', warn: (_details, message) => warnings.push(message) },
    );
    try {
      await renderer.selfTest();
      expect(launches).toHaveLength(2);
      expect(launches[0]).toBe(dies);
      expect(renderer.describe()).toMatchObject({ running: true, selfTest: { passedMs: expect.any(Number) } });
      expect(warnings).toContain('PDF renderer self-test failed: trying again');
    } finally {
      await renderer.close();
    }
  });

  it('a renderer that cannot start fails the self-test, and /health says why', async () => {
    const svc = await startTestService('sqlite', { CHROMIUM_PATH: '/nonexistent/chromium' });
    try {
      await expect(svc.deps.renderer.selfTest()).rejects.toThrow();
      const health = (await svc.app.inject({ method: 'GET', url: '/health' })).json();
      expect(health.renderer.engine).toBe('chromium at /nonexistent/chromium');
      expect(health.renderer.selfTest.failed).toContain('/nonexistent/chromium');
    } finally {
      await svc.close();
    }
  });
});
