// The arena's pages (docs/ARENA.md): each fills <main id="app"> from the
// JSON API. Every text goes into the page through textContent, never as
// HTML, so a bot named <script> shows as those characters.
"use strict";

const app = document.getElementById("app");
const page = app.dataset.page;
const arg = app.dataset.arg;
// a season's replay page, read from the disk: no server, no links to one
const isStatic = app.dataset.static === "true";

// el("td", {class: "x"}, "text", child...): an element; strings become text.
function el(tag, attrs, ...kids) {
  const e = document.createElementNS(
    ["svg", "polyline", "line", "rect", "text", "path"].includes(tag)
      ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined) continue;
    e.append(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
  }
  return e;
}

function link(href, text) { return el("a", { href }, text); }
// `1 game`, `2 games`, `3 batches`: as core::text::count writes counts
function count(n, noun) { return n === 1 ? `1 ${noun}` : `${n} ${noun}${/(s|x|ch|sh)$/.test(noun) ? "es" : "s"}`; }
function botLink(bot) { return isStatic ? el("span", {}, bot) : link("/bots/" + encodeURIComponent(bot), bot); }
function gameLink(n, text) { return link("/games/" + n, text === undefined ? "#" + n : text); }

async function api(path) {
  // a request that hangs gives up, so the page's next redraw is not held up
  const r = await fetch(path, { signal: AbortSignal.timeout(30000) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// An action: the token (when given in the header's field) and the
// header that tells the server this is the arena's own page.
const tokenField = document.getElementById("token") || el("input");
if (!isStatic) {
  tokenField.value = sessionStorage.getItem("ladder-token") || "";
  tokenField.addEventListener("change", () => sessionStorage.setItem("ladder-token", tokenField.value));
}
async function act(method, path, body) {
  const headers = { "X-Ladder": "1" };
  if (tokenField.value) headers["Authorization"] = "Bearer " + tokenField.value;
  const r = await fetch(path, { method, headers, body });
  const j = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function say(text, kind) {
  const p = el("p", { class: "message " + (kind || ""), role: "status" }, text);
  messages.replaceChildren(p);
}

// Messages outlive a page's redraws.
const messages = el("div", { id: "messages" });
function render(...kids) {
  fill(app, ...kids, messages);
}

// Replaces `parent`'s children with `kids`, leaving out null and undefined
// (which the DOM would write as the text `null`), as el() does.
function fill(parent, ...kids) {
  parent.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined));
}

// Calls `draw` now and whenever the arena moves (a game ends, a bot joins).
function live(draw) {
  let busy = false, again = false;
  const run = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try { await draw(); } catch (e) { render(el("p", { class: "error" }, e.message)); }
    busy = false;
    if (again) { again = false; run(); }
  };
  const listen = () => {
    const events = new EventSource("/api/stream");
    events.addEventListener("progress", (e) => {
      app.dataset.progress = e.data;
      run();
    });
    // a stream the browser gave up on is opened again
    events.onerror = () => {
      if (events.readyState === EventSource.CLOSED) setTimeout(listen, 2000);
    };
  };
  listen();
  // and a redraw every 10 s whatever became of the stream
  setInterval(run, 10000);
  return run;
}

function table(header, rows, attrs) {
  return el("table", attrs || {},
    el("thead", {}, el("tr", {}, header.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows));
}

const pct = (points, games) => games ? (100 * points / games).toFixed(1) + "%" : "";
const signed = (x) => (x >= 0 ? "+" : "") + Math.round(x);

// A line chart: points [x, y] (y may be null), bands [x, lo, hi], lines y.
function chart(points, opts) {
  const W = 560, H = 200, P = 36;
  const xs = points.map((p) => p[0]);
  const ys = points.flatMap((p) => p.slice(1).filter((v) => v !== null && v !== undefined))
    .concat(opts.lines || []);
  if (!xs.length || !ys.length) return el("p", { class: "empty" }, "No data yet.");
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) { x0 -= 1; x1 += 1; }
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const X = (x) => P + (W - 2 * P) * (x - x0) / (x1 - x0);
  const Y = (y) => H - P + (2 * P - H) * (y - y0) / (y1 - y0);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": opts.label });
  for (const y of opts.lines || [])
    svg.append(el("line", { x1: P, x2: W - P, y1: Y(y), y2: Y(y), class: "bound" }));
  const band = points.filter((p) => p[2] !== null && p[3] !== null && p[2] !== undefined);
  if (band.length > 1) {
    const top = band.map((p) => `${X(p[0])},${Y(p[3])}`);
    const bottom = band.slice().reverse().map((p) => `${X(p[0])},${Y(p[2])}`);
    svg.append(el("path", { d: "M" + top.concat(bottom).join("L") + "Z", class: "band" }));
  }
  const line = points.filter((p) => p[1] !== null).map((p) => `${X(p[0])},${Y(p[1])}`).join(" ");
  svg.append(el("polyline", { points: line, class: "series" }));
  // the values at the plot's top and bottom edges, left of it; the first
  // and last x under its corners
  const label = (x, y, anchor, text) =>
    svg.append(el("text", { x, y, "text-anchor": anchor, class: "axis" }, text));
  // whole numbers for ratings; an LLR's bounds (2.94) to two places
  const value = (y) => y1 - y0 < 20 ? (y >= 0 ? "+" : "") + y.toFixed(2) : signed(y);
  label(P - 4, P + 4, "end", value(y1));
  label(P - 4, H - P + 4, "end", value(y0));
  label(P, H - P + 16, "start", `${opts.x} ${x0}`);
  label(W - P, H - P + 16, "end", `${opts.x} ${x1}`);
  return svg;
}

// ---- leaderboard ----
function leaderboardTable(rows, id) {
  return table(["Rank", "Bot", "Rating (95%)", "Games", "Points", "Score", "Forfeits", "Trend", "State"],
    rows.map((r) => el("tr", { "data-bot": r.bot, class: r.state },
      el("td", {}, r.rank), el("td", {}, botLink(r.bot)), el("td", {}, r.rating_text),
      el("td", {}, r.games), el("td", {}, r.points), el("td", {}, pct(r.points, r.games)),
      el("td", {}, r.forfeits), el("td", {}, r.trend), el("td", {}, r.detail))),
    { id, class: "board-table" });
}

// The arena's closed seasons, newest first, each a table that opens
// (and stays open across redraws); nothing for an arena without seasons.
function seasonsSection(s) {
  if (s.every === null) return null;
  const open = new Set([...document.querySelectorAll("#seasons details[open]")].map((d) => d.dataset.season));
  const closed = s.seasons.slice().reverse();
  const earlier = s.closed - closed.length;
  return el("section", { id: "seasons" }, el("h2", {}, `Seasons (every ${count(s.every, "game")})`),
    earlier > 0 ? el("p", { id: "earlier-seasons" }, `The newest ${closed.length} of ${s.closed}; season K's table: `,
      el("code", {}, "/api/seasons/K")) : null,
    closed.length ? closed.map((x) => el("details", { "data-season": x.number, open: open.has(String(x.number)) },
      el("summary", {}, `Season ${x.number}: games ${x.first}-${x.last}` +
        (x.rows.length ? `: ${x.rows[0].bot} first of ${x.rows.length}` : "")),
      table(["Rank", "Bot", "Season (95%)", "Rating (95%)", "Games", "Won", "Lost", "Drawn", "Points", "Forfeits"],
        x.rows.map((r) => el("tr", { "data-bot": r.bot }, el("td", {}, r.rank), el("td", {}, botLink(r.bot)),
          el("td", {}, r.season_rating_text), el("td", {}, r.rating_text), el("td", {}, r.games),
          el("td", {}, r.won), el("td", {}, r.lost), el("td", {}, r.drawn), el("td", {}, r.points),
          el("td", {}, r.forfeits))))))
      : el("p", {}, "No season has closed yet."));
}

async function leaderboard() {
  const draw = async () => {
    const [d, seasons] = await Promise.all([api("/api/leaderboard"), api("/api/seasons")]);
    const a = d.arena;
    const progress = a.in_progress
      ? el("section", { id: "in-progress" }, el("h2", {}, `Batch ${a.in_progress.batch} in progress`),
          el("ul", {}, a.in_progress.games.map((g, i) =>
            el("li", {}, `game ${a.in_progress.first + i}: `, botLink(g[0]), " vs ", botLink(g[1])))))
      : el("p", { id: "in-progress" }, "No batch in progress.");
    render(el("h1", {}, "Leaderboard"),
      el("p", { class: "head" }, `${a.title}: ${count(a.playing, "bot")} playing, ${count(a.games, "game")} in ${count(a.batches, "batch")}`),
      leaderboardTable(d.rows, "leaderboard"), progress, seasonsSection(seasons));
  };
  live(draw)();
}

// ---- one bot ----
async function bot() {
  const draw = async () => {
    const d = await api("/api/bots/" + encodeURIComponent(arg));
    const b = d.bot;
    const t = d.total;
    const retire = el("button", { onclick: async () => {
      try { await act("POST", `/api/bots/${encodeURIComponent(b.bot)}/retire`); say("retired " + b.bot, "ok"); }
      catch (e) { say(e.message, "error"); }
    }, disabled: b.state === "retired" || b.state === "rejected" }, "Retire");
    render(el("h1", {}, b.bot),
      el("p", {}, `state: ${b.state}; rating ${d.row ? d.row.rating_text : "-"}; ` +
        `${count(t.games, "game")}, ${t.won} won, ${t.lost} lost, ${t.drawn} drawn` + (t.games ? ` (${pct(t.points, t.games)})` : ""), " ", retire),
      el("h2", {}, "Rating over time"),
      chart(d.history.map((h) => [h.batch, h.rating, h.low, h.high]), { x: "batch", label: "rating over time" }),
      el("h2", {}, "Results per opponent"),
      table(["Opponent", "Games", "Won", "Lost", "Drawn", "Win %", "Points", "Goals (sum)"],
        d.opponents.map((o) => el("tr", {}, el("td", {}, botLink(o.bot)), el("td", {}, o.games),
          el("td", {}, o.won), el("td", {}, o.lost), el("td", {}, o.drawn),
          el("td", {}, o.win_percent.toFixed(1)), el("td", {}, o.points), el("td", {}, o.goal_sum)))),
      el("h2", {}, "Recent games"), gamesTable(d.recent),
      el("h2", {}, "Forfeits"),
      d.forfeits.length ? table(["Game", "Reason", "Detail", "The last lines exchanged (> ladder, < bot)"],
        d.forfeits.map((f) => el("tr", { class: "forfeit" },
          el("td", {}, gameLink(f.number)), el("td", {}, f.reason), el("td", {}, el("pre", {}, f.detail)),
          el("td", {}, el("pre", { class: "lines" }, f.lines || "")))), { id: "forfeits" })
        : el("p", {}, "None."),
      el("h2", {}, "Versions"),
      table(["Version", "State", "Command", "Protocol"], d.versions.map((v) => el("tr", {},
        el("td", {}, botLink(v.bot)), el("td", {}, v.state),
        el("td", {}, el("code", {}, v.spec.command ? v.spec.command.join(" ") : "builtin " + v.spec.builtin)),
        el("td", {}, v.spec.protocol || (v.spec.command ? "line" : "")))))); 
  };
  live(draw)();
}

function gamesTable(games) {
  const when = (t) => t === null || t === undefined ? "" : new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ");
  return table(["Game", "Player 1", "Player 2", "Result", "Goals", "Ending", "Turns", "Finished (UTC)"],
    games.map((g) => el("tr", {}, el("td", {}, gameLink(g.number)), el("td", {}, botLink(g.first)),
      el("td", {}, botLink(g.second)), el("td", {}, g.result), el("td", {}, g.goals.join(" to ")),
      el("td", {}, g.ending), el("td", {}, g.plies), el("td", {}, when(g.finished)))), { class: "games" });
}

// ---- games with filters, and the leaderboard over them ----
const FILTERS = [["bot", "text"], ["opponent", "text"],
  ["result", ["", "win", "loss", "draw", "first", "second"]],
  ["termination", ["", "normal", "forfeit", "ply-limit", "adjudicated"]],
  ["min_plies", "number"], ["max_plies", "number"], ["from", "number"], ["to", "number"],
  ["since", "datetime-local"], ["until", "datetime-local"]];

async function games() {
  const params = new URLSearchParams(location.search);
  const form = el("form", { id: "filters", class: "filters" },
    FILTERS.map(([name, kind]) => el("label", {}, name.replace("_", " ") + (kind === "datetime-local" ? " (UTC) " : " "),
      Array.isArray(kind)
        ? el("select", { name }, kind.map((o) => el("option", { value: o, selected: params.get(name) === o }, o || "any")))
        : el("input", { name, type: kind, value: params.get(name) || "", min: kind === "number" ? 0 : null }))),
    el("button", { type: "submit" }, "Filter"));
  const draw = async () => {
    const q = new URLSearchParams(location.search).toString();
    const [g, lb] = await Promise.all([api("/api/games?" + q), api("/api/leaderboard?" + q)]);
    render(el("h1", {}, "Games"), form,
      el("h2", {}, lb.filtered ? "Leaderboard of these games" : "Leaderboard"),
      leaderboardTable(lb.rows, "filtered-leaderboard"),
      el("h2", { id: "games-total" }, count(g.total, "game") + (g.total > g.games.length ? ` (the newest ${g.games.length})` : "")),
      gamesTable(g.games));
  };
  live(draw)();
}

// ---- candidates ----
async function candidates() {
  const draw = async () => {
    const d = await api("/api/candidates");
    const button = (c, what) => el("button", { onclick: async () => {
      try { await act("POST", `/api/bots/${encodeURIComponent(c.bot)}/${what}`); say(`${what}d ${c.bot}`, "ok"); }
      catch (e) { say(e.message, "error"); }
    }, disabled: c.state !== "under test" }, what[0].toUpperCase() + what.slice(1));
    render(el("h1", {}, "Candidates"),
      el("p", {}, `SPRT: elo0 ${d.sprt.elo0}, elo1 ${d.sprt.elo1}, alpha ${d.sprt.alpha}, beta ${d.sprt.beta}`),
      d.candidates.length ? d.candidates.map((c) => el("section", { class: "candidate", "data-bot": c.bot },
        el("h2", {}, botLink(c.bot), ` vs ${c.against || "the pool"}: ${c.state}`),
        el("p", { class: "test" }, `LLR ${c.test.llr.toFixed(2)} (${c.test.lower.toFixed(2)}, ${c.test.upper.toFixed(2)}): ` +
          `${c.test.verdict === "H1" ? "H1 accepted" : c.test.verdict === "H0" ? "H0 accepted" : "unfinished"}; ` +
          `${count(c.tally.games, "game")}, ${c.tally.won} won, ${c.tally.lost} lost, ${c.tally.drawn} drawn`),
        chart(c.llr.map((p) => [p.games, p.llr]), { x: "game", label: "LLR over games", lines: [c.test.lower, c.test.upper] }),
        el("p", {}, button(c, "promote"), " ", button(c, "reject"))))
        : el("p", {}, "No candidates yet."));
  };
  live(draw)();
}

// ---- the replay viewer ----
function drawing(ply) {
  const d = ply.drawing;
  if (d.kind === "board") {
    const marked = new Set(d.marked.map(([r, c]) => r + "," + c));
    return el("table", { class: "board" },
      d.cells.map((row, r) => el("tr", {}, el("th", {}, d.rows[r]),
        row.map((cell, c) => el("td", { class: (marked.has(r + "," + c) ? "marked " : "") + "piece-" + (cell || "empty") }, cell)))),
      el("tr", {}, el("th", {}), d.columns.map((c) => el("th", {}, c))));
  }
  if (d.kind === "track") {
    const places = [];
    for (let p = 0; p <= d.length; p++)
      places.push(el("td", { class: p === d.at ? "token" : "" }, p === d.at ? "●" : ""));
    return el("div", {}, el("table", { class: "track" }, el("tr", {}, places),
      el("tr", {}, Array.from({ length: d.length + 1 }, (_, p) => el("th", {}, p)))),
      el("p", {}, `${d.ends[0]} ← 0 … ${d.length} → ${d.ends[1]}`), d.facts.map((f) => el("p", {}, f)));
  }
  return null;
}

async function replay() {
  const held = document.getElementById("game-data");
  const g = held ? JSON.parse(held.textContent) : await api("/api/games/" + encodeURIComponent(arg));
  const last = g.plies.length - 1;
  const start = () => {
    const m = /ply=(\d+)/.exec(location.hash);
    return m ? Math.min(Number(m[1]), last) : 0;
  };
  let at = start(), timer = null;
  const scrub = el("input", { type: "range", id: "scrub", min: 0, max: last, value: at });
  const view = el("div", { id: "position" });
  const show = (n) => {
    at = Math.max(0, Math.min(last, n));
    scrub.value = at;
    history.replaceState(null, "", "#ply=" + at);
    const ply = g.plies[at];
    const names = [g.first, g.second];
    const moved = ply.moves.map((m, i) => m === null ? null : `${names[i]} plays ${m}`).filter((x) => x);
    const rounds = g.simultaneous ? table(["Turn", g.first, g.second],
      g.plies.slice(1, at + 1).map((p) => el("tr", {}, el("td", {}, p.turn), el("td", {}, p.moves[0] || ""), el("td", {}, p.moves[1] || "")))) : null;
    // a game without a drawing, a turn without a result: left out
    fill(view,
      el("p", { id: "ply" }, `Turn ${at} of ${last}` + (moved.length ? ": " + moved.join(", ") : ": the start")),
      drawing(ply), el("pre", { class: "picture", id: "picture" }, ply.picture), rounds,
      at === last ? el("p", { id: "result" }, `Result: ${g.result === "draw" ? "draw" : g.result === "first" ? g.first + " wins" : g.second + " wins"}, goals ${g.goals.join(" to ")} (${g.ending})`) : null);
  };
  const stop = () => { clearInterval(timer); timer = null; play.textContent = "Play"; };
  const button = (text, id, f) => el("button", { id, onclick: f }, text);
  const play = button("Play", "play", () => {
    if (timer) return stop();
    if (at === last) show(0);
    play.textContent = "Pause";
    timer = setInterval(() => { if (at >= last) stop(); else show(at + 1); }, 600);
  });
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  window.addEventListener("hashchange", () => { if (start() !== at) show(start()); });
  render(el("h1", {}, `Game ${g.number}: `, botLink(g.first), " vs ", botLink(g.second)),
    el("p", {}, `${g.game}` + (g.batch === null ? "" : `, batch ${g.batch}`) + `, seed ${g.seed_text}` + (g.opening ? `, from the opening ${g.opening}` : "")),
    el("div", { class: "controls" }, button("Start", "first", () => show(0)), button("◀", "back", () => show(at - 1)),
      play, button("▶", "step", () => show(at + 1)), button("End", "last", () => show(last)), scrub),
    view);
  show(at);
}

// ---- upload ----
async function upload() {
  const form = el("form", { id: "upload", class: "upload" },
    el("label", {}, "Name ", el("input", { name: "name", required: true, pattern: "[A-Za-z0-9_.\\-]+" })),
    el("label", {}, "File (a program, or a .tar / .tar.gz of its folder) ", el("input", { name: "file", type: "file", required: true })),
    el("label", {}, "Command ", el("input", { name: "command", required: true, placeholder: "python3 bot.py" })),
    el("label", {}, "Protocol ", el("select", { name: "protocol" }, el("option", { value: "line" }, "line"), el("option", { value: "hackerrank" }, "hackerrank"))),
    el("label", {}, el("input", { name: "candidate", type: "checkbox" }), " as a candidate (tested by SPRT before it joins the pool)"),
    el("label", {}, "Against ", el("input", { name: "against", placeholder: "the pool" })),
    el("button", { type: "submit" }, "Upload"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const file = f.get("file");
    const q = new URLSearchParams({ name: f.get("name"), file: file.name, command: f.get("command"),
      protocol: f.get("protocol"), candidate: f.get("candidate") ? "true" : "false", against: f.get("against") || "" });
    try {
      const r = await act("POST", "/api/bots?" + q, file);
      messages.replaceChildren(el("p", { class: "message ok", role: "status" }, "added ", botLink(r.bot)),
        ...(r.notes || []).map((n) => el("p", { class: "message note", role: "status" }, "note: " + n)));
    } catch (err) { say(err.message, "error"); }
  });
  render(el("h1", {}, "Upload a bot"), el("p", {}, "The bot runs in the sandbox. Actions on a server that listens beyond loopback need its token (top right)."), form);
}

({ leaderboard, bot, games, candidates, replay, upload })[page]().catch((e) =>
  render(el("h1", {}, "Error"), el("p", { class: "error" }, e.message)));
