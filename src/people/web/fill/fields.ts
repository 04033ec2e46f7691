import type { FillQuestion } from '../../contract.js';
import { type Child, h } from '../dom.js';
import { currentLanguage } from '../i18n.js';
import type { SignatureInput } from '../signature.js';
import { CALLING_CODES, countryName, DEPARTMENTS, IDENTIFICATION_TYPES } from './places.js';
import { tf } from './words.js';

/** One question on the page: its input as people expect it for its type, its hint and its error. */
export interface Field {
  readonly question: FillQuestion;
  readonly element: HTMLElement;
  /** The answer as /document/save takes it; '' when unanswered. */
  value(): string;
  set(value: string): void;
  focus(): void;
  /** Shows the message at the field (aria-invalid, tied by aria-describedby), or clears it. */
  showError(text: string | undefined): void;
  /** A prefilled answer the person may not change. */
  lock(): void;
}

/** What a field tells the page: an answer changed; a `request` question's endpoint answered others. */
export interface FieldEvents {
  changed(): void;
  prefill(pairs: { key: string; value: string }[]): void;
  /** Whether the person signs in the next step (a signature question says where they sign). */
  signNow: boolean;
  /** With sign now, the signature question the person signs in the form, and the input they sign with. */
  signature?: { question: string; input: SignatureInput };
}

/** The largest image answer /document/save takes: 8 MiB of data URI. */
const MAX_IMAGE_LENGTH = 8 * 1024 * 1024;

interface Frame {
  id: string;
  element: HTMLElement;
  /** The controls the hint and error describe, and that an error marks invalid. */
  controls: HTMLElement[];
  add(...children: Child[]): void;
}

/**
 * The question's frame: a label (or, for several inputs, a fieldset and its legend) with the
 * question's words, the help text as its hint and the error, both tied to the inputs.
 */
function frame(question: FillQuestion, grouped: boolean): Frame & { hint: HTMLElement | undefined; error: HTMLElement } {
  const id = `q-${question.name}`;
  const title: Child[] = [question.description, question.required ? h('span', { class: 'required' }, ` ${tf('requiredMark')}`) : undefined];
  const hint = question.help === undefined ? undefined : h('p', { id: `${id}-help`, class: 'hint' }, question.help);
  const error = h('p', { id: `${id}-error`, class: 'field-error', hidden: true });
  const element = grouped
    ? h('fieldset', { class: 'field', 'data-question': question.name }, h('legend', {}, ...title))
    : h('div', { class: 'field', 'data-question': question.name }, h('label', { for: id }, ...title));
  const body = h('div', { class: 'field-body' });
  if (hint) element.append(hint);
  element.append(body, error);
  return { id, element, hint, error, controls: [], add: (...children) => body.append(...children.filter((c): c is Node | string => !!c)) };
}

function describe(built: ReturnType<typeof frame>, withError: boolean): void {
  const ids = [built.hint?.id, withError ? built.error.id : undefined].filter((id): id is string => id !== undefined);
  for (const control of built.controls) {
    if (ids.length > 0) control.setAttribute('aria-describedby', ids.join(' '));
    else control.removeAttribute('aria-describedby');
  }
}

function field(question: FillQuestion, built: ReturnType<typeof frame>, answer: { value(): string; set(value: string): void }): Field {
  describe(built, false);
  return {
    question,
    element: built.element,
    value: answer.value,
    set: answer.set,
    focus: () => built.controls[0]?.focus(),
    showError(text) {
      built.error.textContent = text ?? '';
      built.error.hidden = text === undefined;
      for (const control of built.controls) {
        if (text === undefined) control.removeAttribute('aria-invalid');
        else control.setAttribute('aria-invalid', 'true');
      }
      describe(built, text !== undefined);
    },
    lock() {
      for (const control of built.controls) control.setAttribute('disabled', '');
    },
  };
}

function textInput(question: FillQuestion, events: FieldEvents, attributes: Record<string, string | number | boolean | undefined>): Field {
  const built = frame(question, false);
  const input = h('input', { id: built.id, type: 'text', maxlength: question.maxlength, ...attributes });
  input.addEventListener('input', () => events.changed());
  built.controls.push(input);
  built.add(input);
  return field(question, built, { value: () => input.value.trim(), set: (value) => (input.value = value) });
}

function choiceSelect(id: string, choices: readonly { value: string; label: string }[], placeholder?: string): HTMLSelectElement {
  return h(
    'select',
    { id },
    ...(placeholder === undefined ? [] : [h('option', { value: '' }, placeholder)]),
    ...choices.map((choice) => h('option', { value: choice.value }, choice.label)),
  );
}

function phone(question: FillQuestion, events: FieldEvents): Field {
  const built = frame(question, true);
  const fixed = question.country?.toUpperCase();
  const language = currentLanguage();
  const codes = CALLING_CODES.filter(([country]) => fixed === undefined || country === fixed);
  const country = choiceSelect(
    `${built.id}-country`,
    (codes.length > 0 ? codes : CALLING_CODES).map(([iso, code]) => ({ value: iso, label: `${countryName(iso, language)} +${code}` })),
  );
  if (fixed !== undefined && codes.length > 0) country.disabled = true;
  const number = h('input', { id: built.id, type: 'tel', inputmode: 'tel', autocomplete: 'tel-national', maxlength: question.maxlength });
  const codeOf = (iso: string) => CALLING_CODES.find(([candidate]) => candidate === iso)?.[1] ?? '';
  for (const control of [country, number]) control.addEventListener(control === number ? 'input' : 'change', () => events.changed());
  built.controls.push(number, country);
  built.add(
    h('label', { for: country.id, class: 'sub-label' }, tf('phoneCountry')),
    country,
    h('label', { for: number.id, class: 'sub-label' }, tf('phoneNumber')),
    number,
  );
  return field(question, built, {
    value() {
      const typed = number.value.trim();
      const digits = typed.replace(/\D/g, '');
      if (digits === '') return '';
      return typed.startsWith('+') ? `+${digits}` : `+${codeOf(country.value)}${digits}`;
    },
    set(value) {
      const digits = value.replace(/\D/g, '');
      const match = [...CALLING_CODES]
        .filter(([iso, code]) => digits.startsWith(code) && (fixed === undefined || iso === fixed))
        .sort((a, b) => b[1].length - a[1].length)[0];
      if (value.startsWith('+') && match) {
        country.value = match[0];
        number.value = digits.slice(match[1].length);
      } else {
        number.value = value;
      }
    },
  });
}

function identification(question: FillQuestion, events: FieldEvents): Field {
  const built = frame(question, true);
  const language = currentLanguage();
  const fixed = question.country?.toUpperCase();
  const countries = Object.keys(IDENTIFICATION_TYPES).filter((code) => fixed === undefined || code === fixed);
  const country = choiceSelect(
    `${built.id}-country`,
    (countries.length > 0 ? countries : ['CO']).map((code) => ({ value: code, label: countryName(code, language) })),
  );
  if (fixed !== undefined) country.disabled = true;
  const type = h('select', { id: `${built.id}-type` });
  const number = h('input', { id: built.id, type: 'text', autocomplete: 'off', maxlength: question.maxlength });
  const fillTypes = () => {
    const kept = type.value;
    type.replaceChildren(...(IDENTIFICATION_TYPES[country.value] ?? []).map((code) => h('option', { value: code }, code)));
    if ([...type.options].some((option) => option.value === kept)) type.value = kept;
  };
  fillTypes();
  country.addEventListener('change', () => {
    fillTypes();
    events.changed();
  });
  type.addEventListener('change', () => events.changed());
  number.addEventListener('input', () => events.changed());
  built.controls.push(number, country, type);
  built.add(
    h('label', { for: country.id, class: 'sub-label' }, tf('idCountry')),
    country,
    h('label', { for: type.id, class: 'sub-label' }, tf('idType')),
    type,
    h('label', { for: number.id, class: 'sub-label' }, tf('idNumber')),
    number,
  );
  return field(question, built, {
    value: () => (number.value.trim() === '' ? '' : `${type.value} ${number.value.trim()}`),
    set(value) {
      const [documentType = '', ...rest] = value.trim().split(/\s+/);
      const home = Object.entries(IDENTIFICATION_TYPES).find(
        ([code, types]) => (fixed === undefined || code === fixed) && types.includes(documentType.toUpperCase()),
      );
      if (home) {
        country.value = home[0];
        fillTypes();
        type.value = documentType.toUpperCase();
        number.value = rest.join(' ');
      } else {
        number.value = value;
      }
    },
  });
}

function selectField(question: FillQuestion, events: FieldEvents, choices: readonly { value: string; label: string }[]): Field {
  const built = frame(question, false);
  const select = choiceSelect(built.id, choices, tf('chooseOption'));
  select.addEventListener('change', () => events.changed());
  built.controls.push(select);
  built.add(select);
  return field(question, built, { value: () => select.value, set: (value) => (select.value = value) });
}

/** A list to search: the browser's own suggestions as the person types (a datalist), its labels mapped back to values. */
function searchList(question: FillQuestion, events: FieldEvents): Field {
  const built = frame(question, false);
  const options = question.options ?? [];
  const list = h('datalist', { id: `${built.id}-list` }, ...options.map((option) => h('option', { value: option.label })));
  const searchHint = h('p', { id: `${built.id}-search`, class: 'hint' }, tf('searchHint'));
  const input = h('input', { id: built.id, type: 'text', list: list.id, autocomplete: 'off' });
  input.addEventListener('input', () => events.changed());
  built.controls.push(input);
  built.add(searchHint, input, list);
  const result = field(question, built, {
    value() {
      const typed = input.value.trim();
      return options.find((option) => option.label === typed)?.value ?? typed;
    },
    set: (value) => (input.value = options.find((option) => option.value === value)?.label ?? value),
  });
  const describedBy = () => input.setAttribute('aria-describedby', [input.getAttribute('aria-describedby'), searchHint.id].filter(Boolean).join(' '));
  describedBy();
  return {
    ...result,
    showError(text) {
      result.showError(text);
      describedBy();
    },
  };
}

function choices(question: FillQuestion, events: FieldEvents, kind: 'radio' | 'checkbox'): Field {
  const built = frame(question, true);
  const values = kind === 'radio' ? (question.options ?? []) : (question.values ?? []).map((value) => ({ value, label: value }));
  const inputs = values.map((choice, i) => {
    const input = h('input', { type: kind, id: i === 0 ? built.id : `${built.id}-${i}`, name: built.id, value: choice.value });
    input.addEventListener('change', () => events.changed());
    built.add(h('div', { class: 'choice' }, input, h('label', { for: input.id }, choice.label)));
    return input;
  });
  built.controls.push(...inputs);
  return field(question, built, {
    value: () =>
      inputs
        .filter((input) => input.checked)
        .map((input) => input.value)
        .join(', '),
    set(value) {
      const chosen = kind === 'radio' ? [value] : value.split(',').map((part) => part.trim());
      for (const input of inputs) input.checked = chosen.includes(input.value);
    },
  });
}

function readDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable')));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

function image(question: FillQuestion, events: FieldEvents): Field {
  const built = frame(question, false);
  let answer = '';
  const input = h('input', { id: built.id, type: 'file', accept: 'image/png,image/jpeg' });
  const note = h('p', { class: 'hint' }, tf('imageChoose'));
  const shown = h('img', { class: 'image-answer', alt: tf('imageChosen'), hidden: true });
  const remove = h('button', { type: 'button', class: 'secondary small', hidden: true }, tf('imageRemove'));
  built.controls.push(input);
  built.add(note, input, shown, remove);
  const show = (value: string) => {
    answer = value;
    shown.hidden = value === '';
    remove.hidden = value === '';
    if (value === '') {
      shown.removeAttribute('src');
      input.value = '';
    } else shown.src = value;
  };
  const result = field(question, built, { value: () => answer, set: show });
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    const uri = ['image/png', 'image/jpeg'].includes(file.type) ? await readDataUri(file).catch(() => '') : '';
    if (uri === '' || uri.length > MAX_IMAGE_LENGTH) {
      show('');
      result.showError(tf('errImage'));
    } else {
      show(uri);
      result.showError(undefined);
    }
    events.changed();
  });
  remove.addEventListener('click', () => {
    show('');
    events.changed();
    input.focus();
  });
  return result;
}

/**
 * The signature the person makes in a form that signs now. It is no answer (/document/save
 * refuses one): it waits on the device for their signing page, which applies it with their consent
 * once their identity is checked.
 */
function signatureField(question: FillQuestion, input: SignatureInput): Field {
  const built = frame(question, true);
  built.add(h('p', { class: 'hint' }, tf('signatureInForm')), input.element);
  built.controls.push(...input.element.querySelectorAll<HTMLElement>('canvas, input'));
  return field(question, built, { value: () => '', set: () => undefined });
}

/**
 * A signature is never an answer (/document/save refuses one: the signer signs, with their
 * consent and identity validations, on their signing page); the question says where it happens.
 */
function signatureNote(question: FillQuestion, events: FieldEvents): Field {
  const id = `q-${question.name}`;
  const element = h(
    'div',
    { class: 'field signature-note', 'data-question': question.name },
    h('p', { class: 'field-title', id }, question.description),
    h('p', { class: 'hint' }, events.signNow ? tf('signatureNow') : tf('signatureInvited')),
  );
  return { question, element, value: () => '', set: () => undefined, focus: () => undefined, showError: () => undefined, lock: () => undefined };
}

function isPairs(value: unknown): value is { key: string; value: string }[] {
  return (
    Array.isArray(value) &&
    value.every(
      (pair: unknown) =>
        typeof pair === 'object' && pair !== null && 'key' in pair && 'value' in pair && typeof pair.key === 'string' && typeof pair.value === 'string',
    )
  );
}

/**
 * A `request` question (docs/real-service.md §2.6): the answer is sent from the browser to the
 * template's https endpoint (the page's policy allows that origin only), which answers other
 * questions' values as [{key, value}]; any other answer is "invalid code".
 */
function request(question: FillQuestion, events: FieldEvents): Field {
  const built = frame(question, false);
  const input = h('input', { id: built.id, type: 'text', autocomplete: 'off', maxlength: question.maxlength });
  const button = h('button', { type: 'button', class: 'secondary' }, tf('requestValidate'));
  const status = h('p', { class: 'status', role: 'status' });
  input.addEventListener('input', () => events.changed());
  built.controls.push(input);
  built.add(h('div', { class: 'request-row' }, input, button), status);
  const result = field(question, built, { value: () => input.value.trim(), set: (value) => (input.value = value) });
  button.addEventListener('click', async () => {
    status.textContent = '';
    const endpoint = question.endpoint;
    if (endpoint === undefined || input.value.trim() === '') return result.showError(tf('errRequired'));
    button.disabled = true;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: question.name, value: input.value.trim() }),
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
      const pairs: unknown = response.ok ? await response.json() : undefined;
      if (!isPairs(pairs)) throw new Error('not an answer');
      result.showError(undefined);
      events.prefill(pairs);
      status.textContent = tf('requestDone');
    } catch {
      result.showError(tf('requestFailed'));
    } finally {
      button.disabled = false;
    }
  });
  return result;
}

/** The input people expect for the question's type. */
export function fieldFor(question: FillQuestion, events: FieldEvents): Field {
  switch (question.type) {
    case 'text':
      return textInput(question, events, {});
    case 'name':
      return textInput(question, events, { autocomplete: 'name' });
    case 'email':
      return textInput(question, events, { type: 'email', autocomplete: 'email', inputmode: 'email' });
    case 'phone':
      return phone(question, events);
    case 'number':
    case 'currency':
      return textInput(question, events, { inputmode: 'decimal', autocomplete: 'off' });
    case 'date':
      return textInput(question, events, { type: 'date' });
    case 'nit':
      return textInput(question, events, { inputmode: 'numeric', autocomplete: 'off' });
    case 'identification':
      return identification(question, events);
    case 'department': {
      const list = DEPARTMENTS[(question.country ?? 'CO').toUpperCase()];
      return list
        ? selectField(
            question,
            events,
            list.map((name) => ({ value: name, label: name })),
          )
        : textInput(question, events, {});
    }
    case 'select':
      return selectField(question, events, question.options ?? []);
    case 'searchlist':
      return searchList(question, events);
    case 'clausula':
      return choices(question, events, 'radio');
    case 'check':
      return choices(question, events, 'checkbox');
    case 'image':
      return image(question, events);
    case 'signature':
      return events.signature?.question === question.name ? signatureField(question, events.signature.input) : signatureNote(question, events);
    case 'request':
      return request(question, events);
  }
}
