import { configSection } from '../config/find.js';
import { chooseEngine, type EngineName } from '../llm/model.js';

export interface RecallFlags {
  limit?: number | undefined;
  engine?: EngineName | undefined;
  model?: string | undefined;
  semantic?: boolean | undefined;
}

/** Flags win; then the `recall` section of memdir.config.json; then the defaults. */
export function recallSettings(flags: RecallFlags, dir: string, cwd: string | undefined, how: { trustProjectSettings: boolean; warn: (message: string) => void }) {
  const section = configSection('recall', { dir, cwd, trustProjectSettings: how.trustProjectSettings || undefined }, how.warn);
  return {
    limit: flags.limit ?? section.limit,
    engine: chooseEngine(flags.engine ?? section.engine),
    model: flags.model ?? section.model,
    semantic: flags.semantic ?? section.semantic,
  };
}
