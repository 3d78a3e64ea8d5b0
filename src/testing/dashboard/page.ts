/**
 * The dashboard's HTML and CSS: plain markup with one script (`script.ts`), no build step.
 * Imported on the first visit of `/_dashboard` only.
 */

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #fff; --muted: #57606a; --line: #d0d7de;
  --ok: #1a7f37; --bad: #cf222e; --accent: #0550ae; font: 14px/1.45 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1;
  --line: #3d444d; --ok: #3fb950; --bad: #ff7b72; --accent: #79c0ff; } }
body { margin: 0; color: var(--fg); background: var(--bg); }
header { padding: .75rem 1rem; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap;
  gap: .5rem 1.5rem; align-items: baseline; }
h1 { font-size: 1.2rem; margin: 0; } h2 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
h3 { font-size: .95rem; margin: .75rem 0 .25rem; }
nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; flex-wrap: wrap; }
a { color: var(--accent); }
main { padding: 0 1rem 2rem; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: var(--bg); }
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
table { border-collapse: collapse; width: 100%; margin-bottom: .5rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top;
  overflow-wrap: anywhere; }
th { font-weight: 600; color: var(--muted); }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; }
form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .25rem 0 .75rem; }
label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
input, select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
  border-radius: 4px; padding: .2rem .5rem; }
button { cursor: pointer; margin: 0 .25rem .25rem 0; } button:hover { border-color: var(--accent); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .muted { color: var(--muted); }
video, img.preview { max-width: min(220px, 100%); max-height: 140px; display: block; }
progress { width: 5rem; max-width: 100%; }
#announce { min-height: 1.2em; }
`;

/** A section's live view, filled by the script. */
const view = (id: string) => `    <div id="${id}-view"></div>`;

/** The page's sections, in order: ID, title (also the link in the navigation) and contents. */
const SECTIONS: ReadonlyArray<readonly [id: string, title: string, inner: string]> = [
  [
    'controls',
    'Controls',
    `    <form id="advance-form" data-action="advance-clock">
      <label>Advance the clock by (ms)<input name="ms" type="number" min="1" step="1" value="1000" required></label>
      <button type="submit">Advance clock</button>
    </form>
    <form id="fault-form" data-action="inject-fault">
      <label>Method<select name="method"><option value="">any</option><option>GET</option><option>POST</option><option>PATCH</option><option>DELETE</option></select></label>
      <label>Path prefix<input name="path" value="/v1/videos/generations" required></label>
      <label>Answer status<input name="status" type="number" min="400" max="599" value="503" required></label>
      <label>Next N requests<input name="times" type="number" min="1" max="1000" value="1" required></label>
      <button type="submit">Inject fault</button>
    </form>`,
  ],
  [
    'tasks',
    'Tasks',
    `    <form id="failure-form">
      <label>Failure code for “Fail now”<input id="failure-code" name="failureCode" value="task_failed" required></label>
    </form>
${view('tasks')}`,
  ],
  ['requests', 'Requests', view('requests')],
  ['ledger', 'Ledger', view('ledger')],
  [
    'webhooks',
    'Webhooks',
    `    <h3>Endpoints</h3>
    <div id="endpoints-view"></div>
    <h3>Deliveries</h3>
    <div id="deliveries-view"></div>`,
  ],
  ['library', 'Library', view('library')],
];

/** One section of the page, between the navigation and the end of `main`. */
const section = (
  id: string,
  title: string,
  inner: string,
) => `  <section id="${id}" aria-labelledby="${id}-title">
    <h2 id="${id}-title">${title}</h2>
${inner}
  </section>
`;

/** The page served at `/_dashboard`. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mediagw mock gateway</title>
<link rel="icon" href="/_dashboard/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
<script src="/_dashboard/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <h1>mediagw mock gateway</h1>
  <p>Mock time: <time id="clock">…</time> <span id="clock-mode" class="muted"></span></p>
  <p id="connection" class="muted">connecting…</p>
  <nav aria-label="Sections">
    <ul>
${SECTIONS.map(([id, title]) => `      <li><a href="#${id}">${title}</a></li>\n`).join('')}    </ul>
  </nav>
</header>
<main id="main">
  <p id="announce" role="status" aria-live="polite"></p>
${SECTIONS.map(([id, title, inner]) => section(id, title, inner)).join('')}</main>
</body>
</html>
`;
