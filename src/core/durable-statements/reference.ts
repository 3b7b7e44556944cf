/** Family "reference": where information lives outside the code ("the runbook lives in Confluence"). Pure. */

// Where information lives outside the code: "the runbook lives in Confluence under …".
const TOOL = String.raw`(?:#[\w-]+|https?:\/\/\S+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|dev|net|org|app)\b|(?:Confluence|Notion|Jira|Linear|Slack|Teams|Discord|Grafana|Datadog|Sentry|PagerDuty|Opsgenie|Google (?:Drive|Docs|Sheets)|Figma|Miro|Asana|Trello|Airtable|ClickUp|Kibana|Splunk|CloudWatch|New Relic|Honeycomb|Prometheus|1Password|Bitwarden|LastPass|Vault|LaunchDarkly|Postman|Swagger|Storybook|Zendesk|Intercom|SharePoint|OneDrive|Dropbox|the wiki|our wiki)\b|(?:an? |our )?(?:[\w-]+ )?S3 bucket\b|(?:an? |our )?(?:separate|different|other|another|shared) (?:[\w-]+ )?(?:repo|repository|drive|workspace|bucket)\b)`;
// A bare "is in Figma" needs a subject that is information ("the specs are in Figma", not "it is centered in Figma").
const ARTIFACT = String.raw`\b(?:docs?|documentation|designs?|specs?|mockups?|runbooks?|tickets?|bugs|issues|tasks|notes|boards?|dashboards?|credentials|secrets|passwords|keys|roadmap|backlog|logs|metrics|alerts|requirements|wiki|playbooks?|minutes|diagrams?|contracts?)\b`;
export const REFERENCE = [
  new RegExp(
    String.raw`(?:\b(?:lives?|is kept|are kept|(?:is|are) (?:tracked|documented|filed|logged|managed|posted|stored)|can be found)|${ARTIFACT}[^.?!]{0,30}?\b(?:is|are))\s+(?:in|on|at|under)\s+(?:[^.?!]{0,40}?\s(?:in|on|at|under)\s+)?(?:the\s+)?${TOOL}`,
    'i',
  ),
  /\b(?:url|link|dashboard|board|docs?|wiki|runbook|channel|spreadsheet|tracker)\b[^.?!]{0,30}\bis\s+(?:at\s+)?(?:https?:\/\/|#[\w-])|\b(?:dashboard|runbook|wiki|board|channel|tracker|spreadsheet|docs)\b[^.?!]{0,40}\b(?:is|are|lives|live)\s+(?:at|in|on|under)\b|\b(?:go|goes|are posted|is posted|get posted)\s+(?:to|in)\s+#[\w-]+/i,
  // "bugs go in Linear", "feature flags live in LaunchDarkly", "ADRs are in a separate repo".
  new RegExp(
    String.raw`\b(?:bugs?|issues|tickets|feature flags?|flags|ADRs?|decisions|secrets|baselines)\s+(?:go|goes|live|lives|are|is|are kept|are tracked)\s+(?:in|on|into)\s+(?:the\s+)?${TOOL}`,
    'i',
  ),
  // The same in French, German, Spanish and Russian: "la doc est sur Notion", "stehen in Jira", "смотри в Kibana".
  new RegExp(
    String.raw`(?<![\p{L}])(?:est|sont|se trouvent?|vit|vivent) (?:sur|dans) (?:le |la |les |l')?${TOOL}|\b(?:steht|stehen|liegt|liegen|ist|sind|findest du|findet man)\b[^.?!]{0,40}\b(?:in|im|auf|unter) (?:dem |der )?${TOOL}|\b(?:está|están|vive|viven) en ${TOOL}|(?:смотри|лежат|лежит|хранятся|находятся) в ${TOOL}`,
    'iu',
  ),
  new RegExp(String.raw`^(?:please\s+)?(?:ask|post|ping|report|escalate)\b[^.?!]{0,30}\b(?:in|on|to)\s+${TOOL}[^.?!]*\b(?:when|whenever|if)\b`, 'i'),
];
