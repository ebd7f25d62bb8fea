// tapmat web views: draw the hub's view model (host.screen.scoreboard.model) as it arrives, in the
// players' language (the strings come from the hub: /i18n/<lang>.json, host/i18n/*.po).
const tapmat = (() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  let token = null, seat = null, lastTargets = "", lastPads = "", lastKinds = "", lang = "en", words = {};
  let view = null;

  // -- words ------------------------------------------------------------------------------------
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? values[k] : m));
  function t(msgid, values) { const w = words[msgid]; return fill(typeof w === "string" ? w : msgid, values); }
  function tn(singular, plural, n, values) {
    const w = words[singular];
    const form = Array.isArray(w) ? w[Math.min(w.length - 1, n === 1 ? 0 : 1)] : (n === 1 ? singular : plural);
    return fill(form, Object.assign({n: n}, values));
  }
  function chooseLang() {
    const saved = localStorage.getItem("tapmat-lang");
    if (saved) return saved;
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked) return asked;
    return (navigator.language || "en").toLowerCase().startsWith("vi") ? "vi" : "en";
  }
  async function loadWords(l) {
    const r = await fetch("/i18n/" + encodeURIComponent(l) + ".json");
    const cat = r.ok ? await r.json() : {lang: "en", messages: {}};
    lang = cat.lang; words = cat.messages;
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    if ($("lang")) $("lang").value = lang;
  }

  function table(columns, rows) {
    return "<tr>" + columns.map((c) => "<th>" + esc(c) + "</th>").join("") + "</tr>" +
      rows.map((r) => "<tr>" + r.map((c) => "<td>" + esc(c) + "</td>").join("") + "</tr>").join("");
  }

  function draw(v) {
    view = v;
    $("title").textContent = v.title + (v.seats ? " · " + tn("{n} seat", "{n} seats", v.seats) : "");
    $("waits").textContent = v.waits || (v.state ? "" : t("Waiting for the board's game…"));
    $("waits").className = "waits" + (v.over ? " over" : "");
    $("info").innerHTML = v.info.map(esc).join("<br>") +
      v.faults.map((f) => '<br><span class="fault">' + esc(f) + "</span>").join("");
    $("seats").innerHTML = v.columns.length ? table(v.columns, v.rows) : "";
    $("events").innerHTML = v.events.slice().reverse().map((e) => '<li class="' + esc(e.kind) + '">' + esc(e.text) + "</li>").join("");
    if ($("link")) $("link").textContent = v.link;
    if ($("diagnostics")) $("diagnostics").innerHTML = v.diagnostics.slice().reverse().map((d) => "<li>" + esc(d) + "</li>").join("");
    if ($("final")) {
      $("final").innerHTML = v.final ? "<h2>" + esc(t("Final standings")) + "</h2><table>" +
        "<tr><th>" + esc(t("Rank")) + "</th><th>" + esc(t("Player")) + "</th><th>" + esc(t("Score")) + "</th><th></th></tr>" +
        v.final.rows.map((r) => '<tr class="' + (r.won ? "won" : "") + '"><td>' + r.rank + "</td><td>" + esc(r.name) +
          "</td><td>" + r.score + "</td><td>" + (r.won ? esc(t("WINNER")) + " " : "") + esc(r.notes.join(", ")) +
          (r.parts ? '<div class="parts">' + esc(r.parts.join(" · ")) + "</div>" : "") + "</td></tr>").join("") +
        '</table><div class="tie">' + esc(v.final.explained) + "</div>" : "";
    }
    const pads = JSON.stringify([v.stations, lang]);
    if ($("mat") && pads !== lastPads) {  // redraw the mat only when a pad's state changed
      lastPads = pads;
      fetch("/mat.svg?lang=" + lang).then((r) => r.text()).then((text) => { $("mat").innerHTML = text; });
    }
    if ($("tv-proposals")) {
      $("tv-proposals").innerHTML = v.proposals.map((p) => "<li>" + esc(p.text) + "</li>").join("") +
        v.decided.slice(-1).map((d) => '<li class="decided">' + esc(d.text) + "</li>").join("");
    }
    if ($("ng-names")) names(v);
    if (v.you) you(v.you);
    if ($("undo") && isHost) {
      // the newest entry typed at the hub, until a move on the mat (host/hub/corrections.py)
      $("undo").hidden = !v.undo;
      $("undo-what").textContent = v.undo ? v.undo.text : "";
    }
  }

  // -- the host's correction: take back the newest entry -------------------------------------------
  let isHost = false;
  async function undo() {
    $("undo-verdict").className = ""; $("undo-verdict").textContent = t("sent…");
    const r = await post("/undo", {});
    $("undo-verdict").className = r.ok ? "ok" : "no";
    $("undo-verdict").textContent = r.text;
  }

  // -- the host's panel: a new game or a rematch -------------------------------------------------
  let lastNames = "";
  function names(v) {
    const count = Number($("ng-players").value) || v.seats || 0;
    const key = count + "|" + lang;
    if (key === lastNames) return;
    lastNames = key;
    let html = "";
    for (let i = 0; i < count; i++) {
      const name = v.names && v.names[i] && v.names[i] !== t("seat {n}", {n: i}) ? v.names[i] : "";
      html += '<label>' + esc(t("seat {n}", {n: i})) + ' <input class="ng-name" maxlength="20" value="' + esc(name) + '"></label>';
    }
    $("ng-names").innerHTML = html;
  }
  async function startGame(body) {
    $("ng-verdict").className = ""; $("ng-verdict").textContent = t("starting…");
    let r = await post("/newgame", body);
    if (r.confirm && window.confirm(r.text)) r = await post("/newgame", Object.assign(body, {replace: true}));
    $("ng-verdict").className = r.ok ? "ok" : "no";
    $("ng-verdict").textContent = r.text;
    archive();
  }
  async function archive() {
    const r = await fetch("/games");
    const a = await r.json();
    $("archive").innerHTML = a.games.length ? esc(t("Earlier games (action logs):")) + " " + a.games.map((g) =>
      '<a href="/games/' + g.number + '.jsonl">' + esc(t("game {n}", {n: g.number})) + " · " + esc(g.game) + "</a>").join(", ") : "";
  }
  function hostPanel() {
    $("host-panel").hidden = false; $("diag").hidden = false; $("join-link").hidden = false;
    isHost = true;
    $("undo-button").onclick = undo;
    if (view) draw(view);
    const modules = () => { $("ng-modules").hidden = $("ng-game").value !== "sheriff"; };
    $("ng-game").onchange = modules; modules();
    $("ng-players").oninput = () => { lastNames = ""; if (view) names(view); };
    $("newgame").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const mods = Array.from(document.querySelectorAll("#ng-modules input:checked")).map((c) => c.value);
      const given = Array.from(document.querySelectorAll(".ng-name")).map((i) => i.value.trim());
      startGame({game: $("ng-game").value, players: Number($("ng-players").value),
        modules: $("ng-game").value === "sheriff" ? mods : [], names: given});
    });
    $("ng-rematch").onclick = () => startGame({rematch: true});
    archive();
  }

  // -- a phone: its seat ------------------------------------------------------------------------
  function kinds(y) {
    const key = JSON.stringify(y.actions);
    if (key === lastKinds) return;
    lastKinds = key;
    $("kind").innerHTML = y.actions.map((a) => "<option>" + esc(a.a) + "</option>").join("");
    const hint = () => {
      const a = y.actions.find((x) => x.a === $("kind").value);
      $("hint").textContent = a && a.fields.length ? t("fields: {names}", {names: a.fields.join(", ")}) : t("no fields");
    };
    $("kind").onchange = hint;
    hint();
  }

  function you(y) {
    if ($("kind")) kinds(y);
    $("you").textContent = t("You are {name}", {name: y.name}) + " · " + y.role;
    if (document.activeElement !== $("my-name") && !$("my-name").value) $("my-name").value = y.name === t("seat {n}", {n: y.seat}) ? "" : y.name;
    proposals(y);
    if ($("own")) $("own").innerHTML = (y.own || []).map((line) => "<div>" + esc(line) + "</div>").join("");
    const form = $("decide");
    form.hidden = !y.decides || !y.targets.length;
    const key = JSON.stringify([y.targets, lang]);
    if (key === lastTargets) return;
    lastTargets = key;
    // the merchant chosen stays chosen while they can be; never switched silently to another
    const was = $("target").value;
    $("target").innerHTML = '<option value="">' + esc(t("choose a merchant")) + "</option>" +
      y.targets.map((m) => '<option value="' + m.seat + '">' + esc(m.name) +
      " (" + esc(t("declared {goods}", {goods: m.declared})) + ", " + esc(t("{n} gold", {n: m.gold})) + ")</option>").join("");
    $("target").value = y.targets.some((m) => String(m.seat) === was) ? was : "";
    const goods = (m) => Object.entries(m ? m.stand : {}).flatMap(([g, n]) => Array(n).fill(g));
    const fillGoods = () => {
      const m = y.targets.find((x) => String(x.seat) === $("target").value);
      const opts = goods(m).map((g) => '<option value="' + esc(g) + '">' + esc(y.goods[g] || g) + "</option>").join("");
      $("stand").innerHTML = opts; $("pay").innerHTML = opts;
    };
    $("target").onchange = fillGoods;
    fillGoods();
  }

  // proposals: the merchant who pays agrees or declines; the Sheriff may withdraw
  function proposals(y) {
    if (!$("proposals")) return;
    const row = (p, mine) => '<li>' + esc(p.text) + " " +
      (mine ? "" : '<button type="button" data-n="' + p.number + '" data-agree="1">' + esc(t("Agree")) + "</button> ") +
      '<button type="button" data-n="' + p.number + '">' + esc(mine ? t("Withdraw") : t("Decline")) + "</button></li>";
    const html = y.to_answer.map((p) => row(p, false)).join("") + y.made.map((p) => row(p, true)).join("");
    if ($("proposals").dataset.html !== html) {
      $("proposals").dataset.html = html;
      $("proposals").innerHTML = html;
      $("proposals").querySelectorAll("button").forEach((b) => { b.onclick = () => answer(Number(b.dataset.n), !!b.dataset.agree); });
    }
    const last = y.decided[0];
    if (last && $("decided").dataset.text !== last.text) {
      $("decided").dataset.text = last.text; $("decided").textContent = last.text;
    }
  }
  async function answer(number, agree) {
    $("verdict").className = ""; $("verdict").textContent = t("sent…");
    const a = await post("/answer", {seat: seat, t: token, number: number, agree: agree});
    $("verdict").className = a.ok ? "ok" : "no";
    $("verdict").textContent = a.text;
  }

  function chosen(sel) { return Array.from(sel.selectedOptions).map((o) => o.value); }

  async function post(url, body) {
    const r = await fetch(url + "?lang=" + lang, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body)});
    try { return await r.json(); } catch (e) { return {ok: false, text: r.status + " " + r.statusText}; }
  }

  async function verdict(action) {
    $("verdict").className = ""; $("verdict").textContent = t("sent…");
    const a = await post("/action", {seat: seat, t: token, action: action});
    $("verdict").className = a.ok ? "ok" : "no";
    $("verdict").textContent = a.text;
  }

  function sendAny(ev) {
    ev.preventDefault();
    let fields = {};
    try { fields = JSON.parse($("fields").value || "{}"); } catch (e) {
      $("verdict").className = "no"; $("verdict").textContent = t("the fields are not JSON: {why}", {why: e.message}); return;
    }
    verdict(Object.assign({a: $("kind").value}, fields));
  }

  async function send(ev) {
    ev.preventDefault();
    const kind = document.querySelector('input[name="kind"]:checked').value;
    if ($("target").value === "") {
      $("verdict").className = "no"; $("verdict").textContent = t("choose a merchant"); return;
    }
    const action = {a: kind, target: Number($("target").value)};
    if (kind === "pass") {
      const bribe = {};
      const gold = Number($("gold").value || 0);
      if (gold) bribe.gold = gold;
      const stand = chosen($("stand")); if (stand.length) bribe.stand = stand;
      const bag = $("bag").value.split(/[\s,]+/).filter(Boolean); if (bag.length) bribe.bag = bag;
      action.bribe = bribe;
    } else {
      const pay = chosen($("pay")); if (pay.length) action.pay_with = pay;
    }
    await verdict(action);
    $("decide").reset();   // a new decision starts from an empty form, no merchant chosen
    $("target").value = "";
    $("bribe").hidden = false; $("debt").hidden = true;
  }

  async function live(s, tok) {
    seat = s; token = tok || (s === null ? null : localStorage.getItem("tapmat-seat-" + s));
    await loadWords(chooseLang());
    if ($("any")) $("any").addEventListener("submit", sendAny);
    if ($("naming")) $("naming").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const r = await post("/name", {seat: seat, t: token, name: $("my-name").value});
      $("verdict").className = r.ok ? "ok" : "no"; $("verdict").textContent = r.ok ? t("name saved") : r.text;
    });
    if ($("decide")) {
      $("decide").addEventListener("submit", send);
      document.querySelectorAll('input[name="kind"]').forEach((r) => r.addEventListener("change", () => {
        const pass = document.querySelector('input[name="kind"]:checked').value === "pass";
        $("bribe").hidden = !pass; $("debt").hidden = pass;
      }));
    }
    if (seat === null) {
      const who = await (await fetch("/whoami")).json();
      if (who.host) hostPanel();
    }
    let ws = null;
    const open = () => {
      const url = "/ws?lang=" + lang + (seat === null ? "" : "&seat=" + seat + "&t=" + encodeURIComponent(token));
      ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + url);
      ws.onmessage = (m) => draw(JSON.parse(m.data));
      ws.onclose = (e) => { if (e.code !== 4000) { $("waits").textContent = t("hub connection lost; retrying…"); setTimeout(open, 1000); } };
    };
    $("lang").onchange = async () => {
      localStorage.setItem("tapmat-lang", $("lang").value);
      await loadWords($("lang").value);
      lastTargets = ""; lastNames = ""; lastPads = "";
      ws.onclose = null; ws.close(4000); open();
    };
    open();
  }
  // -- a phone asking for a seat: its code, then its token once the host confirmed it -----------
  async function pair(s, claim) {
    await loadWords(chooseLang());
    $("lang").onchange = async () => { localStorage.setItem("tapmat-lang", $("lang").value); await loadWords($("lang").value); };
    const asked = await post("/pair", {seat: s, c: claim});
    if (!asked.ok) { $("verdict").className = "no"; $("verdict").textContent = asked.text; return; }
    $("pair-text").textContent = asked.text;
    $("pair-code").textContent = asked.code;
    const poll = async () => {
      const r = await post("/pair/collect", {seat: s, ask: asked.ask});
      if (r.ok) {
        localStorage.setItem("tapmat-seat-" + s, r.token);
        location.replace("/seat/" + s + "?t=" + encodeURIComponent(r.token));
      } else if (r.text) { $("verdict").className = "no"; $("verdict").textContent = r.text; $("pair-code").textContent = ""; }
      else setTimeout(poll, 1000);
    };
    poll();
  }
  return {live, pair, t, tn};
})();
