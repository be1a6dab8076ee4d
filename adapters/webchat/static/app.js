// Hearth web chat: plain JavaScript over the /api/webchat JSON API.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  let user = localStorage.getItem("hearth.user") || "";
  let cursor = "0";
  let stream = null;

  async function api(method, path, body) {
    const res = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }

  // appendText adds text to el with its http(s) links clickable (a
  // "connect google" consent link, say), as text nodes and anchors only:
  // never parsed as HTML.
  function appendText(el, text) {
    const re = /https?:\/\/[^\s<>"]+/g;
    let last = 0;
    for (const m of text.matchAll(re)) {
      el.appendChild(document.createTextNode(text.slice(last, m.index)));
      const a = document.createElement("a");
      a.href = m[0];
      a.textContent = m[0];
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      el.appendChild(a);
      last = m.index + m[0].length;
    }
    el.appendChild(document.createTextNode(text.slice(last)));
  }

  // render shows a message, or redraws it when it comes again: an
  // approval or a question is re-sent with its outcome and without buttons.
  function render(m) {
    let li = document.querySelector('#log li[data-id="' + m.id + '"]');
    const fresh = !li;
    if (fresh) {
      li = document.createElement("li");
      li.className = m.from;
      li.dataset.id = m.id;
    } else if (!m.seq) {
      return; // our own optimistic copy of a message already shown
    }
    li.textContent = "";
    appendText(li, m.text);
    if (m.buttons && m.buttons.length) {
      const row = document.createElement("div");
      row.className = "buttons";
      for (const b of m.buttons) {
        const btn = document.createElement("button");
        btn.type = "button";
        btn.textContent = b.label;
        btn.dataset.buttonId = b.id;
        btn.addEventListener("click", () => click(m.id, b.id, row));
        row.appendChild(btn);
      }
      li.appendChild(row);
    }
    if (fresh) $("log").appendChild(li);
    if (m.seq && Number(m.seq) > Number(cursor)) cursor = String(m.seq);
    if (fresh) li.scrollIntoView({ block: "end" });
  }

  async function click(messageId, buttonId, row) {
    for (const b of row.querySelectorAll("button")) b.disabled = true;
    try {
      await api("POST", "/api/webchat/buttons", { user, message_id: messageId, button_id: buttonId });
      $("chat-error").textContent = "";
    } catch (e) {
      $("chat-error").textContent = e.message;
      for (const b of row.querySelectorAll("button")) b.disabled = false;
    }
  }

  function listen() {
    if (stream) stream.close();
    const q = new URLSearchParams({ user, after: cursor });
    stream = new EventSource("/api/webchat/events?" + q);
    stream.addEventListener("message", (e) => render(JSON.parse(e.data)));
  }

  async function start() {
    await api("POST", "/api/webchat/users", { user, tz });
    localStorage.setItem("hearth.user", user);
    $("signin").hidden = true;
    $("chat").hidden = false;
    $("who").hidden = false;
    $("who").textContent = user + (tz ? " · " + tz : "");
    const page = await api("GET", "/api/webchat/messages?" + new URLSearchParams({ user, after: "0" }));
    page.messages.forEach(render);
    cursor = page.cursor;
    listen();
    $("text").focus();
  }

  $("signin").addEventListener("submit", async (e) => {
    e.preventDefault();
    user = $("name").value.trim();
    try {
      await start();
    } catch (err) {
      $("signin-error").textContent = err.message;
    }
  });

  $("composer").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("text").value;
    if (!text.trim()) return;
    const id = (crypto.randomUUID && crypto.randomUUID()) || String(Date.now()) + Math.random();
    $("text").value = "";
    try {
      const res = await api("POST", "/api/webchat/messages", { user, text, tz, id });
      // Shown at once; the stream's copy of the same message is skipped.
      render({ id: res.id, from: "user", text, buttons: [] });
      $("chat-error").textContent = "";
    } catch (err) {
      $("text").value = text;
      $("chat-error").textContent = err.message;
    }
  });

  if (user) {
    $("name").value = user;
    start().catch((err) => { $("signin-error").textContent = err.message; });
  }
})();
