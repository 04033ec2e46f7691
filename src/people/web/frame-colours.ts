const COLOUR = /^#[0-9a-fA-F]{3,8}$/;

/** The colours an SDK's host asks for (`uxOptions`): a hex colour each, anything else ignored. */
export interface FrameColours {
  primaryColor?: unknown;
  alternateColor?: unknown;
}

/** Paints the frame in the host's colours, set through the CSSOM (the pages' policy allows no inline style). */
export function applyColours(colours: FrameColours | undefined): void {
  const root = document.documentElement;
  if (typeof colours?.primaryColor === 'string' && COLOUR.test(colours.primaryColor)) root.style.setProperty('--primary', colours.primaryColor);
  if (typeof colours?.alternateColor === 'string' && COLOUR.test(colours.alternateColor)) root.style.setProperty('--on-primary', colours.alternateColor);
}
