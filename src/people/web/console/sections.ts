import { may, type Permission } from '../../../organizations/user-roles.js';
import { h, show } from '../dom.js';
import { sayAdmin } from './admin-words.js';
import type { Me } from './api.js';
import { AuditView } from './audit-view.js';
import { KeysView } from './keys-view.js';
import { ReviewView } from './review-view.js';
import { SecurityView } from './security-view.js';
import { TemplatesView } from './templates-view.js';
import { WebhooksView } from './webhooks-view.js';
import { say } from './words.js';

/**
 * The console's sections besides the processes, each shown to the roles that hold its permission
 * (the service refuses the others too): webhooks, keys and the audit log are the admins', the review
 * queue (identity photos and numbers) the reviewers' and admins'. Security is each user's own
 * passkeys and app code.
 */
export type Section = 'review' | 'templates' | 'webhooks' | 'keys' | 'audit' | 'security';

const SECTION_PERMISSIONS = {
  processes: 'processes.read',
  review: 'identity.view',
  templates: 'processes.read',
  webhooks: 'settings.admin',
  keys: 'settings.admin',
  audit: 'settings.admin',
  security: 'account.self',
} as const satisfies Record<Section | 'processes', Permission>;

/** The navigation between the sections, the one shown marked as the current page. */
export function drawNav(nav: HTMLElement, options: { user: Me | undefined; current: Section | 'processes'; go(section: Section | 'processes'): void }): void {
  if (!options.user) {
    show(nav);
    return;
  }
  const { role } = options.user;
  const item = (section: Section | 'processes', label: string) =>
    !may(role, SECTION_PERMISSIONS[section])
      ? null
      : h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'link', 'aria-current': section === options.current ? 'page' : undefined, onclick: () => options.go(section) },
            label,
          ),
        );
  nav.setAttribute('aria-label', sayAdmin('navLabel'));
  show(
    nav,
    h(
      'ul',
      {},
      item('processes', sayAdmin('navProcesses')),
      item('review', say('review')),
      item('templates', sayAdmin('navTemplates')),
      item('webhooks', sayAdmin('navWebhooks')),
      item('keys', sayAdmin('navKeys')),
      item('audit', say('auditNav')),
      item('security', say('security')),
    ),
  );
  // On a phone the tabs scroll sideways: the current one is brought into the row's view (the row
  // only, never the page), so the person sees where they are.
  requestAnimationFrame(() => {
    const list = nav.querySelector('ul');
    const current = nav.querySelector<HTMLElement>('[aria-current="page"]')?.parentElement;
    if (!list || !current || list.scrollWidth <= list.clientWidth) return;
    list.scrollLeft = current.offsetLeft - list.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
  });
}

/** The sections' views, kept while the person is signed in. */
export class Sections {
  private readonly views;

  constructor(options: { refused(error: unknown): void; may(permission: Permission): boolean }) {
    this.views = {
      templates: new TemplatesView({ refused: options.refused, writes: () => options.may('templates.write') }),
      webhooks: new WebhooksView(options),
      keys: new KeysView(options),
      audit: new AuditView(options),
      security: new SecurityView(options),
    };
    this.review = new ReviewView(options);
  }

  private readonly review: ReviewView;

  async draw(section: Section, container: HTMLElement): Promise<void> {
    if (section === 'review') return this.review.draw(container, true);
    await this.views[section].draw(container);
    container.querySelector<HTMLElement>('h1')?.focus();
  }
}
