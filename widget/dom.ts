/**
 * The only way the widget builds DOM: elements, attributes and text nodes. Data never passes through
 * an HTML parser (no innerHTML), so a hostile string in a response stays text.
 */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, value);
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(parent, child);
    else if (typeof child === 'string') parent.appendChild(document.createTextNode(child));
    else if (child) parent.appendChild(child);
  }
}

let counter = 0;
/** Ids unique within the page, for aria-labelledby / aria-describedby links inside one shadow root. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `hale-${prefix}-${counter}`;
}
