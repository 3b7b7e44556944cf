// npm run bench [-- name…]: run the named benchmarks (default all) and print a summary.
import startup from './startup.bench.js';
import scan from './scan.bench.js';
import lint from './lint.bench.js';
import lintFix from './lint-fix.bench.js';
import refactor from './refactor.bench.js';
import recall from './recall.bench.js';
import recallIndex from './recall-index.bench.js';
import extractParse from './extract-parse.bench.js';
import sync from './sync.bench.js';
import extractHook from './extract-hook.bench.js';
import docsHook from './docs-hook.bench.js';
import hooks from './hooks.bench.js';
import dream from './dream.bench.js';
import hookInstructions from './hook-instructions.bench.js';
import agentView from './agent-view.bench.js';
import startupTricks from './startup-tricks.bench.js';
import secrets from './secrets.bench.js';
import doctor from './doctor.bench.js';
import secretsDev from './secrets/dev.js';
import secretsHeldout2 from './secrets/heldout2.js';
import secretsPeers from './secrets/peers.js';
import guard from './guard.bench.js';
import session from './session.bench.js';

const all = {
  startup,
  scan,
  lint,
  lintFix,
  refactor,
  recall,
  'recall-index': recallIndex,
  'extract-parse': extractParse,
  'extract-hook': extractHook,
  'docs-hook': docsHook,
  sync,
  hooks,
  dream,
  'hook-instructions': hookInstructions,
  'agent-view': agentView,
  'startup-tricks': startupTricks,
  secrets,
  doctor,
  'secrets-dev': secretsDev,
  'secrets-heldout2': secretsHeldout2,
  'secrets-peers': secretsPeers,
  guard,
  session,
};
const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(all)) {
  if (!all[name]) {
    console.error(`unknown benchmark ${name}; choose from ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
  await all[name]();
}
