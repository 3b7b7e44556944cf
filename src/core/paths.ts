import path from 'node:path';

/** Longest sanitized project name Claude Code keeps before hashing the rest. */
const MAX_SANITIZED_LENGTH = 200;

/**
 * Project directory name as Claude Code derives it: every character outside
 * [A-Za-z0-9] becomes `-`; past 200 characters, the first 200 plus `-` and a
 * base-36 hash of the original path keep long names unique.
 */
export function sanitizeProjectPath(projectPath: string): string {
  const sanitized = projectPath.replace(/[^a-zA-Z0-9]/g, '-');
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${Math.abs(stringHash(projectPath)).toString(36)}`;
}

/** 32-bit string hash (h * 31 + c), the one Claude Code uses for long names. */
function stringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Validate a memory directory given by a user or a setting. Returns the
 * normalized absolute path (NFC, no trailing separator) or a reason.
 */
export function validateMemoryPath(input: string, options: { expandTilde: boolean; home: string }): { ok: true; path: string } | { ok: false; reason: string } {
  let candidate = input;
  if (candidate.includes('\0')) return { ok: false, reason: 'contains a NUL byte' };
  if (options.expandTilde && /^~[/\\]/.test(candidate)) {
    const rest = path.normalize(candidate.slice(2) || '.');
    if (rest === '.' || rest === '..' || rest.startsWith(`..${path.sep}`) || rest.startsWith('../')) {
      return { ok: false, reason: 'is the home directory or outside it' };
    }
    candidate = path.join(options.home, candidate.slice(2));
  }
  if (candidate.startsWith('\\\\') || candidate.startsWith('//')) return { ok: false, reason: 'is a UNC path' };
  if (!path.isAbsolute(candidate)) return { ok: false, reason: 'is not an absolute path' };
  const normalized = path.normalize(candidate).replace(/[/\\]+$/, '');
  if (normalized.length < 3 || /^[A-Za-z]:$/.test(normalized)) {
    return { ok: false, reason: 'is a file-system root or too short' };
  }
  return { ok: true, path: normalized.normalize('NFC') };
}

/**
 * `user_role.md`-style file name: type prefix and a short slug of the name. `anyScript` keeps
 * letters of every script readable (`project_部署流程.md`, as Claude Code names files); otherwise
 * the slug is ASCII.
 */
export function topicFileName(type: string, name: string, options: SlugOptions = {}): string {
  const slug = slugify(name, options);
  // "User preferences" as a user memory is user_preferences.md, not user_user_preferences.md.
  return slug.startsWith(`${type}_`) ? `${slug}.md` : `${type}_${slug}.md`;
}

/** The first of `type_slug.md`, `type_slug_2.md`, … that `isTaken` does not claim. */
export function freeTopicFileName(type: string, name: string, isTaken: (file: string) => boolean, options: SlugOptions = {}): string {
  const base = topicFileName(type, name, options).replace(/\.md$/, '');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base}.md` : `${base}_${n}.md`;
    if (!isTaken(candidate)) return candidate;
  }
}

export interface SlugOptions {
  anyScript?: boolean;
}

export function slugify(text: string, options: SlugOptions = {}): string {
  const separators = options.anyScript ? /[^\p{L}\p{M}\p{N}]+/gu : /[^a-z0-9]+/g;
  const slug = [
    ...text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f\ufe00-\ufe0f\u200d]/g, '')
      .normalize('NFC')
      .toLowerCase()
      .replace(separators, '_')
      .replace(/^_+|_+$/g, ''),
  ]
    .slice(0, 60)
    .join('')
    .replace(/_+$/, '');
  if (slug) return slug;
  // Names with no letters the slug keeps (e.g. Chinese in an ASCII slug) get a stable hash instead.
  return `memory_${Math.abs(stringHash(text)).toString(36)}`;
}

/** `file` (absolute) as the user would type it from `from`: relative when inside it, else as it is. */
export function displayPath(file: string, from: string): string {
  const relative = path.relative(from, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
