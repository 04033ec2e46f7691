import { h } from '../dom.js';
import { sayAdmin } from './admin-words.js';

/**
 * A file taken by drag and drop onto the zone, or chosen with its file field (the keyboard's and
 * screen reader's way): the zone is the field's label's surroundings, and says which file it holds.
 */
export class DropZone {
  readonly element: HTMLDivElement;
  private chosen: File | undefined;
  private readonly input: HTMLInputElement;
  private readonly status: HTMLParagraphElement;

  constructor(options: { id: string; label: string; accept: string; changed?: (file: File) => void }) {
    this.input = h('input', { id: options.id, type: 'file', accept: options.accept, 'aria-describedby': `${options.id}-status` });
    this.status = h('p', { id: `${options.id}-status`, class: 'hint', 'aria-live': 'polite' }, sayAdmin('dropHint'));
    this.element = h('div', { class: 'drop-zone' }, h('label', { for: options.id }, options.label), this.input, this.status);
    const take = (file: File | undefined) => {
      if (!file) return;
      this.chosen = file;
      this.status.textContent = sayAdmin('chosen', { name: file.name });
      options.changed?.(file);
    };
    this.input.addEventListener('change', () => take(this.input.files?.[0]));
    this.element.addEventListener('dragover', (event) => {
      event.preventDefault();
      this.element.classList.add('over');
    });
    this.element.addEventListener('dragleave', () => this.element.classList.remove('over'));
    this.element.addEventListener('drop', (event) => {
      event.preventDefault();
      this.element.classList.remove('over');
      take(event.dataTransfer?.files[0]);
    });
  }

  get file(): File | undefined {
    return this.chosen;
  }
}
