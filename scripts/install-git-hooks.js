// `npm run setup` sets up this repository's own git hooks with husky
// (.husky/pre-commit). It is no install script, so installing the published
// package runs nothing. It never fails: in CI, outside a git checkout, or
// without husky it only says why it skipped.
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
