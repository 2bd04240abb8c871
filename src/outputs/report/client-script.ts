// The page's own script (inlined after d3 and Plot): sortable tables, then the four charts drawn
// with Observable Plot from the JSON in #report-data. Plain ES2017 for any current browser. It
// writes text only through Plot and textContent, never innerHTML, so data stays text. A chart that
// fails to draw says so in its figure and rethrows (a console error, which the browser test catches).
// Keep it free of backticks and dollar-brace: it lives in a template literal.
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

  function sortKey(td, numeric) {
    if (!td) return null;
    if (numeric) {
      var v = td.getAttribute('data-sort');
      return v === null || v === '' ? null : Number(v);
    }
    var t = td.textContent.trim();
    return t === '' ? null : t;
  }

  function sortBy(table, th, col) {
    var numeric = th.getAttribute('data-type') === 'number';
    var current = th.getAttribute('aria-sort');
    var dir = current === 'ascending' ? 'descending' : current === 'descending' ? 'ascending' : numeric ? 'descending' : 'ascending';
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var sign = dir === 'ascending' ? 1 : -1;
    var keyed = Array.prototype.map.call(body.rows, function (tr, i) { return { tr: tr, i: i, k: sortKey(tr.cells[col], numeric) }; });
    keyed.sort(function (a, b) {
      if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1; // empty cells last
      var c = numeric ? a.k - b.k : collator.compare(a.k, b.k);
      return c !== 0 ? sign * c : a.i - b.i;
    });
    keyed.forEach(function (x) { body.appendChild(x.tr); });
  }

  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      var button = th.querySelector('button');
      if (button) button.addEventListener('click', function () { sortBy(table, th, col); });
    });
  });

  var source = document.getElementById('report-data');
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var DAY = 86400000;
  var day = function (s) { return new Date(s + 'T00:00:00Z'); };
  var noon = function (s) { return new Date(day(s).getTime() + DAY / 2); };
  var xDomain = [day(data.period.from), new Date(day(data.period.to).getTime() + DAY)];
  var fmtCount = d3.format(',');
  var fmtRate = d3.format('.1%');
  var share = function (part, whole) { return whole > 0 ? part / whole : NaN; };

  function mount(name, build) {
    var figure = document.querySelector('figure[data-chart="' + name + '"]');
    if (!figure) return;
    var width = Math.max(320, Math.min(1100, figure.clientWidth - 26));
    try {
      figure.appendChild(build(width));
      figure.setAttribute('data-rendered', 'true');
    } catch (err) {
      figure.setAttribute('data-rendered', 'false');
      var p = document.createElement('p');
      p.className = 'no-rows';
      p.textContent = 'This chart could not be drawn: ' + (err && err.message);
      figure.appendChild(p);
      throw err;
    }
  }

  // A day not loaded has no numbers (turns null): no bar, a gap in the line, a '–' mark. Today is
  // partial: its bar is faint and its rate is a hollow dot off the line, each titled 'so far'.
  var daily = data.daily.map(function (d) {
    var known = d.turns !== null;
    return { day: d.day, date: day(d.day), mid: noon(d.day), state: d.state, turns: known ? d.turns : 0, known: known,
      unanswered: known ? d.unanswered : 0, rate: known && d.state !== 'partial' ? share(d.unanswered, d.turns) : NaN };
  });
  var notLoaded = daily.filter(function (d) { return !d.known; });
  var today = daily.filter(function (d) { return d.state === 'partial' && d.turns > 0; });
  var suffix = function (d) { return d.state === 'partial' ? ' (today so far: partial)' : ''; };
  var dailyLong = [];
  daily.forEach(function (d) {
    if (!d.known) return;
    dailyLong.push({ date: d.date, day: d.day, state: d.state, kind: 'answered', n: d.turns - d.unanswered });
    dailyLong.push({ date: d.date, day: d.day, state: d.state, kind: 'unanswered', n: d.unanswered });
  });
  var dash = function () {
    return Plot.text(notLoaded, { x: 'mid', y: 0, text: function () { return '–'; }, dy: -8, fill: '#5b6577', fontSize: 14,
      title: function (d) { return d.day + ': not loaded'; } });
  };
  var categories = data.categoryOrder;
  // Today (the period's last day) is partial in the category charts too: faint, titled 'so far'.
  var byCategory = data.categoryDaily.map(function (d) {
    return { day: d.day, date: day(d.day), category: d.category, turns: d.turns, unanswered: d.unanswered, rate: share(d.unanswered, d.turns),
      state: d.day === data.period.to ? 'partial' : 'full' };
  });
  var partialOpacity = function (d) { return d.state === 'partial' ? 0.35 : 1; };

  mount('daily-volume', function (width) {
    return Plot.plot({
      width: width, height: 220, marginLeft: 56,
      x: { type: 'utc', domain: xDomain, label: null },
      y: { label: 'turns per day', grid: true },
      color: { domain: ['answered', 'unanswered'], range: ['#9db4d8', '#c0392b'], legend: true },
      marks: [
        Plot.rectY(dailyLong, { x: 'date', interval: 'day', y: 'n', fill: 'kind', inset: 0.5,
          fillOpacity: function (d) { return d.state === 'partial' ? 0.35 : 1; },
          title: function (d) { return d.day + ': ' + fmtCount(d.n) + ' ' + d.kind + suffix(d); }, tip: true }),
        dash(),
        Plot.ruleY([0])
      ]
    });
  });

  mount('daily-rate', function (width) {
    var withTurns = daily.filter(function (d) { return d.turns > 0 && d.state !== 'partial'; });
    return Plot.plot({
      width: width, height: 200, marginLeft: 56,
      x: { type: 'utc', domain: xDomain, label: null },
      y: { label: 'unanswered rate', grid: true, tickFormat: '.0%', domain: [0, Math.max(0.05, d3.max(withTurns, function (d) { return d.rate; }) || 0)], nice: true },
      marks: [
        Plot.lineY(daily, { x: 'mid', y: 'rate', stroke: '#c0392b', strokeWidth: 1.5 }),
        Plot.dot(withTurns, { x: 'mid', y: 'rate', r: 2.5, fill: '#c0392b',
          title: function (d) { return d.day + ': ' + fmtRate(d.rate) + ' of ' + fmtCount(d.turns) + ' turns unanswered'; }, tip: true }),
        Plot.dot(today, { x: 'mid', y: function (d) { return share(d.unanswered, d.turns); }, r: 3, stroke: '#c0392b', fill: 'none',
          title: function (d) { return d.day + ': ' + fmtRate(share(d.unanswered, d.turns)) + ' of ' + fmtCount(d.turns) + ' turns unanswered' + suffix(d); } }),
        dash(),
        Plot.ruleY([data.periodRate], { stroke: '#5b6577', strokeDasharray: '4,3' })
      ]
    });
  });

  mount('category-rate', function (width) {
    return Plot.plot({
      width: width, height: 48 + 24 * categories.length, marginLeft: 140,
      x: { type: 'utc', domain: xDomain, label: null },
      y: { domain: categories, label: null },
      color: { type: 'linear', scheme: 'reds', domain: [0, Math.max(0.05, d3.max(byCategory, function (d) { return d.rate; }) || 0)],
        legend: true, label: 'unanswered rate', tickFormat: '.0%' },
      marks: [
        Plot.barX(byCategory, { x: 'date', interval: 'day', y: 'category', fill: 'rate', fillOpacity: partialOpacity, inset: 0.5,
          title: function (d) { return d.category + ', ' + d.day + ': ' + fmtRate(d.rate) + ' (' + fmtCount(d.unanswered) + ' of ' + fmtCount(d.turns) + ')' + suffix(d); }, tip: true })
      ]
    });
  });

  mount('category-volume', function (width) {
    return Plot.plot({
      width: width, height: 240, marginLeft: 56,
      x: { type: 'utc', domain: xDomain, label: null },
      y: { label: 'turns per day', grid: true },
      color: { domain: categories, scheme: 'tableau10', legend: true },
      marks: [
        Plot.rectY(byCategory, { x: 'date', interval: 'day', y: 'turns', fill: 'category', fillOpacity: partialOpacity, order: categories, inset: 0.5,
          title: function (d) { return d.category + ', ' + d.day + ': ' + fmtCount(d.turns) + ' turns' + suffix(d); }, tip: true }),
        Plot.ruleY([0])
      ]
    });
  });
})();
`;
