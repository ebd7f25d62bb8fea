// tapmat web views: draw the hub's view model (host.scoreboard.model) as it arrives.
const tapmat = (() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  let token = null, seat = null, lastTargets = "", lastPads = "";

  function table(columns, rows) {
    return "<tr>" + columns.map((c) => "<th>" + esc(c) + "</th>").join("") + "</tr>" +
      rows.map((r) => "<tr>" + r.map((c) => "<td>" + esc(c) + "</td>").join("") + "</tr>").join("");
  }

  function draw(v) {
    $("title").textContent = v.title + (v.seats ? " · " + v.seats + " seats" : "");
    const over = v.waits.startsWith("game over");
    $("waits").textContent = over ? "Game over: " + v.waits.slice(11) :
      v.waits ? "The mat waits for " + v.waits : (v.state ? "" : "Waiting for the board's game…");
    $("info").innerHTML = v.info.map(esc).join("<br>") +
      v.faults.map((f) => '<br><span class="fault">' + esc(f) + "</span>").join("");
    $("seats").innerHTML = v.columns.length ? table(v.columns, v.rows) : "";
    $("events").innerHTML = v.events.slice().reverse().map((e) => '<li class="' + esc(e.kind) + '">' + esc(e.text) + "</li>").join("");
    $("link").textContent = v.link;
    if ($("final")) {
      $("final").innerHTML = v.final ? "<h2>Final standings</h2>" + "<table>" +
        "<tr><th>Rank</th><th>Seat</th><th>Score</th><th></th></tr>" +
        v.final.rows.map((r) => '<tr class="' + (r.won ? "won" : "") + '"><td>' + r.rank + "</td><td>" + r.seat +
          "</td><td>" + r.score + "</td><td>" + (r.won ? "WINNER " : "") + esc(r.notes.join(", ")) + "</td></tr>").join("") +
        '</table><div class="tie">' + esc(v.final.explained) + "</div>" : "";
    }
    const pads = JSON.stringify(v.stations);
    if ($("mat") && pads !== lastPads) {  // redraw the mat only when a pad's state changed
      lastPads = pads;
      fetch("/mat.svg").then((r) => r.text()).then((t) => { $("mat").innerHTML = t; });
    }
    if (v.you) you(v.you);
  }

  let lastKinds = "";
  function kinds(y) {
    const key = JSON.stringify(y.actions);
    if (key === lastKinds) return;
    lastKinds = key;
    $("kind").innerHTML = y.actions.map((a) => "<option>" + esc(a.a) + "</option>").join("");
    const hint = () => {
      const a = y.actions.find((x) => x.a === $("kind").value);
      $("hint").textContent = a && a.fields.length ? "fields: " + a.fields.join(", ") : "no fields";
    };
    $("kind").onchange = hint;
    hint();
  }

  function you(y) {
    if ($("kind")) kinds(y);
    $("you").textContent = "You are seat " + y.seat + (y.role !== "player" ? ": " + y.role : "");
    const form = $("decide");
    form.hidden = !(y.role === "Sheriff" || y.role === "deputy") || !y.targets.length;
    const key = JSON.stringify(y.targets);
    if (key === lastTargets) return;
    lastTargets = key;
    $("target").innerHTML = y.targets.map((t) => '<option value="' + t.seat + '">seat ' + t.seat +
      " (declared " + esc(t.declared_text) + ", " + t.gold + " gold)</option>").join("");
    const goods = (t) => Object.entries(t ? t.stand : {}).flatMap(([g, n]) => Array(n).fill(g));
    const fill = () => {
      const t = y.targets.find((x) => String(x.seat) === $("target").value);
      const opts = goods(t).map((g) => "<option>" + esc(g) + "</option>").join("");
      $("stand").innerHTML = opts; $("pay").innerHTML = opts;
    };
    $("target").onchange = fill;
    fill();
  }

  function chosen(sel) { return Array.from(sel.selectedOptions).map((o) => o.value); }

  async function verdict(action) {
    $("verdict").className = ""; $("verdict").textContent = "sent…";
    const r = await fetch("/action", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({seat: seat, t: token, action: action})});
    const a = await r.json();
    $("verdict").className = a.ok ? "ok" : "no";
    $("verdict").textContent = a.text;
  }

  function sendAny(ev) {
    ev.preventDefault();
    let fields = {};
    try { fields = JSON.parse($("fields").value || "{}"); } catch (e) {
      $("verdict").className = "no"; $("verdict").textContent = "the fields are not JSON: " + e.message; return;
    }
    verdict(Object.assign({a: $("kind").value}, fields));
  }

  async function send(ev) {
    ev.preventDefault();
    const kind = document.querySelector('input[name="kind"]:checked').value;
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
    verdict(action);
  }

  function live(url, s, t) {
    seat = s; token = t || null;
    if ($("any")) $("any").addEventListener("submit", sendAny);
    if ($("decide")) {
      $("decide").addEventListener("submit", send);
      document.querySelectorAll('input[name="kind"]').forEach((r) => r.addEventListener("change", () => {
        const pass = document.querySelector('input[name="kind"]:checked').value === "pass";
        $("bribe").hidden = !pass; $("debt").hidden = pass;
      }));
    }
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + url);
      ws.onmessage = (m) => draw(JSON.parse(m.data));
      ws.onclose = () => { $("link").textContent = "hub connection lost; retrying…"; setTimeout(open, 1000); };
    };
    open();
  }
  return {live};
})();
