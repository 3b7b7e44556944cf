// `npm install` / `npm ci` (the prepare script) sets up this repository's own
// git hooks with husky (.husky/pre-commit). It never fails an install: in CI,
// outside a git checkout, or without husky (a production install) it only
// says why it skipped.
if (process.env.CI) {
  console.log('husky: CI, git hooks not installed');
} else {
  try {
    const { default: husky } = await import('husky');
    const message = husky();
    if (message) console.log(`husky: ${message}`);
  } catch (error) {
    console.log(`husky: git hooks not installed (${error.code ?? error.message})`);
  }
}
