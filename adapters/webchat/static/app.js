// Hearth web chat: plain JavaScript over the /api/webchat JSON API.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // The zone: one the user chose here, else the browser's.
  let tz = localStorage.getItem("hearth.tz") || Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  let user = localStorage.getItem("hearth.user") || "";
  let cursor = "0";
  let stream = null;
  // Under real sign-in the session decides who we are and every POST
  // carries its CSRF token; under development sign-in (dev) the name does.
  let dev = false;
  let csrf = "";

  async function api(method, path, body) {
    const headers = body ? { "Content-Type": "application/json" } : {};
    if (csrf && method !== "GET") headers["X-CSRF-Token"] = csrf;
    const res = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }
  // What upload.js needs to send a file as this page does: the CSRF
  // header under real sign-in, the name under development sign-in.
  window.hearth = {
    headers: () => (csrf ? { "X-CSRF-Token": csrf } : {}),
    user: () => (dev ? user : ""),
  };

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
    li.appendChild(markdown(m.text || ""));
    $("welcome").hidden = true;
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

  // markdown renders the small subset of Markdown chat messages use:
  // **bold**, *italic* or _italic_, `code`, [text](https://…) and bare
  // http(s) links, "- " bullets and line breaks. It builds DOM nodes from
  // text, never HTML, so nothing in a message can become markup or script,
  // and only http(s) and mailto links are made.
  function markdown(text) {
    const frag = document.createDocumentFragment();
    let list = null;
    text.split("\n").forEach((line, i) => {
      const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
      if (bullet) {
        if (!list) {
          list = document.createElement("ul");
          frag.appendChild(list);
        }
        const item = document.createElement("li");
        inline(item, bullet[1]);
        list.appendChild(item);
        return;
      }
      list = null;
      if (i > 0 && frag.lastChild && frag.lastChild.nodeName !== "UL") frag.appendChild(document.createElement("br"));
      inline(frag, line);
    });
    return frag;
  }

  // The same expression as internal/markdown's inlineRule: an escaped
  // character (a backslash before ASCII punctuation or "•") first, then
  // bold, code, links, bare links and italics, whose text may hold
  // escaped characters.
  const inlineRule = /(\\([!-\/:-@\[-`{-~]|•))|(\*\*((?:\\\S|[^*\\])+)\*\*)|(`((?:\\\S|[^`\\])+)`)|(\[((?:\\\S|[^\]\\])+)\]\(([^)\s]+)\))|((?:https?:\/\/|mailto:)[^\s<>()]+[^\s<>().,;:!?'"])|(\*((?:\\\S|[^*\s\\])(?:\\\S|[^*\\])*)\*)|(\b_((?:\\\S|[^_\\])+)_\b)/;
  const unescapeRule = /\\([!-\/:-@\[-`{-~]|•)/g;
  const unescape = (t) => t.replace(unescapeRule, "$1");

  function inline(parent, text) {
    while (text) {
      const m = inlineRule.exec(text);
      if (!m) {
        parent.appendChild(document.createTextNode(text));
        return;
      }
      if (m.index > 0) parent.appendChild(document.createTextNode(text.slice(0, m.index)));
      let el;
      if (m[1]) {
        el = document.createTextNode(m[2]);
      } else if (m[3]) {
        el = document.createElement("strong");
        el.textContent = unescape(m[4]);
      } else if (m[5]) {
        el = document.createElement("code");
        el.textContent = unescape(m[6]);
      } else if (m[7]) {
        el = link(m[9], unescape(m[8]));
      } else if (m[10]) {
        el = link(m[10], m[10]);
      } else if (m[11]) {
        el = document.createElement("em");
        el.textContent = unescape(m[12]);
      } else {
        el = document.createElement("em");
        el.textContent = unescape(m[14]);
      }
      parent.appendChild(el);
      text = text.slice(m.index + m[0].length);
    }
  }

  function link(href, label) {
    if (!/^(https?:\/\/|mailto:)/i.test(href)) return document.createTextNode(label);
    const a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    a.rel = "noopener noreferrer nofollow";
    a.target = "_blank";
    return a;
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
    const me = await api("POST", "/api/webchat/users", { user, tz });
    if (dev) localStorage.setItem("hearth.user", user);
    else user = me.user;
    $("signin").hidden = true;
    $("account").hidden = true;
    $("account-menu").hidden = dev;
    $("chat").hidden = false;
    $("who").hidden = false;
    showWho(me.timezone || tz);
    showName(me.display_name || me.user);
    refreshGoogle();
    const page = await api("GET", "/api/webchat/messages?" + new URLSearchParams({ user, after: "0" }));
    $("welcome").hidden = page.messages.length > 0;
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

  function showWho(zone) {
    if (zone) tz = zone;
    $("who").textContent = (dev ? "" : "Signed in as ") + user + (tz ? " · " + tz : "");
    $("tz-change").hidden = false;
  }

  // The time zone is shown and can be changed; the choice is kept here.
  $("tz-change").addEventListener("click", () => {
    const sel = $("tz-select");
    if (!sel.options.length) {
      const zones = Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : [tz];
      if (!zones.includes(tz)) zones.unshift(tz);
      for (const z of zones) sel.appendChild(new Option(z, z, false, z === tz));
    }
    sel.value = tz;
    sel.hidden = !sel.hidden;
  });
  $("tz-select").addEventListener("change", shown($("chat-error"), async () => {
    const me = await api("POST", "/api/webchat/users", { user, tz: $("tz-select").value });
    localStorage.setItem("hearth.tz", me.timezone);
    $("tz-select").hidden = true;
    showWho(me.timezone);
  }));

  // What Hearth calls you and signs your drafts with, apart from the
  // name you sign in with.
  function showName(name) {
    $("display-name").textContent = name;
    $("profile").hidden = false;
  }
  $("name-change").addEventListener("click", () => {
    $("name-input").value = $("display-name").textContent;
    $("name-form").hidden = !$("name-form").hidden;
    if (!$("name-form").hidden) $("name-input").focus();
  });
  $("name-form").addEventListener("submit", shown($("chat-error"), async () => {
    const me = await api("POST", "/api/webchat/users", { user, display_name: $("name-input").value });
    $("name-form").hidden = true;
    showName(me.display_name);
  }));

  // Connect Google, when this Hearth has it: the same consent link as the
  // "connect google" command, opened in a new tab; the status follows
  // once the account is connected there.
  let googleWatch = null;
  async function refreshGoogle() {
    const g = await api("GET", "/api/webchat/google?" + new URLSearchParams({ user })).catch(() => ({}));
    $("google-connect").hidden = !g.configured;
    $("google-status").hidden = !g.account;
    $("google-status").textContent = g.account ? "Google: " + g.account + (g.connected ? "" : " (reconnect needed)") : "";
    $("google-connect").textContent = g.connected ? "Reconnect Google" : "Connect Google";
    if (g.connected && googleWatch) {
      clearInterval(googleWatch);
      googleWatch = null;
    }
    return g;
  }
  $("google-connect").addEventListener("click", shown($("chat-error"), async () => {
    const g = await api("POST", "/api/webchat/google/connect", { user });
    window.open(g.url, "_blank", "noopener");
    // Looks every 2 s while the consent link is valid (10 minutes).
    if (googleWatch) clearInterval(googleWatch);
    const until = Date.now() + 10 * 60 * 1000;
    googleWatch = setInterval(() => (Date.now() > until ? clearInterval(googleWatch) : refreshGoogle()), 2000);
  }));
  window.addEventListener("focus", () => { if (!$("chat").hidden) refreshGoogle(); });

  // The welcome's examples send themselves.
  for (const b of document.querySelectorAll("#welcome button")) {
    b.addEventListener("click", () => {
      $("text").value = b.textContent;
      $("composer").requestSubmit();
    });
  }

  // Real sign-in: passkeys (WebAuthn), one-time links, sign out.
  const b64u = {
    decode: (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer,
    encode: (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  };

  function credentialJSON(cred) {
    if (cred.toJSON) return cred.toJSON();
    const r = cred.response;
    const out = { id: cred.id, rawId: b64u.encode(cred.rawId), type: cred.type, response: { clientDataJSON: b64u.encode(r.clientDataJSON) } };
    if (r.attestationObject) out.response.attestationObject = b64u.encode(r.attestationObject);
    if (r.authenticatorData) out.response.authenticatorData = b64u.encode(r.authenticatorData);
    if (r.signature) out.response.signature = b64u.encode(r.signature);
    if (r.userHandle) out.response.userHandle = b64u.encode(r.userHandle);
    out.clientExtensionResults = cred.getClientExtensionResults ? cred.getClientExtensionResults() : {};
    return out;
  }

  async function passkeySignIn() {
    const begin = await api("POST", "/api/signin/passkey/begin");
    const pk = begin.options.publicKey;
    pk.challenge = b64u.decode(pk.challenge);
    for (const c of pk.allowCredentials || []) c.id = b64u.decode(c.id);
    const cred = await navigator.credentials.get({ publicKey: pk });
    const me = await api("POST", "/api/signin/passkey/finish?ceremony=" + encodeURIComponent(begin.ceremony), credentialJSON(cred));
    csrf = me.csrf;
    await start();
  }

  async function addPasskey() {
    const begin = await api("POST", "/api/signin/passkeys/begin");
    const pk = begin.options.publicKey;
    pk.challenge = b64u.decode(pk.challenge);
    pk.user.id = b64u.decode(pk.user.id);
    for (const c of pk.excludeCredentials || []) c.id = b64u.decode(c.id);
    const cred = await navigator.credentials.create({ publicKey: pk });
    await api("POST", "/api/signin/passkeys/finish?ceremony=" + encodeURIComponent(begin.ceremony), credentialJSON(cred));
    $("account-note").textContent = "Passkey added: next time, sign in with it.";
  }

  async function signOut(everywhere) {
    await api("POST", "/api/signin/signout", { everywhere });
    location.reload();
  }

  function showAccount(me) {
    $("account").hidden = false;
    $("first").hidden = !me.first_run;
    $("returning").hidden = !!me.first_run;
  }

  function shown(el, fn) {
    return async (e) => {
      if (e) e.preventDefault();
      try {
        await fn();
        el.textContent = "";
      } catch (err) {
        el.textContent = err.message;
      }
    };
  }

  $("passkey-signin").addEventListener("click", shown($("account-error"), passkeySignIn));
  $("first").addEventListener("submit", shown($("account-error"), async () => {
    const me = await api("POST", "/api/signin/first", { name: $("first-name").value.trim() });
    csrf = me.csrf;
    await start();
    $("account-note").textContent = "Welcome! Add a passkey (top right) so you can sign in from other devices.";
  }));
  $("add-passkey").addEventListener("click", shown($("chat-error"), addPasskey));
  $("signout").addEventListener("click", shown($("chat-error"), () => signOut(false)));
  $("signout-all").addEventListener("click", shown($("chat-error"), () => signOut(true)));
  $("delete-account").addEventListener("click", shown($("chat-error"), async () => {
    const typed = prompt('This deletes your account and everything Hearth holds about you (what you gave your family stays with it). Type "delete my account" to confirm.');
    if (typed === null) return;
    await api("POST", "/api/signin/delete", { confirm: typed.trim().toLowerCase() });
    location.reload();
  }));

  // boot finds out how this Hearth signs people in, spends a sign-in link
  // opened from a chat (#signin=TOKEN, never sent to a server by the
  // browser), and opens the chat when signed in.
  async function boot() {
    const res = await fetch("/api/signin/me", { credentials: "same-origin" });
    const me = await res.json().catch(() => ({}));
    if (me.dev) {
      dev = true;
      $("signin").hidden = false;
      if (user) {
        $("name").value = user;
        await start().catch((err) => { $("signin-error").textContent = err.message; });
      }
      return;
    }
    const token = new URLSearchParams(location.hash.slice(1)).get("signin");
    if (token) {
      history.replaceState(null, "", location.pathname + location.search);
      try {
        const signed = await api("POST", "/api/signin/link", { token });
        csrf = signed.csrf;
        await start();
        $("account-note").textContent = "Signed in. Add a passkey (top right) to sign in without a link next time.";
        return;
      } catch (err) {
        if (res.ok) {
          csrf = me.csrf;
          await start();
          return;
        }
        showAccount(me);
        $("account-error").textContent = err.message;
        return;
      }
    }
    if (res.ok) {
      csrf = me.csrf;
      await start();
      return;
    }
    showAccount(me);
  }

  boot().catch((err) => { $("account-error").textContent = err.message; $("account").hidden = false; });
})();
