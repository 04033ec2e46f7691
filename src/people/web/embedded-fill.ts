import { linkTokenOf, peopleClient } from './client.js';
import { FillFlow } from './fill/fill-flow.js';
import { applyColours } from './frame-colours.js';
import { chooseLanguage, isLanguage, type Language } from './i18n.js';
import { showUnknownLink } from './notices.js';
import { SigningFlow } from './signing/flow.js';

/**
 * What the SDK's frame carries from the app it first loads (/) to the form's own page (/e/<token>),
 * in the URL's fragment, which the browser never sends: the host's origin, the language and
 * colours its init message asked for, where the host sends the person afterwards, and under what
 * the answers are kept on the device.
 */
export interface EmbeddedFillState {
  parent: string;
  language: Language;
  primaryColor?: string;
  alternateColor?: string;
  redirectTo: string;
  storageKey: string;
}

/** The form's page in the SDK's frame: its own policy lets it ask the form's `request` endpoints, which the app at / cannot. */
export function embeddedFillUrl(token: string, state: EmbeddedFillState): string {
  return `/e/${encodeURIComponent(token)}#${encodeURIComponent(JSON.stringify(state))}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function stateFromFragment(): EmbeddedFillState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(window.location.hash.slice(1)));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const state: Record<string, unknown> = { ...value };
  const parent = text(state.parent);
  const storageKey = text(state.storageKey);
  if (parent === undefined || !URL.canParse(parent) || new URL(parent).origin !== parent || storageKey === undefined) return undefined;
  const primaryColor = text(state.primaryColor);
  const alternateColor = text(state.alternateColor);
  return {
    parent,
    storageKey,
    language: isLanguage(state.language) ? state.language : 'es',
    redirectTo: text(state.redirectTo) ?? '',
    ...(primaryColor === undefined ? {} : { primaryColor }),
    ...(alternateColor === undefined ? {} : { alternateColor }),
  };
}

/**
 * The questionnaire the SDK's fill flow opened, in its frame: the page only the host's origin may
 * frame (the service says so in its policy). It tells the host `SDK-CLOSE` with the new process's
 * code, at once, or after the person signed when the form signs now.
 */
export function runEmbeddedFill(root: HTMLElement, token: string): void {
  const state = stateFromFragment();
  if (window.parent === window || !state) {
    showUnknownLink(root);
    return;
  }
  chooseLanguage(state.language);
  applyColours(state);
  const post = (message: Record<string, unknown>) => window.parent.postMessage(message, state.parent);
  void new FillFlow(root, peopleClient(token), {
    storageKey: state.storageKey,
    onDone: (done) => {
      const close = (signProfile: { id: string; name: string }[]) =>
        post({ type: 'SDK-CLOSE', document: done.code, redirectTo: state.redirectTo, signProfile });
      const signingToken = done.signingUrl === undefined ? undefined : linkTokenOf(done.signingUrl);
      if (signingToken === undefined) {
        close([]);
        return;
      }
      // Sign now: the person signs in the frame, and the SDK hears of the process once they are done.
      void new SigningFlow(root, peopleClient(signingToken), {
        onDone: (page) => close([{ id: page.participant.id, name: page.participant.name }]),
      }).start();
    },
  }).start();
}
