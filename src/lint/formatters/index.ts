import { json } from './json.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { Formatter } from './types.js';

export const FORMATTERS: Record<string, Formatter> = { stylish, json, sarif };
export type { FormatContext, Formatter } from './types.js';
