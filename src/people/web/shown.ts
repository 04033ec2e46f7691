import { redraw } from './dom.js';
import { onLanguageChange } from './i18n.js';

/**
 * What a page shows now, kept as the function that draws it, so that choosing another language
 * draws it again in the new words. What was typed in it (a code, a reason) is asked again.
 */
export class Shown {
  private draw: () => void = () => undefined;

  constructor() {
    onLanguageChange(() => redraw(this.draw));
  }

  show(draw: () => void): void {
    this.draw = draw;
    draw();
  }

  /** What a change of language draws from now on, when the caller updated the page itself. */
  remember(draw: () => void): void {
    this.draw = draw;
  }

  /** Something else draws the page from now on (a flow, with its own). */
  forget(): void {
    this.draw = () => undefined;
  }
}
