/**
 * Edits to JSON text that touch only the bytes they must: a member or item
 * is added after its last sibling, in the siblings' indentation, and removing
 * it deletes exactly those bytes again. Everything else (key order, odd
 * indentation, CRLF, a missing final newline) stays as the user wrote it, so
 * install followed by uninstall gives back the same file, byte for byte.
 * Pure: text in, text out.
 */

export type JsonNode =
  | { kind: 'object'; start: number; end: number; members: { key: string; start: number; value: JsonNode }[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'scalar'; start: number; end: number };

/** The syntax tree of `text` with offsets; the caller has checked it with JSON.parse. */
export function parseJsonText(text: string): JsonNode {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const skip = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  };
  const readString = (): string => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (): JsonNode => {
    skip();
    const start = at;
    if (text[at] === '{') {
      at++;
      const members: { key: string; start: number; value: JsonNode }[] = [];
      for (skip(); text[at] !== '}'; skip()) {
        if (text[at] === ',') {
          at++;
          skip();
        }
        const memberStart = at;
        const key = readString();
        skip();
        at++; // :
        members.push({ key, start: memberStart, value: readValue() });
      }
      return { kind: 'object', start, end: ++at, members };
    }
    if (text[at] === '[') {
      at++;
      const items: JsonNode[] = [];
      for (skip(); text[at] !== ']'; skip()) {
        if (text[at] === ',') at++;
        items.push(readValue());
      }
      return { kind: 'array', start, end: ++at, items };
    }
    if (text[at] === '"') {
      readString();
      return { kind: 'scalar', start, end: at };
    }
    while (at < text.length && !' \t\r\n,]}'.includes(text[at]!)) at++;
    return { kind: 'scalar', start, end: at };
  };
  return readValue();
}

export interface JsonStyle {
  /** One level of indentation, as the file uses it (two spaces when it shows none). */
  unit: string;
  eol: string;
}

export function jsonStyle(text: string): JsonStyle {
  const indented = /\n([ \t]+)["{[\]}]/.exec(text);
  return { unit: indented?.[1] ?? '  ', eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `value` as JSON at `indent`; on one line when it joins siblings written on one line. */
function render(value: unknown, indent: string | undefined, style: JsonStyle): string {
  if (indent === undefined) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + indent);
}

type Container = Extract<JsonNode, { kind: 'object' | 'array' }>;

/** Adds `entry` (a `"key": value` or an item) as the last element of `node`. */
function appendElement(text: string, node: Container, entry: (indent: string | undefined) => string, style: JsonStyle): string {
  const elements = node.kind === 'object' ? node.members.map((m) => ({ start: m.start, end: m.value.end })) : node.items;
  const last = elements.at(-1);
  if (!last) {
    const indent = lineIndent(text, node.start);
    const inner = indent + style.unit;
    return `${text.slice(0, node.start + 1)}${style.eol}${inner}${entry(inner)}${style.eol}${indent}${text.slice(node.end - 1)}`;
  }
  const ownLine = /\n[ \t]*$/.test(text.slice(0, last.start));
  const indent = lineIndent(text, last.start);
  const separator = ownLine ? `,${style.eol}${indent}` : ', ';
  return text.slice(0, last.end) + separator + entry(ownLine ? indent : undefined) + text.slice(last.end);
}

export function appendMember(text: string, node: JsonNode, key: string, value: unknown, style: JsonStyle): string {
  if (node.kind !== 'object') throw new Error('not an object');
  return appendElement(text, node, (indent) => `${JSON.stringify(key)}: ${render(value, indent, style)}`, style);
}

export function appendItem(text: string, node: JsonNode, value: unknown, style: JsonStyle): string {
  if (node.kind !== 'array') throw new Error('not an array');
  return appendElement(text, node, (indent) => render(value, indent, style), style);
}

/** Removes element `index` of `node`: the inverse of appending it. */
export function removeElement(text: string, node: JsonNode, index: number): string {
  if (node.kind === 'scalar') throw new Error('not a container');
  const elements = node.kind === 'object' ? node.members.map((m) => ({ start: m.start, end: m.value.end })) : node.items;
  const element = elements[index]!;
  if (elements.length === 1) return text.slice(0, node.start + 1) + text.slice(node.end - 1);
  if (index === elements.length - 1) return text.slice(0, elements[index - 1]!.end) + text.slice(element.end);
  return text.slice(0, element.start) + text.slice(elements[index + 1]!.start);
}

export function memberOf(node: JsonNode, key: string): { index: number; value: JsonNode } | undefined {
  if (node.kind !== 'object') return undefined;
  const index = node.members.findIndex((m) => m.key === key);
  return index < 0 ? undefined : { index, value: node.members[index]!.value };
}
