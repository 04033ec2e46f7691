import { type DefaultTreeAdapterTypes, parse, serialize } from 'parse5';
import type { FillPreview } from '../../people/contract.js';

type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

/** The attribute that marks, in the preview's HTML, the element an inline style of `inline` belongs to (its index). */
export const PREVIEW_STYLE_ATTRIBUTE = 'data-preview-style';

function isElement(node: DefaultTreeAdapterTypes.ChildNode): node is Element {
  return 'tagName' in node;
}

function textOf(element: Element): string {
  return element.childNodes.map((node) => ('value' in node && node.nodeName === '#text' ? node.value : '')).join('');
}

/** Takes the styles out of `parent`'s elements, in document order: `<style>` elements removed, `style` attributes replaced by their index. */
function takeStyles(parent: ParentNode, out: { sheets: string[]; inline: string[] }): void {
  parent.childNodes = parent.childNodes.filter((node) => {
    if (!isElement(node)) return true;
    if (node.tagName === 'style') {
      out.sheets.push(textOf(node));
      return false;
    }
    const style = node.attrs.find((attr) => attr.name === 'style' && !attr.prefix);
    if (style) {
      node.attrs = [...node.attrs.filter((attr) => attr !== style), { name: PREVIEW_STYLE_ATTRIBUTE, value: String(out.inline.length) }];
      out.inline.push(style.value);
    }
    takeStyles(node, out);
    if (node.tagName === 'template' && 'content' in node) takeStyles(node.content, out);
    return true;
  });
}

/**
 * The Mask HTML as the form's live preview takes it: without its styles in markup, and the styles
 * beside it. The pages' policy allows no inline style, and a browser that parses markup holding
 * one reports a violation even where nothing is rendered (DOMParser): the page applies these
 * through the CSSOM instead, which the policy allows (src/people/web/fill/preview.ts).
 */
export function previewSource(html: string): FillPreview & { html: string } {
  const document = parse(html);
  const styles = { sheets: [] as string[], inline: [] as string[] };
  takeStyles(document, styles);
  return { html: serialize(document), ...styles };
}
