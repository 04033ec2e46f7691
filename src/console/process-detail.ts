import type { ServiceContext } from '../context.js';
import { type ProcessView, type RoadmapView, readProcess, readRoadmap } from '../documents/lifecycle/read-process.js';
import { may } from '../organizations/user-roles.js';
import { type IdentityView, maskedPhone, recordIdentityViews } from './identity-views.js';
import type { ConsoleUser } from './sessions.js';

/** An object with its `phone` masked, when it has one. */
function masked<T extends { phone?: string }>(item: T): T {
  return item.phone === undefined ? item : { ...item, phone: maskedPhone(item.phone) };
}

/** The participants whose phone the page shows: of the process, its package's signers and the roadmap's. */
function phonesShown(code: string, process: ProcessView, roadmap: RoadmapView): IdentityView[] {
  const shown = new Map<string, string>();
  for (const p of process.signProfile) if ('id' in p && p.phone !== undefined) shown.set(p.id, p.name);
  for (const p of process.signers ?? []) if (p.phone !== undefined) shown.set(p.userId, p.name);
  for (const p of roadmap.participants) if ('id' in p && p.phone !== undefined) shown.set(p.id, p.name);
  return [...shown].map(([participant, name]) => ({ kind: 'signer', process: code, participant, name, field: 'phone' }));
}

/**
 * One process as the console's process page shows it. Phones are identity data: a reviewer or an
 * admin sees them, and each participant's is an IDENTITY_VIEWED row of the audit log; a member sees
 * them masked (maskedPhone), so the page still tells participants apart. The process view holds no
 * ID number (those are read with photos, which the console's process page never asks for).
 */
export async function readProcessDetail(
  ctx: ServiceContext,
  options: { user: ConsoleUser; code: string; address: string },
): Promise<{ process: ProcessView; roadmap: RoadmapView }> {
  const { user, code } = options;
  const process = await readProcess(ctx, { organizationId: user.organizationId, code });
  const roadmap = await readRoadmap(ctx, { organizationId: user.organizationId, code });
  if (may(user.role, 'identity.view')) {
    await recordIdentityViews(ctx.db, ctx.clock, { user, address: options.address, views: phonesShown(code, process, roadmap) });
    return { process, roadmap };
  }
  return {
    process: {
      ...process,
      signProfile: process.signProfile.map((p) => ('id' in p ? masked(p) : p)),
      ...(process.signers === undefined ? {} : { signers: process.signers.map(masked) }),
    },
    roadmap: { ...roadmap, participants: roadmap.participants.map((p) => ('id' in p ? masked(p) : p)) },
  };
}
