/**
 * The dashboard's script, served as `/_dashboard/app.js`: renders the view the event stream
 * sends, keeps focus and open details across updates, and posts actions. Plain JavaScript
 * (no template literals, so it sits in this string as is); imported on first use only.
 */
export const DASHBOARD_SCRIPT = `'use strict';
(function () {
  var ACTION_HEADER = { 'content-type': 'application/json', 'x-mediagw-dashboard': '1' };
  var views = {};

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function time(ms) { return ms == null ? '' : new Date(ms).toISOString().slice(11, 23); }
  function table(caption, heads, rows) {
    if (rows.length === 0) return '<p class="muted">No ' + esc(caption.toLowerCase()) + ' yet.</p>';
    return '<table><caption class="vh">' + esc(caption) + '</caption><thead><tr>' +
      heads.map(function (h) { return '<th scope="col">' + esc(h) + '</th>'; }).join('') +
      '</tr></thead><tbody>' + rows.map(function (r) { return '<tr>' + r.map(function (c) {
        return '<td>' + c + '</td>'; }).join('') + '</tr>'; }).join('') + '</tbody></table>';
  }
  function button(label, subject, action, data) {
    var attrs = ' data-action="' + esc(action) + '" data-key="' + esc(action + ':' + subject + ':' + label) + '"';
    Object.keys(data).forEach(function (k) { attrs += ' data-' + esc(k) + '="' + esc(data[k]) + '"'; });
    return '<button type="button"' + attrs + '>' + esc(label) + '<span class="vh"> ' + esc(subject) + '</span></button>';
  }
  function status(code) {
    if (code == null) return '<span class="muted">…</span>';
    return '<span class="' + (code < 400 ? 'ok' : 'bad') + '">' + esc(code) + '</span>';
  }
  function details(key, summary, value) {
    return '<details data-key="' + esc(key) + '"><summary>' + esc(summary) + '</summary><pre>' +
      esc(JSON.stringify(value, null, 2)) + '</pre></details>';
  }

  function newest(shown, total, what) {
    return total > shown ? '<p class="muted">The newest ' + shown + ' of ' + total + ' ' + what + '.</p>' : '';
  }
  function tasksView(s) {
    return newest(s.tasks.length, s.totals.tasks, 'tasks') + table('Tasks', ['Task', 'Model', 'Status', 'Progress', 'Reservation', 'Settlement', 'Output', 'Actions'],
      s.tasks.map(function (t) {
        var outputs = t.outputs.map(function (o, i) {
          var name = 'output ' + (i + 1) + ' of ' + t.id;
          var media = o.contentType.indexOf('video/') === 0
            ? '<video controls preload="none" src="' + esc(o.preview) + '" aria-label="Play ' + esc(name) + '"></video>'
            : o.contentType.indexOf('image/') === 0
              ? '<img class="preview" src="' + esc(o.preview) + '" alt="Preview of ' + esc(name) + '">' : '';
          return media + '<a href="' + esc(o.url) + '" target="_blank" rel="noopener">Open ' + esc(name) + '</a>';
        }).join('');
        var state = esc(t.status) + (t.error ? ' <span class="bad">' + esc(t.error.code) + '</span>' : '');
        var actions = t.terminal ? '' : button('Finish now', t.id, 'finish-task', { task: t.id }) +
          button('Fail now', t.id, 'fail-task', { task: t.id });
        return [
          '<code>' + esc(t.id) + '</code><br><span class="muted">' + esc(t.kind) + ', ' + esc(t.account) + '</span>',
          esc(t.model), state,
          '<progress max="100" value="' + t.progress + '" aria-label="Progress of ' + esc(t.id) + '">' + t.progress + '%</progress> ' + t.progress + '%',
          t.reservation ? esc(t.reservation.seconds + ' s at ' + t.reservation.tier) : '<span class="muted">none</span>',
          t.settlement ? esc(t.settlement.kind + ' ' + t.settlement.seconds + ' s')
            : '<span class="muted">' + (t.reservation ? 'open' : 'none') + '</span>',
          outputs, actions,
        ];
      }));
  }
  function requestsView(s) {
    return table('Requests', ['Request', 'Time', 'Method', 'Path', 'Status', 'Invalid field', 'Details'],
      s.requests.map(function (r) {
        return [
          '<code>' + esc(r.id) + '</code>', time(r.at), esc(r.method),
          '<code>' + esc(r.path) + '</code>' + (r.origin === 'media' ? ' <span class="muted">(media)</span>' : ''),
          status(r.status) + (r.fault ? ' <span class="muted">fault: ' + esc(r.fault) + '</span>' : ''),
          r.invalidFields.map(function (f) { return '<code>' + esc(f || '(body)') + '</code>'; }).join(', '),
          details('request:' + r.id, 'Headers and body', { headers: r.headers, body: r.body, parts: r.parts }),
        ];
      }));
  }
  function ledgerView(s) {
    return s.ledger.map(function (a) {
      return '<h3>' + esc(a.account) + ' <span class="muted">(reserved ' + a.reserved + ' s, settled ' + a.settled + ' s)</span></h3>' +
        table('Ledger of ' + a.account, ['Time', 'Task', 'Entry', 'Seconds', 'Tier'], a.entries.map(function (e) {
          return [time(e.at), '<code>' + esc(e.taskId) + '</code>', esc(e.kind), esc(e.seconds), esc(e.tier)];
        }));
    }).join('');
  }
  function endpointsView(s) {
    return table('Endpoints', ['Endpoint', 'URL', 'State', 'Key ID', 'Actions'], s.webhooks.endpoints.map(function (e) {
      var toggle = e.state === 'paused'
        ? button('Resume', e.id, 'set-endpoint', { endpoint: e.id, enabled: 'true' })
        : button('Pause', e.id, 'set-endpoint', { endpoint: e.id, enabled: 'false' });
      return ['<code>' + esc(e.id) + '</code><br><span class="muted">' + esc(e.account) + '</span>', esc(e.url),
        esc(e.state) + (e.pausedBy ? ' <span class="muted">(' + esc(e.pausedBy) + ')</span>' : ''),
        '<code>' + esc(e.keyId) + '</code>', toggle + button('Rotate secret', e.id, 'rotate-secret', { endpoint: e.id })];
    }));
  }
  function deliveriesView(s) {
    return newest(s.webhooks.events.length, s.totals.events, 'events') + table('Deliveries', ['Event', 'Type', 'Status', 'Next retry', 'Attempts', 'Actions'], s.webhooks.events.map(function (e) {
      var attempts = e.attempts.map(function (a) {
        var answer = a.statusCode != null ? status(a.statusCode) : '<span class="bad">' + esc(a.error || 'in flight') + '</span>';
        return '<li>#' + a.attempt + ' at ' + time(a.startedAt) + ': ' + answer +
          (a.durationMs == null ? '' : ' in ' + a.durationMs + ' ms') + ', kid <code>' + esc(a.keyId) + '</code>' +
          (a.duplicate ? ' (duplicate)' : '') + '</li>';
      }).join('');
      return ['<code>' + esc(e.id) + '</code><br><span class="muted">' + esc(e.taskIds.join(', ')) + ' → ' + esc(e.endpointId) + '</span>',
        esc(e.type), esc(e.status) + (e.replays ? ' <span class="muted">(replayed ' + e.replays + ')</span>' : ''),
        e.nextAttemptAt == null ? '' : time(e.nextAttemptAt),
        attempts ? '<ol aria-label="Attempts of ' + esc(e.id) + '">' + attempts + '</ol>' : '<span class="muted">none yet</span>',
        e.status === 'in_flight' ? '' : button('Replay', e.id, 'replay-event', { event: e.id })];
    }));
  }
  function libraryView(s) {
    if (s.library.length === 0) return '<p class="muted">No library groups yet.</p>';
    return s.library.map(function (g) {
      return '<h3>' + esc(g.name) + ' <code>' + esc(g.id) + '</code> <span class="muted">' + esc(g.model + ', ' + g.account) + '</span></h3>' +
        table('Assets of ' + g.name, ['Asset', 'Type', 'Review', 'Source', 'Actions'], g.assets.map(function (a) {
          return ['<code>' + esc(a.id) + '</code> ' + esc(a.name), esc(a.type), esc(a.status),
            '<a href="' + esc(a.url) + '" rel="noreferrer">source</a>',
            button('Approve', a.id, 'review-asset', { asset: a.id, decision: 'approve' }) +
            button('Reject', a.id, 'review-asset', { asset: a.id, decision: 'reject' })];
        }));
    }).join('');
  }

  var renderers = { 'tasks-view': tasksView, 'requests-view': requestsView, 'ledger-view': ledgerView,
    'endpoints-view': endpointsView, 'deliveries-view': deliveriesView, 'library-view': libraryView };

  function render(s) {
    document.getElementById('clock').textContent = new Date(s.now).toISOString();
    document.getElementById('clock-mode').textContent = '(' + s.clockMode + ' clock)';
    var active = document.activeElement && document.activeElement.getAttribute('data-key');
    Object.keys(renderers).forEach(function (id) {
      var html = renderers[id](s);
      if (views[id] === html) return;
      views[id] = html;
      var host = document.getElementById(id);
      var open = Array.prototype.map.call(host.querySelectorAll('details[open]'), function (d) { return d.getAttribute('data-key'); });
      host.innerHTML = html;
      open.forEach(function (key) { var d = host.querySelector('details[data-key="' + CSS.escape(key) + '"]'); if (d) d.open = true; });
    });
    if (active) {
      var again = document.querySelector('[data-key="' + CSS.escape(active) + '"]');
      if (again && again !== document.activeElement) again.focus();
    }
  }

  function announce(text) { document.getElementById('announce').textContent = text; }

  function act(name, body) {
    return fetch('/_dashboard/actions/' + name, { method: 'POST', headers: ACTION_HEADER, body: JSON.stringify(body) })
      .then(function (res) { return res.json().then(function (answer) { return { ok: res.ok, answer: answer }; }); })
      .then(function (r) { announce(r.ok ? r.answer.message : 'Not done: ' + (r.answer.message || 'error')); })
      .catch(function (error) { announce('Not done: ' + error.message); });
  }

  document.addEventListener('click', function (event) {
    var b = event.target.closest && event.target.closest('button[data-action]');
    if (!b) return;
    var d = b.dataset;
    if (d.action === 'finish-task') act('finish-task', { taskId: d.task });
    else if (d.action === 'fail-task') act('finish-task', { taskId: d.task, failureCode: document.getElementById('failure-code').value || 'task_failed' });
    else if (d.action === 'replay-event') act('replay-event', { eventId: d.event });
    else if (d.action === 'set-endpoint') act('set-endpoint', { endpointId: d.endpoint, enabled: d.enabled === 'true' });
    else if (d.action === 'rotate-secret') act('rotate-secret', { endpointId: d.endpoint });
    else if (d.action === 'review-asset') act('review-asset', { assetId: d.asset, decision: d.decision });
  });
  document.addEventListener('submit', function (event) {
    var form = event.target;
    event.preventDefault();
    var f = form.elements;
    if (form.id === 'advance-form') act('advance-clock', { ms: Number(f.ms.value) });
    else if (form.id === 'fault-form') act('inject-fault', { method: f.method.value, path: f.path.value,
      status: Number(f.status.value), times: Number(f.times.value) });
  });

  function connect() {
    var source = new EventSource('/_dashboard/events');
    var connection = document.getElementById('connection');
    source.addEventListener('open', function () { connection.textContent = 'live'; });
    source.addEventListener('error', function () {
      if (source.readyState !== EventSource.CLOSED) { connection.textContent = 'reconnecting…'; return; }
      // Refused (too many open dashboard pages) or gone: the browser does not retry by itself.
      connection.textContent = 'not live: the stream was refused or lost; trying again in 5 s';
      source.close();
      setTimeout(connect, 5000);
    });
    source.addEventListener('state', function (event) { render(JSON.parse(event.data)); });
    source.addEventListener('clock', function (event) {
      document.getElementById('clock').textContent = new Date(JSON.parse(event.data).now).toISOString();
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', connect);
  else connect();
})();
`;
