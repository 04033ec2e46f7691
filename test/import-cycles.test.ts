import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s'(\.[^']+)\.js';/gms;

/** Each module of src and the modules of src it imports, type-only imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of fs.readdirSync('src', { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const from = path.join('src', file);
    const text = fs.readFileSync(from, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((match) => path.join(path.dirname(from), `${match[1]}.ts`));
    graph.set(
      from,
      targets.filter((target) => fs.existsSync(target)),
    );
  }
  return graph;
}

/** A path of imports that comes back to where it started, or undefined when there is none. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const walk = (module: string, trail: string[]): string[] | undefined => {
    const start = trail.indexOf(module);
    if (start >= 0) return [...trail.slice(start), module];
    if (done.has(module)) return undefined;
    for (const next of graph.get(module) ?? []) {
      const cycle = walk(next, [...trail, module]);
      if (cycle) return cycle;
    }
    done.add(module);
    return undefined;
  };
  for (const module of graph.keys()) {
    const cycle = walk(module, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('no module of src imports itself through others, not even for types', () => {
  it('the imports between the modules of src make no cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycle(graph)).toBeUndefined();
  });
});
