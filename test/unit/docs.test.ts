import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const ARCHITECTURE = 'docs/architecture.md';

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/** The lines of a Markdown file outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Relative link targets of a Markdown file, code spans and fences left out. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(markdown)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

const DOCS = ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...filesUnder('docs', /\.md$/)];

describe('documentation links', () => {
  test.each(DOCS)('every relative link in %s resolves', (file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(read(file))) {
      const [target = '', anchor] = link.split('#');
      const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      if (!fs.existsSync(path.join(ROOT, resolved))) {
        broken.push(`${link} (no file ${resolved})`);
      } else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) {
        broken.push(`${link} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('GitHub anchors are computed as GitHub does', () => {
    expect([...anchors('# A `b` c\n## Transactions, journal and locks\n## Layers\n## Layers\n```\n# not a heading\n```')]).toEqual(['a-b-c', 'transactions-journal-and-locks', 'layers', 'layers-1']);
  });
});

describe('README', () => {
  const readme = read('README.md');

  test('stays short', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  test('opens with Install, then Quick start', () => {
    const sections = proseLines(readme).filter((line) => /^## /.test(line));
    expect(sections.slice(0, 2)).toEqual(['## Install', '## Quick start']);
  });
});

const HISTORY = /\bstop \d+\b|\bround \d+\b|\bthis round\b|\bround before\b|\bearlier today\b|\bDESIGN §/i;
const SOURCES = filesUnder('src', /\.ts$/);
/** Everything whose comments explain the code: src/, bin/, scripts/ and the build configuration. */
const CODE = [...SOURCES, ...filesUnder('bin', /\.c?js$/), ...filesUnder('scripts', /\.[cm]?js$/), 'tsup.config.ts'];
/** A comment line (or the comment after code) stating a duration: such figures live in bench/results/. */
const TIMING_COMMENT = /(\/\/|\/\*|^\s*\*).*\d\s?(ms|µs|ns)\b/;

describe('history lives in bench/, not in the README or the code', () => {
  test('README', () => {
    expect(
      read('README.md')
        .split('\n')
        .filter((line) => HISTORY.test(line)),
    ).toEqual([]);
  });

  test('src, bin, scripts and tsup.config.ts', () => {
    const found = CODE.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (HISTORY.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  test('no timing figures in code comments: they live in bench/results/, and the comment names the bench', () => {
    const found = CODE.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (TIMING_COMMENT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

describe('references from the code to the design', () => {
  test(`every ${ARCHITECTURE} reference in src/ names a section that exists`, () => {
    const sections = anchors(read(ARCHITECTURE));
    const missing: string[] = [];
    let references = 0;
    for (const file of SOURCES) {
      for (const match of read(file).matchAll(/architecture\.md(#[\w-]+|\s*§\s*[\d.]+)?/g)) {
        references++;
        const anchor = match[1];
        if (anchor === undefined || !anchor.startsWith('#') || !sections.has(anchor.slice(1))) {
          missing.push(`${file}: ${match[0]}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(references).toBeGreaterThan(0);
  });

  test('no reference to DESIGN, a file outside the repository', () => {
    const found = SOURCES.filter((file) => /\bDESIGN\b/.test(read(file)));
    expect(found).toEqual([]);
  });
});
