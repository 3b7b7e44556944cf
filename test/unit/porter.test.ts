import fs from 'node:fs';
import path from 'node:path';
import { stemmer } from 'stemmer';
import { describe, expect, test } from 'vitest';
import { porterStem } from '../../src/core/porter.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures');

/** Every word of the real fixtures (memories, transcripts), with its pieces between hyphens, underscores and apostrophes. */
function fixtureWords(): Set<string> {
  const words = new Set<string>();
  const files = fs.readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(md|jsonl)$/.test(file));
  for (const file of files) {
    for (const word of fs
      .readFileSync(path.join(FIXTURES, file), 'utf8')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}'_-]+/gu) ?? []) {
      words.add(word);
      for (const piece of word.split(/[-_']/)) if (piece) words.add(piece);
    }
  }
  return words;
}

/** Every suffix a Porter step looks at, and the letters its conditions turn on. */
const SUFFIXES = [
  's',
  'es',
  'ies',
  'sses',
  'ed',
  'eed',
  'ing',
  'y',
  'ational',
  'tional',
  'enci',
  'anci',
  'izer',
  'bli',
  'alli',
  'entli',
  'eli',
  'ousli',
  'ization',
  'ation',
  'ator',
  'alism',
  'iveness',
  'fulness',
  'ousness',
  'aliti',
  'iviti',
  'biliti',
  'logi',
  'icate',
  'ative',
  'alize',
  'iciti',
  'ical',
  'ful',
  'ness',
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'sion',
  'tion',
  'e',
  'll',
  'at',
  'bl',
  'iz',
];
const LETTERS = 'aeiouybcdlstwxzgnmr';

/** `count` strings of 1–11 of LETTERS, the same every run. */
function randomWords(count: number): string[] {
  let seed = 1;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 11) }, () => LETTERS[Math.floor(next() * LETTERS.length)]).join(''));
}

describe("porterStem gives the stemmer package's stems", () => {
  test("the paper's examples", () => {
    const examples = {
      caresses: 'caress',
      ponies: 'poni',
      cats: 'cat',
      agreed: 'agre',
      plastered: 'plaster',
      motoring: 'motor',
      sing: 'sing',
      hopping: 'hop',
      filing: 'file',
      happy: 'happi',
      relational: 'relat',
      generalization: 'gener',
      yielding: 'yield',
      yy: 'yy',
    };
    expect(Object.fromEntries(Object.keys(examples).map((word) => [word, porterStem(word)]))).toEqual(examples);
  });

  test('every word of the real fixtures, and each of their short words with every suffix a step looks at', () => {
    const words = fixtureWords();
    expect(words.size).toBeGreaterThan(20_000);
    const roots = [...words].filter((word) => word.length <= 6).slice(0, 3_000);
    for (const root of roots) for (const suffix of SUFFIXES) words.add(root + suffix);
    const differ = [...words].filter((word) => porterStem(word) !== stemmer(word));
    expect(differ).toEqual([]);
  });

  test('300,000 strings of the letters the rules turn on', () => {
    const differ = randomWords(300_000).filter((word) => porterStem(word) !== stemmer(word));
    expect(differ).toEqual([]);
  });
});
