// Hearth web chat: sending a file to import (POST /api/webchat/files).
// Kept apart from app.js; it reads the signed-in name app.js stores.
"use strict";
(function () {
  const input = document.getElementById("file");
  if (!input) return;
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    const user = localStorage.getItem("hearth.user") || "";
    const error = document.getElementById("chat-error");
    if (!file || !user) return;
    const form = new FormData();
    form.append("user", user);
    form.append("tz", Intl.DateTimeFormat().resolvedOptions().timeZone || "");
    form.append("id", (crypto.randomUUID && crypto.randomUUID()) || String(Date.now()) + Math.random());
    form.append("file", file, file.name);
    try {
      const res = await fetch("/api/webchat/files", { method: "POST", body: form });
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
