// A generated memory corpus with paraphrased queries (never the description's own words in order),
// for the recall evaluation. Each memory has exactly one relevant file per query.
const services = [
  ['billing', 'invoices and payment runs'],
  ['search', 'the product search index'],
  ['auth', 'login and session tokens'],
  ['notifications', 'email and push messages'],
  ['mobile app', 'the iOS and Android clients'],
  ['web frontend', 'the React storefront'],
  ['data pipeline', 'nightly ETL into the warehouse'],
  ['payments gateway', 'card processing with the acquirer'],
  ['inventory', 'stock levels per warehouse'],
  ['recommendations', 'the ranking model for product suggestions'],
];

const kinds = [
  {
    type: 'project',
    file: 'release',
    name: (s) => `${s} release process`,
    description: (s) => `How ${s} changes reach production: tagged builds go through the GitHub Actions pipeline on Tuesdays`,
    body: (s, what) =>
      `Releases of ${s} (${what}) are cut from main every Tuesday. Tag the commit, the Actions pipeline builds, then a human approves the production step.\n\n**Why:** one release train keeps rollbacks simple.\n**How to apply:** do not hot-patch production; wait for the train or ask for an exception.`,
    queries: (s) => [`how do I ship a new version of ${s}?`, `what's the rollout procedure for ${s} to prod`, `can I deploy ${s} on a friday`],
  },
  {
    type: 'reference',
    file: 'dashboard',
    name: (s) => `${s} dashboard`,
    description: (s) => `Grafana board showing latency, error rate and saturation for ${s}`,
    body: (s) => `The Grafana board "${s.replace(/ /g, '-')}-golden-signals" has p50/p99 latency, error rate and saturation. On-call checks it first during incidents.`,
    queries: (s) => [`where can I see if ${s} is slow right now?`, `${s} metrics graphs`, `which board do I open when ${s} pages me`],
  },
  {
    type: 'feedback',
    file: 'testing',
    name: (s) => `${s} integration tests`,
    description: (s) => `Integration tests for ${s} must hit a real database, never mocks`,
    body: (s) =>
      `Never mock the database in ${s} integration tests; use the docker-compose Postgres.\n\n**Why:** a mocked suite passed while the real migration failed in production.\n**How to apply:** any test under test/integration for ${s}.`,
    queries: (s) => [`can I stub out postgres in the ${s} test suite?`, `fake the db for ${s} specs to make them faster`, `setting up fixtures for ${s} end-to-end checks against storage`],
  },
  {
    type: 'project',
    file: 'owner',
    name: (s) => `${s} ownership`,
    description: (s) => `Who owns ${s} and who approves schema changes for it`,
    body: (s) => `${s} belongs to the platform team; schema changes need a review from the team lead before merge.`,
    queries: (s) => [`who should review a migration touching ${s}?`, `which team is responsible for ${s}`, `I need sign-off to alter ${s} tables`],
  },
  {
    type: 'feedback',
    file: 'gotcha',
    name: (s) => `${s} cache gotcha`,
    description: (s) => `Clearing the ${s} cache in production causes a thundering herd; warm it gradually`,
    body: (s) =>
      `Do not flush the whole ${s} cache at once. The cold start overloads the primary database.\n\n**Why:** an outage last quarter started this way.\n**How to apply:** use the gradual warm-up script instead.`,
    queries: (s) => [`is it safe to purge everything cached for ${s}?`, `${s} redis flush in prod`, `why did ${s} fall over after invalidating stored results`],
  },
  {
    type: 'project',
    file: 'deadline',
    name: (s) => `${s} migration deadline`,
    description: (s) => `${s} must move off the legacy cluster before 2026-03-31; the old cluster is switched off that day`,
    body: (s) =>
      `The legacy cluster hosting ${s} is decommissioned on 2026-03-31. Anything not moved by then stops working.\n\n**Why:** the hosting contract ends.\n**How to apply:** prioritise the move over new features for ${s}.`,
    queries: (s) => [`when does ${s} have to leave the old servers?`, `is there a cutoff date for moving ${s}`, `can the ${s} move wait until next quarter?`],
  },
  {
    type: 'reference',
    file: 'tracker',
    name: (s) => `${s} bug tracker`,
    description: (s) => `Bugs for ${s} are filed in the Linear project named after it, not in GitHub issues`,
    body: (s) => `File ${s} defects in Linear, project "${s.toUpperCase()}". GitHub issues on the repo are not triaged.`,
    queries: (s) => [`where do I report a defect in ${s}?`, `open a ticket for a ${s} problem`, `does anyone read github issues for ${s}`],
  },
  {
    type: 'feedback',
    file: 'style',
    name: (s) => `${s} code review style`,
    description: (s) => `Reviews of ${s} changes want small PRs under 300 lines with a test per behaviour change`,
    body: (s) =>
      `Keep ${s} pull requests under 300 changed lines and include a test for each behaviour change.\n\n**Why:** large reviews in ${s} got rubber-stamped and broke production twice.\n**How to apply:** split big changes into stacked PRs.`,
    queries: (s) => [`how big can my ${s} pull request be?`, `splitting a large ${s} change for reviewers`, `what do reviewers expect before approving ${s} diffs`],
  },
];

/** { files: {path: content}, queries: [{query, relevant: [path]}] } */
export function generatedCorpus() {
  const files = {};
  const queries = [];
  for (const [service, what] of services) {
    for (const kind of kinds) {
      const path = `${kind.type}_${service.replace(/\W+/g, '_')}_${kind.file}.md`;
      files[path] = `---\nname: ${kind.name(service)}\ndescription: ${kind.description(service)}\ntype: ${kind.type}\n---\n\n${kind.body(service, what)}\n`;
      for (const query of kind.queries(service)) queries.push({ query, relevant: [path] });
    }
  }
  return { files, queries };
}
