import type { OrganizationRow } from '../db/schema.js';
import { type PageColours, pageColours } from './page-colours.js';
import { uxOptionsOf } from './ux-options.js';

/** The `colours` field of a people's page answer: present when the organization chose colours. */
export function organizationColours(organization: OrganizationRow | undefined): { colours?: PageColours } {
  const colours = organization ? pageColours(uxOptionsOf(organization.ux_options)) : undefined;
  return colours === undefined ? {} : { colours };
}
