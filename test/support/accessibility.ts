import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe finds no serious or critical violation on a person's page. `exclude` leaves out a part the
 * service does not write, such as the preview frame of a template's own HTML.
 */
export async function expectAccessible(page: Page, options: { exclude?: string } = {}): Promise<void> {
  const builder = new AxeBuilder({ page });
  const results = await (options.exclude === undefined ? builder : builder.exclude(options.exclude)).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
