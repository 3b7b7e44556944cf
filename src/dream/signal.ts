import { findSecrets } from '../core/secrets.js';
import { tokenSet } from '../core/similarity.js';
import { findDurableStatement } from '../core/durable-statements.js';
import { readTranscript } from '../claude-code/read-transcript.js';

/**
 * Gather recent signal: what the user asked, in the sessions since the last
 * consolidation, to be remembered ("remember that…", "记住…", "from now on…"),
 * judged by extract's own detector, and that no memory holds yet. Dream reports these (saving them is
 * `memdir extract`'s job, which validates and records their origin); it does
 * not write them.
 */
export interface UnsavedRequest {
  transcript: string;
  uuid: string;
  text: string;
}

/** Share of a request's terms some memory must hold for it to count as saved. */
const SAVED_SHARE = 0.6;

export async function unsavedRequests(transcripts: string[], memoryTexts: Iterable<string>): Promise<UnsavedRequest[]> {
  const memories = [...memoryTexts].map(tokenSet);
  const unsaved: UnsavedRequest[] = [];
  for (const file of transcripts) {
    let transcript: Awaited<ReturnType<typeof readTranscript>>;
    try {
      transcript = await readTranscript(file);
    } catch {
      continue; // unreadable now (deleted, permissions): nothing to gather from it
    }
    for (const message of transcript.messages) {
      if (!message.isHumanPrompt) continue;
      const text = findDurableStatement(message.text)?.statement;
      // Extract refuses a request holding a secret: it is not a lost one, and listing it would print the secret.
      if (!text || findSecrets(text).length > 0) continue;
      const terms = tokenSet(text);
      const saved = memories.some((memory) => {
        let shared = 0;
        for (const term of terms) if (memory.has(term)) shared++;
        return terms.size > 0 && shared / terms.size >= SAVED_SHARE;
      });
      if (!saved) unsaved.push({ transcript: file, uuid: message.uuid, text });
    }
  }
  return unsaved;
}
