import type { LinkQr, LinkSent, PhoneChannel } from '../contract.js';
import { h, sleep, statusLine } from './dom.js';
import { t } from './i18n.js';

export interface HandoffOptions {
  /** The person's own link as a QR code. */
  qr(): Promise<LinkQr>;
  /** Sends the link to the phone number on record. */
  sendLink(channel: PhoneChannel): Promise<LinkSent>;
  /** Whether a phone number is on record, to offer sending the link to it. */
  canSend: boolean;
  /** Whether the phone has finished what this page was waiting for; polled while the code is shown. */
  finished(): Promise<boolean>;
  /** Called once the phone has finished: the page moves on. */
  onFinished(): void;
}

/**
 * A phone or a tablet: every pointer it has is a finger. Such a device takes the photo itself, so
 * offering to continue "on my phone" would only confuse.
 */
function onTouchDevice(): boolean {
  return !window.matchMedia('(any-pointer: fine)').matches;
}

/**
 * Continuing on a phone: a QR code of the person's own link (and an offer to send it by SMS or
 * WhatsApp to the number on record); this page follows along and moves on when the phone is done.
 * Nothing on a device that is itself a phone.
 */
export function phoneHandoff(options: HandoffOptions): HTMLElement | undefined {
  if (onTouchDevice()) return undefined;
  const status = statusLine();
  const panel = h('div', { class: 'handoff', hidden: true });
  const open = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false' }, t('phoneShow'));
  let following = false;

  const follow = async () => {
    if (following) return;
    following = true;
    status.say(t('phoneWaiting'));
    // Until the phone is done or the panel is closed; a failed poll just waits for the next.
    while (following && panel.isConnected) {
      await sleep(3000);
      if (await options.finished().catch(() => false)) {
        following = false;
        options.onFinished();
        return;
      }
    }
  };

  open.addEventListener('click', async () => {
    const opening = panel.hidden;
    panel.hidden = !opening;
    open.setAttribute('aria-expanded', String(opening));
    if (!opening) {
      following = false;
      return;
    }
    if (!panel.hasChildNodes()) {
      const svg = await options.qr().catch(() => undefined);
      const image = svg ? h('img', { src: `data:image/svg+xml;base64,${btoa(svg.svg)}`, alt: t('phoneQr'), class: 'qr' }) : undefined;
      const sends = options.canSend
        ? (['sms', 'whatsapp'] as const).map((channel) => {
            const button = h('button', { type: 'button', class: 'secondary' }, t(channel === 'sms' ? 'phoneSms' : 'phoneWhatsapp'));
            button.addEventListener('click', async () => {
              button.disabled = true;
              await options
                .sendLink(channel)
                .then(() => status.say(t('phoneSent')))
                .catch(() => status.say(t('genericError')));
              button.disabled = false;
            });
            return button;
          })
        : [];
      panel.append(h('h3', {}, t('phoneTitle')), h('p', {}, t('phoneHelp')), image ?? '', h('div', { class: 'actions' }, ...sends), status.element);
    }
    void follow();
  });
  return h('div', {}, open, panel);
}
