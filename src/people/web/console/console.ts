import { LANGUAGES } from '../../../organizations/languages.js';
import { may, type Permission } from '../../../organizations/user-roles.js';
import { LANGUAGE_NAMES } from '../../words.js';
import { alertLine, h, show } from '../dom.js';
import { chooseMyLanguage, type Me, me, myLanguage, processDetail, RefusedError, signInWithLink, signOut, templates } from './api.js';
import { processActions } from './process-actions-view.js';
import { drawProcess } from './process-view.js';
import { ProcessesView } from './processes-view.js';
import { drawNav, type Section, Sections } from './sections.js';
import { drawSecondFactor, drawSignIn, refusalWords } from './sign-in-view.js';
import { currentLanguage, isLanguage, say, setLanguage, setTimeZone } from './words.js';

const LINK_FRAGMENT = '#sign-in=';
/** Where the single sign-on's way back lands (src/console/oidc/routes.ts). */
const SECOND_FACTOR_FRAGMENT = '#second-factor';
const REFUSED_FRAGMENT = '#sign-in-refused';

const ROLE_WORDS = { admin: 'roleAdmin', reviewer: 'roleReviewer', sender: 'roleSender', viewer: 'roleViewer' } as const satisfies Record<Me['role'], string>;

/**
 * The operator console: sign-in, then the organization's processes and each one's timeline. The
 * session lives in an HttpOnly cookie; a refusal for want of one at any moment brings the sign-in
 * back.
 */
class Console {
  private user: Me | undefined;
  /** Signed in one way, the session waiting for the app's code. */
  private waitsForCode = false;
  private view: { kind: 'processes' } | { kind: 'process'; code: string } | { kind: Section } = { kind: 'processes' };
  private readonly alert = alertLine();
  private readonly bar = h('div', { class: 'user-bar' });
  private readonly nav = h('nav', { class: 'sections' });
  private readonly content = h('div');
  private processes = this.newProcessesView();
  private sections = this.newSections();

  constructor(private readonly root: HTMLElement) {}

  private newProcessesView(): ProcessesView {
    return new ProcessesView({ open: (code) => void this.openProcess(code), refused: (error) => this.refused(error), templates });
  }

  async start(): Promise<void> {
    this.frame();
    // The e-mailed link opened in a tab where the console is open already changes only the fragment.
    window.addEventListener('hashchange', () => void this.fromLink());
    if (await this.fromLink()) return;
    try {
      this.signedIn(await me());
    } catch (error) {
      if (error instanceof RefusedError && error.refusal === 'session') this.signIn();
      else this.refused(error);
    }
  }

  /**
   * Signs in with the e-mailed link's token when the address holds one, or goes on with what the
   * single sign-on's way back says; answers whether the address said anything.
   */
  private async fromLink(): Promise<boolean> {
    const fragment = location.hash;
    if (fragment === SECOND_FACTOR_FRAGMENT || fragment === REFUSED_FRAGMENT) {
      history.replaceState(null, '', location.pathname);
      if (fragment === SECOND_FACTOR_FRAGMENT) this.secondFactor();
      else this.signIn(say('oidcRefused'));
      return true;
    }
    if (!fragment.startsWith(LINK_FRAGMENT)) return false;
    const token = fragment.slice(LINK_FRAGMENT.length);
    // The token leaves the address bar and the history at once: it was good for one use only.
    history.replaceState(null, '', location.pathname);
    try {
      this.signedIn(await signInWithLink(token));
    } catch (error) {
      this.signIn(refusalWords(error));
    }
    return true;
  }

  /** The page around the views: the language, who is signed in, the title, errors. */
  private frame(): void {
    const select = h('select', { id: 'language' }, ...LANGUAGES.map((language) => h('option', { value: language, lang: language }, LANGUAGE_NAMES[language])));
    select.value = currentLanguage();
    select.addEventListener('change', () => {
      if (!isLanguage(select.value)) return;
      setLanguage(select.value);
      // Signed in, the choice is the user's: kept for their next visit and their sign-in e-mails.
      if (this.user) chooseMyLanguage(select.value).catch((error: unknown) => this.refused(error));
      this.frame();
      this.root.querySelector<HTMLElement>('#language')?.focus();
      void this.redraw();
    });
    show(
      this.root,
      h('header', { class: 'language' }, h('label', { for: 'language' }, say('language')), select),
      this.bar,
      this.nav,
      this.alert.element,
      this.content,
    );
    this.drawBar();
  }

  private drawBar(): void {
    const user = this.user;
    const current = this.view.kind === 'process' ? 'processes' : this.view.kind;
    drawNav(this.nav, { user, current, go: (section) => void this.go(section) });
    if (!user) {
      show(this.bar);
      return;
    }
    const role = say(ROLE_WORDS[user.role]);
    show(
      this.bar,
      h('p', {}, say('signedInAs', { email: user.email, organization: user.organization.name }), ' ', h('span', { class: 'hint' }, `(${role})`)),
      h('button', { type: 'button', class: 'secondary small', onclick: () => void this.signOut() }, say('signOut')),
    );
  }

  private signIn(notice = ''): void {
    this.signedOut();
    drawSignIn(this.content, { ...(notice === '' ? {} : { notice }), signedIn: (user) => this.signedIn(user) });
    this.content.querySelector<HTMLElement>('h1')?.focus();
  }

  /** The code of the user's authenticator app, which the session begun waits for before it opens anything. */
  private secondFactor(): void {
    this.signedOut();
    this.waitsForCode = true;
    drawSecondFactor(this.content, { signedIn: (user) => this.signedIn(user), startAgain: (notice) => this.signIn(notice) });
    this.content.querySelector<HTMLElement>('h1')?.focus();
  }

  private may(permission: Permission): boolean {
    return this.user !== undefined && may(this.user.role, permission);
  }

  private newSections(): Sections {
    return new Sections({ refused: (error) => this.refused(error), may: (permission) => this.may(permission) });
  }

  private signedOut(): void {
    this.user = undefined;
    this.waitsForCode = false;
    this.processes = this.newProcessesView();
    this.sections = this.newSections();
    this.drawBar();
  }

  private signedIn(user: Me): void {
    if (user.secondFactor === 'totp') {
      this.secondFactor();
      return;
    }
    this.user = user;
    this.waitsForCode = false;
    this.alert.say('');
    this.view = { kind: 'processes' };
    void this.adoptLanguage().then(() => {
      this.drawBar();
      return this.processes.draw(this.content, true).then(() => this.content.querySelector<HTMLElement>('#processes-heading')?.focus());
    });
  }

  /**
   * The user's language (their choice, else the organization's) replaces the browser's, and every
   * time is shown in the organization's zone, named: what they read is what their colleagues read.
   */
  private async adoptLanguage(): Promise<void> {
    const chosen = await myLanguage().catch(() => undefined);
    if (!chosen) return;
    setTimeZone(chosen.timeZone);
    if (!isLanguage(chosen.language) || chosen.language === currentLanguage()) return;
    setLanguage(chosen.language);
    this.frame();
  }

  private async redraw(): Promise<void> {
    if (!this.user) return this.waitsForCode ? this.secondFactor() : this.signIn();
    if (this.view.kind === 'process') return this.openProcess(this.view.code);
    if (this.view.kind !== 'processes') return this.sections.draw(this.view.kind, this.content);
    await this.processes.draw(this.content, false);
  }

  /** Opens a section from the navigation. */
  private async go(section: Section | 'processes'): Promise<void> {
    this.alert.say('');
    if (section === 'processes') return this.back();
    this.view = { kind: section };
    this.drawBar();
    await this.sections.draw(section, this.content);
  }

  private async openProcess(code: string, notice?: string): Promise<void> {
    try {
      const detail = await processDetail(code);
      this.view = { kind: 'process', code };
      this.alert.say('');
      // What the role may not do is not offered (the service refuses it all the same).
      const actions = this.may('processes.write')
        ? processActions(detail, {
            ...(notice ? { notice } : {}),
            reload: (said) => void this.openProcess(code, said),
            ...(this.may('identity.view') ? { review: () => void this.go('review') } : {}),
            refused: (error) => this.refused(error),
          })
        : null;
      drawProcess(this.content, detail, () => void this.back(), actions);
    } catch (error) {
      this.refused(error);
    }
  }

  private async back(): Promise<void> {
    this.view = { kind: 'processes' };
    this.drawBar();
    await this.processes.draw(this.content, false);
    this.content.querySelector<HTMLElement>('#processes-heading')?.focus();
  }

  private async signOut(): Promise<void> {
    try {
      await signOut();
    } catch (error) {
      if (!(error instanceof RefusedError && error.refusal === 'session')) return this.refused(error);
    }
    this.signIn(say('signedOut'));
  }

  private refused(error: unknown): void {
    if (error instanceof RefusedError && error.refusal === 'session') this.signIn(say('sessionEnded'));
    else if (error instanceof RefusedError && error.refusal === 'not-found') this.alert.say(say('processNotFound'));
    else this.alert.say(refusalWords(error));
  }
}

const root = document.getElementById('console');
if (root) {
  const language = document.documentElement.lang;
  if (isLanguage(language)) setLanguage(language);
  void new Console(root).start();
}
