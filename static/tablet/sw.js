/* The tablet's offline worker: keeps the table screen and its assets so that a reload
 * without network still opens the screen (the queued entries live in localStorage).
 * The JSON endpoints are never touched: the page sees every network failure itself. */
"use strict";

const CACHE = "snowman-tablet-v1";
const STATIC = new URL(self.location.href).searchParams.get("static") || "/static/";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const isScreen = req.mode === "navigate" && url.pathname.endsWith("/table/");
  // The asset folder, and the JavaScript catalogue of the table's language (/jsi18n/fr/).
  const isAsset = url.pathname.startsWith(STATIC) || url.pathname.startsWith("/jsi18n/");
  if (!isScreen && !isAsset) return;
  // Network first, so a tablet always runs the current code when it can.
  event.respondWith(
    fetch(req).then((res) => {
      if (res.ok) {
        const copy = res.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      }
      return res;
    }).catch(() => caches.match(url.pathname, { ignoreSearch: true, ignoreVary: true })
      .then((hit) => hit || Response.error())),
  );
});
