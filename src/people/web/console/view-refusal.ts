import { AdminRefusal } from './admin-api.js';

/** What a view tells the console: a refusal it cannot say itself (no session any more). */
export interface ViewOptions {
  refused(error: unknown): void;
}

/** Says a refusal with the service's own message, or hands it to the console (a lost session). */
export function refusalTo(alert: { say(text: string): void }, options: ViewOptions, error: unknown): void {
  if (error instanceof AdminRefusal) alert.say(error.message);
  else options.refused(error);
}
