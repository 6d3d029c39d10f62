// The review page's few actions: file tabs, and the buttons that call the
// JSON API (apply, edit & apply, dismiss, promote). The page works from
// the cookie the token set; every call is same-origin.
"use strict";

const api = document.body.dataset.api;

// post calls the API; a refusal throws an Error that carries the answer
// (a refused apply answers the proposals it found changed).
async function post(path, body) {
  const res = await fetch(api + path, {
    method: "POST",
    credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error((data.error || res.statusText) + (data.hint ? " (" + data.hint + ")" : ""));
    err.answer = data;
    throw err;
  }
  return data;
}

function say(article, message, ok) {
  const result = article.querySelector(".result");
  result.textContent = message;
  result.className = "result " + (ok ? "ok" : "err");
}

const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

// show draws a proposal's card in the state the server answered: its
// state, its notice (stale, broken), and the buttons that state allows.
function show(view) {
  const article = document.querySelector('article.proposal[data-id="' + CSS.escape(view.id) + '"]');
  if (!article) return;
  const state = article.querySelector(".state");
  state.textContent = view.state;
  state.className = "state " + view.state;
  article.querySelectorAll(".notice").forEach((n) => (n.hidden = n.dataset.when !== view.state));
  const problem = article.querySelector(".problem");
  if (problem) problem.textContent = view.problem || "";
  const decided = view.state === "applied" || view.state === "dismissed";
  const appliable = view.state === "pending" && view.files.length > 0;
  article.classList.toggle("done", decided);
  article.querySelectorAll(".apply, .edit-apply, .apply-edited, .allow-removals input").forEach((b) => (b.disabled = !appliable));
  article.querySelector(".dismiss").disabled = decided;
}

// answered draws what an answer says of the proposals, and the badge.
function answered(data) {
  (data.proposals || []).forEach(show);
  const badge = document.getElementById("badge");
  if (badge && typeof data.pending === "number") {
    badge.textContent = String(data.pending);
    badge.classList.toggle("zero", data.pending === 0);
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
      const data = await call();
      answered(data);
      if (!(data.proposals || []).some((v) => v.id === id)) {
        // An answer that does not say the proposal's state: it is decided.
        article.classList.add("done");
        article.querySelectorAll("button").forEach((b) => (b.disabled = true));
      }
      say(article, done(data), true);
    } catch (err) {
      button.disabled = false;
      if (err.answer) answered(err.answer);
      say(article, err.message, false);
    }
  };
  const applied = (r) => {
    let message = (r.recorded ? "Recorded as applied: " : "Committed ") + r.commit.slice(0, 12) + " on " + r.branch +
      " (" + plural(r.additions, "addition") + (r.removals ? ", " + plural(r.removals, "removal") : "") + ", not pushed)";
    if (r.agent_workspace) {
      message += ": the branch of agent " + r.agent_workspace + "'s workspace" + (r.main_branch ? ", not " + r.main_branch : "");
    }
    return message;
  };
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
      say(article, "Promoted " + r.candidates.length + " to global", true);
      article.classList.add("done");
    } catch (err) {
      button.disabled = false;
      say(article, err.message, false);
    }
  });
});

// The Knowledge section: Edit opens the article's file to change and saves
// it as the person ('planq kb edit'); a disputed article's Keep this side
// settles it ('planq kb resolve').
document.querySelectorAll("article.kb-article").forEach((article) => {
  const slug = article.dataset.slug;
  const text = article.querySelector("textarea.kb-edit");
  const open = article.querySelector(".kb-edit-open");
  const save = article.querySelector(".kb-save");
  const cancel = article.querySelector(".kb-cancel");
  const editing = (on) => {
    text.hidden = !on;
    article.querySelector(".kb-body").hidden = on;
    open.hidden = on;
    save.hidden = !on;
    cancel.hidden = !on;
  };
  open.addEventListener("click", () => editing(true));
  cancel.addEventListener("click", () => editing(false));
  save.addEventListener("click", async () => {
    save.disabled = true;
    try {
      const r = await post("/articles/" + encodeURIComponent(slug) + "/edit", { text: text.value, blob: article.dataset.blob });
      if (r.action === "unchanged") {
        say(article, "As it was: nothing committed", true);
        save.disabled = false;
        return;
      }
      say(article, "Committed " + r.commit.slice(0, 12) + " on global as yours: " + r.path, true);
      // Load the page again to show the article as committed. Opened from
      // the index, the address is this one already, and assigning it again
      // (or one that differs by its #fragment alone) only scrolls.
      const there = new URL(window.location.href);
      there.searchParams.set("article", slug);
      there.hash = "";
      const here = new URL(window.location.href);
      here.hash = "";
      if (there.href === here.href) {
        window.location.hash = "knowledge";
        window.location.reload();
      } else {
        window.location.assign(there.href + "#knowledge");
      }
    } catch (err) {
      save.disabled = false;
      say(article, err.message, false);
    }
  });
});

document.querySelectorAll("article.kb-dispute").forEach((article) => {
  article.querySelectorAll("button.kb-resolve").forEach((button) => {
    button.addEventListener("click", async () => {
      article.querySelectorAll("button.kb-resolve").forEach((b) => (b.disabled = true));
      try {
        const r = await post("/articles/" + encodeURIComponent(article.dataset.slug) + "/resolve", { keep: button.dataset.keep });
        say(article, "Kept " + r.kept + " over " + r.set_aside.join(", ") + ": the article is " + r.status + " (commit " + r.commit.slice(0, 12) + ")", true);
        article.classList.add("done");
      } catch (err) {
        article.querySelectorAll("button.kb-resolve").forEach((b) => (b.disabled = false));
        say(article, err.message, false);
      }
    });
  });
});
