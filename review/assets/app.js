// The review page's few actions: file tabs, and the buttons that call the
// JSON API (apply, edit & apply, dismiss, promote). The page works from
// the cookie the token set; every call is same-origin.
"use strict";

const api = document.body.dataset.api;

async function post(path, body) {
  const res = await fetch(api + path, {
    method: "POST",
    credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error((data.error || res.statusText) + (data.hint ? " (" + data.hint + ")" : ""));
  }
  return data;
}

function settle(article, message, ok) {
  const result = article.querySelector(".result");
  result.textContent = message;
  result.className = "result " + (ok ? "ok" : "err");
  if (!ok) return;
  article.classList.add("done");
  article.querySelectorAll("button").forEach((b) => (b.disabled = true));
  const badge = document.getElementById("badge");
  if (badge && article.classList.contains("proposal")) {
    const left = Math.max(0, Number(badge.textContent) - 1);
    badge.textContent = String(left);
    badge.classList.toggle("zero", left === 0);
  }
}

document.querySelectorAll("article.proposal").forEach((article) => {
  const id = article.dataset.id;
  article.querySelectorAll(".tab").forEach((tab) => {
    tab.addEventListener("click", () => {
      article.querySelectorAll(".tab, .panel").forEach((el) => el.classList.remove("active"));
      tab.classList.add("active");
      article.querySelector('.panel[data-panel="' + tab.dataset.tab + '"]').classList.add("active");
    });
  });
  const run = async (button, call, done) => {
    button.disabled = true;
    try {
      settle(article, done(await call()), true);
    } catch (err) {
      button.disabled = false;
      settle(article, err.message, false);
    }
  };
  const applied = (r) =>
    (r.recorded ? "Recorded as applied: " : "Committed ") + r.commit.slice(0, 12) + " (" + r.additions + " additions" +
    (r.removals ? ", " + r.removals + " removals" : "") + ", not pushed)";
  article.querySelector(".apply").addEventListener("click", (e) => run(e.target, () => post("/proposals/" + id + "/apply"), applied));
  article.querySelector(".edit-apply").addEventListener("click", (e) => {
    article.querySelectorAll("textarea.edit").forEach((t) => (t.hidden = false));
    article.querySelectorAll("pre.diff").forEach((p) => (p.hidden = true));
    e.target.hidden = true;
    article.querySelector(".apply").hidden = true;
    article.querySelector(".apply-edited").hidden = false;
    article.querySelector(".allow-removals").hidden = false;
  });
  article.querySelector(".apply-edited").addEventListener("click", (e) => {
    const files = {};
    article.querySelectorAll("textarea.edit").forEach((t) => (files[t.dataset.path] = t.value));
    // A proposal only adds: an edit that takes lines away is refused unless
    // the person ticks Allow removals.
    const allow_removals = article.querySelector(".allow-removals input").checked;
    run(e.target, () => post("/proposals/" + id + "/apply", { files, allow_removals }), applied);
  });
  article.querySelector(".dismiss").addEventListener("click", (e) =>
    run(e.target, () => post("/proposals/" + id + "/dismiss"), () => "Dismissed, with its notes"));
});

document.querySelectorAll("article.agent").forEach((article) => {
  const button = article.querySelector(".promote");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const r = await post("/agents/" + encodeURIComponent(article.dataset.agent) + "/promote");
      settle(article, "Promoted " + r.candidates.length + " to global", true);
    } catch (err) {
      button.disabled = false;
      settle(article, err.message, false);
    }
  });
});
