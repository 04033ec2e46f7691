import type { ReadingPage } from '../contract.js';
import { ApiFailure, type PeopleClient } from './client.js';
import { focusFirstHeading, h, show, sleep } from './dom.js';
import { type MessageKey, t } from './i18n.js';
import { showFailure, showUnknownLink } from './notices.js';
import { applyOrganizationColours } from './organization-colours.js';
import { Shown } from './shown.js';
import { documentsSection, pageHeader, peopleSection } from './signing/page-frame.js';

const STATE_WORDS: Record<ReadingPage['state'], [MessageKey, MessageKey]> = {
  following: ['title', 'readingHelp'],
  finished: ['finishedTitle', 'readingSealedHelp'],
  rejected: ['rejectedTitle', 'rejectedHelp'],
  expired: ['expiredTitle', 'readingExpiredHelp'],
  cancelled: ['cancelledTitle', 'cancelledHelp'],
  editing: ['editingTitle', 'editingHelp'],
};

/**
 * A reader's page: the process they follow, its documents and who takes part, and nothing to act
 * with (the reader's token opens no step). While everyone signed but the final files are being
 * written, it reads the page again until they are there.
 */
export class ReadingFlow {
  private readonly shown = new Shown();

  constructor(
    private readonly root: HTMLElement,
    private readonly client: PeopleClient,
  ) {}

  async start(): Promise<void> {
    let page: ReadingPage;
    try {
      page = await this.client.readingPage();
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) return this.shown.show(() => showUnknownLink(this.root));
      return this.shown.show(() => showFailure(this.root, 'title', error, () => void this.start()));
    }
    applyOrganizationColours(page.colours);
    this.shown.show(() => this.render(page));
    if (page.sealing) await this.waitForSeal();
  }

  private render(page: ReadingPage): void {
    const [title, help] = STATE_WORDS[page.state];
    const state = h('section', { class: 'step', 'aria-live': 'polite' }, h('h2', {}, t(title)), h('p', {}, t(page.sealing ? 'sealingHelp' : help)));
    show(this.root, pageHeader(page), state, documentsSection(page), peopleSection(page));
    focusFirstHeading(state);
  }

  private async waitForSeal(): Promise<void> {
    while (this.root.isConnected) {
      await sleep(5000);
      const next = await this.client.readingPage().catch(() => undefined);
      if (next && !next.sealing) {
        this.shown.show(() => this.render(next));
        return;
      }
    }
  }
}
