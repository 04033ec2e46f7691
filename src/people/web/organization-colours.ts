import type { PageColours } from '../contract.js';

/**
 * Applies the organization's colours from the page's answer. Colours the SDK passed for this frame
 * (embedded.ts, the integrator's choice for one page) stay: the organization's apply only where no
 * other colour was set, or where they were set before by this function.
 */
export function applyOrganizationColours(colours: PageColours | undefined): void {
  if (!colours) return;
  const root = document.documentElement;
  const chosen = root.style.getPropertyValue('--primary') !== '' || root.style.getPropertyValue('--on-primary') !== '';
  if (chosen && root.dataset.colours !== 'organization') return;
  root.dataset.colours = 'organization';
  root.style.setProperty('--primary', colours.primary);
  root.style.setProperty('--on-primary', colours.onPrimary);
}
