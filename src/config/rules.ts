import { isObject } from './sections.js';
import type { ConfigurableRule } from './validate.js';

/**
 * The lint rules whose ids, names, tags and options a config file may name: loaded only when one
 * of the files has a `rules` key, since loading every rule costs a hook about 20 ms.
 */
export async function rulesNamedIn(values: readonly unknown[]): Promise<readonly ConfigurableRule[]> {
  if (!values.some((value) => isObject(value) && 'rules' in value)) return [];
  return (await import('../lint/rules/index.js')).RULES;
}
