import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../src/http/route.js';
import { CONSOLE_ACCESS } from '../src/http/route-kinds.js';
import { routeTable } from '../src/routes.js';
import { startTestService, type TestService } from './support/service.js';

/** The text of every TypeScript file under src/. */
function sourceText(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceText(file);
      return file.endsWith('.ts') ? fs.readFileSync(file, 'utf8') : '';
    })
    .join('\n');
}

describe('route paths are written out whole in their declarations, so grep finds a path', () => {
  let svc: TestService;
  let routes: ApiRoute[];
  beforeAll(async () => {
    svc = await startTestService('sqlite');
    routes = routeTable(svc.config, svc.deps);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it("every declared route's path is a literal of the source (no prefix constant or template string)", () => {
    const source = sourceText('src');
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => !source.includes(`'${route.url}'`)).map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it("the routes that take a key, and only they, live under /v1.5/ext/; those of a link's token under /people/; the console's, and only they, under /console/api/", () => {
    const misplaced = routes.filter((route) => {
      const takesKey = route.access === 'private-key' || route.access === 'any-key';
      if (takesKey !== route.url.startsWith('/v1.5/ext/')) return true;
      if (CONSOLE_ACCESS.has(route.access) !== route.url.startsWith('/console/api/')) return true;
      return route.access === 'link-token' && !route.url.startsWith('/people/');
    });
    expect(misplaced.map((route) => `${route.access} ${route.method} ${route.url}`)).toEqual([]);
  });
});
