export type Child = Node | string | false | null | undefined;
type Attributes = Record<string, string | boolean | number | EventListener | undefined>;

/** An element with its attributes (on* keys are listeners; false and undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== false && child !== null && child !== undefined) element.append(child);
  return element;
}

/** Replaces what a container shows. */
export function show(container: HTMLElement, ...children: Child[]): void {
  container.replaceChildren(...children.filter((c): c is Node | string => c !== false && c !== null && c !== undefined));
}

let rendered = false;
let redrawing = false;

/**
 * Draws again what is shown (in another language) without moving focus: the reader stays on the
 * control they used rather than being taken to a heading of a page that did not change.
 */
export function redraw(draw: () => void): void {
  redrawing = true;
  try {
    draw();
  } finally {
    redrawing = false;
  }
}

/**
 * Moves focus to the heading of what just appeared, so that keyboard and screen-reader users
 * start reading where the page changed.
 */
export function focusFirstHeading(container: HTMLElement): void {
  if (redrawing) return;
  // On the first rendering the reader starts at the top of the page, not inside a step.
  if (!rendered) {
    rendered = true;
    return;
  }
  const heading = container.querySelector<HTMLElement>('h1, h2');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}

/** A polite live region's text: screen readers read it out when it changes. */
export function statusLine(): { element: HTMLParagraphElement; say(text: string): void } {
  const element = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  return {
    element,
    say(text: string) {
      element.textContent = text;
    },
  };
}

/** An error line read out at once (role alert), empty until there is something to say. */
export function alertLine(): { element: HTMLParagraphElement; say(text: string): void } {
  const element = h('p', { class: 'error', role: 'alert' });
  return {
    element,
    say(text: string) {
      element.textContent = text;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
