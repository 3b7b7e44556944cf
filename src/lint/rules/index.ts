import type { Rule } from '../types.js';
import { indexMissing } from './MEM001-index-missing.js';
import { indexMaxLines } from './MEM002-index-max-lines.js';
import { indexMaxBytes } from './MEM003-index-max-bytes.js';
import { indexLineLength } from './MEM004-index-line-length.js';
import { indexPointersOnly } from './MEM005-index-pointers-only.js';
import { deadPointer } from './MEM006-dead-pointer.js';
import { pointerEscapes } from './MEM007-pointer-escapes.js';
import { unindexedTopic } from './MEM008-unindexed-topic.js';
import { duplicatePointer } from './MEM009-duplicate-pointer.js';
import { frontmatterInvalid } from './MEM010-frontmatter-invalid.js';
import { frontmatterUnquoted } from './MEM011-frontmatter-unquoted.js';
import { missingField } from './MEM012-missing-field.js';
import { invalidType } from './MEM013-invalid-type.js';
import { vagueDescription } from './MEM014-vague-description.js';
import { whyHow } from './MEM015-why-how.js';
import { relativeDate } from './MEM016-relative-date.js';
import { topicMaxLines } from './MEM017-topic-max-lines.js';
import { nearDuplicate } from './MEM018-near-duplicate.js';
import { derivableContent } from './MEM019-derivable-content.js';
import { secret } from './MEM020-secret.js';
import { duplicateFrontmatter } from './MEM021-duplicate-frontmatter.js';
import { indexMismatch } from './MEM022-index-mismatch.js';
import { unreadableFile } from './MEM023-unreadable-file.js';
import { personalData } from './MEM024-personal-data.js';
import { staleMarker } from './MEM025-stale-marker.js';
import { poisoning } from './MEM026-poisoning.js';

/** Every rule, in id order. Ids are permanent: a retired rule keeps its number unused. */
export const RULES: readonly Rule[] = [
  indexMissing,
  indexMaxLines,
  indexMaxBytes,
  indexLineLength,
  indexPointersOnly,
  deadPointer,
  pointerEscapes,
  unindexedTopic,
  duplicatePointer,
  frontmatterInvalid,
  frontmatterUnquoted,
  missingField,
  invalidType,
  vagueDescription,
  whyHow,
  relativeDate,
  topicMaxLines,
  nearDuplicate,
  derivableContent,
  secret,
  duplicateFrontmatter,
  indexMismatch,
  unreadableFile,
  personalData,
  staleMarker,
  poisoning,
];
