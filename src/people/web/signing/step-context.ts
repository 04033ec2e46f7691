import type { SigningPage } from '../../contract.js';
import type { PhotoKind } from '../camera.js';
import type { PeopleClient } from '../client.js';

/** A photo the service could not use, to take again, and why. */
export interface Retake {
  kind: PhotoKind;
  notice: string;
}

/** Something that says a line to the person: an alert or a status line. */
export interface Say {
  say(text: string): void;
}

/** What the signing flow gives each step it shows. */
export interface StepContext {
  client: PeopleClient;
  page: SigningPage;
  /**
   * Runs a request of the step: a refusal that ends the step reloads the page, which then shows why;
   * any other refusal is said in `alert`. Undefined when refused.
   */
  attempt<T>(request: () => Promise<T>, alert: Say): Promise<T | undefined>;
  reload(): Promise<void>;
  /** The person did what the page asked of them (signed, approved or rejected): the page shows it, and the SDK's host hears of it. */
  finished(): Promise<void>;
  /** The photo to take again, kept across reloads of the page. */
  retake: { next: Retake | undefined };
  /** Whether the person went on from the files asked of them, kept across reloads; they may go back to replace one. */
  attachments: { reviewed: boolean };
}
