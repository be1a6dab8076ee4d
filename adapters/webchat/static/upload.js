// Hearth web chat: sending a file to import (POST /api/webchat/files).
// Kept apart from app.js; it asks app.js (window.hearth) for the CSRF header
// under real sign-in and for the name under development sign-in.
"use strict";
(function () {
  const input = document.getElementById("file");
  if (!input) return;
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    const page = window.hearth || { headers: () => ({}), user: () => "" };
    const error = document.getElementById("chat-error");
    if (!file) return;
    const form = new FormData();
    if (page.user()) form.append("user", page.user());
    form.append("tz", Intl.DateTimeFormat().resolvedOptions().timeZone || "");
    form.append("id", (crypto.randomUUID && crypto.randomUUID()) || String(Date.now()) + Math.random());
    form.append("file", file, file.name);
    try {
      const res = await fetch("/api/webchat/files", { method: "POST", headers: page.headers(), credentials: "same-origin", body: form });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(data.error || res.statusText);
      error.textContent = "";
    } catch (err) {
      error.textContent = err.message;
    } finally {
      input.value = "";
    }
  });
})();
