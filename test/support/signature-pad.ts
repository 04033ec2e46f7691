import type { Page } from 'playwright-core';

/** Draws a zigzag on the page's signature pad with the mouse, as a finger would. */
export async function drawSignature(page: Page): Promise<void> {
  const pad = page.locator('canvas.signature-pad');
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 18, box.y + box.height / 2 + (i % 2 === 0 ? -25 : 25), { steps: 3 });
  await page.mouse.up();
}
