// The page's service worker, served at /sw.js (the site's root scope): shows what the server pushes (the payload is
// small JSON: {title, body, url, tag}; the tag replaces a repeat of the same delivery) and opens the game's page
// when the notification is clicked (focusing a tab that shows it already). The server writes the payload's words in
// the recipient's language; the worker adds none of its own (a payload without a title is titled with the site).

self.addEventListener("install", () => { self.skipWaiting(); });
self.addEventListener("activate", (event) => { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || self.location.host;
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || undefined,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  // only this site's pages: a payload cannot send the player elsewhere
  const target = wanted.origin === self.location.origin ? wanted.href : self.location.origin + wanted.pathname;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) {
      if (client.url.split("#")[0] === target && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target);
  })());
});
