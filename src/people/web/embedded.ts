import { openEmbedded, peopleClient } from './client.js';
import { embeddedFillUrl } from './embedded-fill.js';
import { applyColours, type FrameColours } from './frame-colours.js';
import { chooseLanguage, currentLanguage, isLanguage } from './i18n.js';
import { showHome, showUnknownLink } from './notices.js';
import { Shown } from './shown.js';
import { SigningFlow } from './signing/flow.js';
import { ValidationFlow } from './validation-flow.js';

interface InitMessage {
  language?: unknown;
  document?: unknown;
  /** The fill flow's: a prebuilt process to complete (with preBuild), or a reference link. */
  code?: unknown;
  preBuild?: unknown;
  reference?: unknown;
  keyPublic?: unknown;
  sdkParentURL?: unknown;
  uxOptions?: FrameColours & { redirectUrl?: unknown };
}

/**
 * The page that embeds this frame, as the browser tells it: the only origin this app ever posts
 * to (never '*'). A guess that is wrong costs nothing: the browser drops the message.
 */
function parentOrigin(): string | undefined {
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  try {
    return document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

/** How long the frame waits for its host's token before it says the flow cannot open (a late token still opens it). */
const TOKEN_WAIT_MS = 5000;

/**
 * The token the host page's backend minted for this flow: asked for as the SDK expects (a message
 * whose `type` contains `token`); the SDK calls the page's `onSDKToken` and posts `{type: 'token', token}`.
 */
function tokenFromHost(parent: string, post: (message: Record<string, unknown>) => void): Promise<string> {
  return new Promise((resolve) => {
    const listen = (event: MessageEvent<unknown>) => {
      if (event.origin !== parent || event.source !== window.parent) return;
      const data = event.data;
      if (typeof data !== 'object' || data === null || !('type' in data) || data.type !== 'token') return;
      if (!('token' in data) || typeof data.token !== 'string') return;
      window.removeEventListener('message', listen);
      resolve(data.token);
    };
    window.addEventListener('message', listen);
    post({ type: 'token-request' });
  });
}

/**
 * The app the SDK (auco-sdk-integration) embeds with `customOrigin`: it says `{ready: true}` to its
 * parent, reads the init message, opens the flow its `document` names (a participant's signing, a
 * face validation, or a template's form: the fill flow), and tells the parent `SDK-CLOSE` when the
 * person is done; for a form, with the new process's code as onSDKClose's first argument.
 */
export function runEmbedded(root: HTMLElement): void {
  // What this module shows before a flow opens; a flow draws its own.
  const shown = new Shown();
  // Opened directly rather than framed: someone typed the service's address.
  if (window.parent === window) {
    shown.show(() => showHome(root));
    return;
  }
  const parent = parentOrigin();
  if (!parent) {
    shown.show(() => showUnknownLink(root));
    return;
  }
  const post = (message: Record<string, unknown>) => window.parent.postMessage(message, parent);
  let started = false;
  window.addEventListener('message', async (event: MessageEvent<unknown>) => {
    if (started || event.origin !== parent || event.source !== window.parent) return;
    const init = event.data as InitMessage;
    if (typeof init !== 'object' || init === null || typeof init.document !== 'string' || typeof init.keyPublic !== 'string') return;
    // The URL the SDK reports must be on the origin that sent the message.
    if (typeof init.sdkParentURL === 'string' && URL.canParse(init.sdkParentURL) && new URL(init.sdkParentURL).origin !== parent) return;
    started = true;
    if (isLanguage(init.language)) chooseLanguage(init.language);
    applyColours(init.uxOptions);
    const document = init.document;
    const keyPublic = init.keyPublic;
    const redirectTo = typeof init.uxOptions?.redirectUrl === 'string' ? init.uxOptions.redirectUrl : '';
    const fill = {
      ...(typeof init.code === 'string' ? { code: init.code } : {}),
      ...(typeof init.preBuild === 'boolean' ? { preBuild: init.preBuild } : {}),
      ...(typeof init.reference === 'string' ? { reference: init.reference } : {}),
    };
    const language = isLanguage(init.language) ? { language: init.language } : {};
    const open = (token?: string) =>
      openEmbedded({ keyPublic, document, parentOrigin: parent, ...fill, ...language, ...(token === undefined ? {} : { token }) }).catch(() => undefined);
    const unknown = () => shown.show(() => showUnknownLink(root));
    let opened = await open();
    if (!opened) {
      // Refused without a token: the organization may require one, which only the host's backend can mint.
      const waited = window.setTimeout(unknown, TOKEN_WAIT_MS);
      opened = await open(await tokenFromHost(parent, post));
      window.clearTimeout(waited);
      if (!opened) {
        unknown();
        return;
      }
    }
    shown.forget();
    const client = peopleClient(opened.token);
    if (opened.flow === 'fill') {
      // The form has a page of its own, whose policy allows its `request` endpoints; the frame goes there.
      const colours = init.uxOptions ?? {};
      window.location.replace(
        embeddedFillUrl(opened.token, {
          parent,
          language: currentLanguage(),
          ...(typeof colours.primaryColor === 'string' ? { primaryColor: colours.primaryColor } : {}),
          ...(typeof colours.alternateColor === 'string' ? { alternateColor: colours.alternateColor } : {}),
          redirectTo,
          // The same form opened again on this device finds its answers: a frame's session is new each time.
          storageKey: `sdk:${document}:${fill.code ?? fill.reference ?? ''}`,
        }),
      );
    } else if (opened.flow === 'sign') {
      await new SigningFlow(root, client, {
        onDone: (page) => post({ type: 'SDK-CLOSE', document, redirectTo, signProfile: [{ id: page.participant.id, name: page.participant.name }] }),
      }).start();
    } else {
      await new ValidationFlow(root, client, {
        // The SDK removes its frame on this message: sent once the validation is over, never on a retake.
        onDone: (outcome) => post({ type: 'SDK-CLOSE', similarity: outcome.similarity ?? 0, status: outcome.status }),
      }).start();
    }
  });
  post({ ready: true });
}
