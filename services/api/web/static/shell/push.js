// Web Push on this device: the page's service worker (/sw.js, at the site's root scope) shows what the server
// pushes (encrypted for this browser's keys, RFC 8291) and opens the game on a click. Subscribing asks the
// browser's push service for an endpoint with the server's VAPID key (GET /api/push/key), then gives the server
// that subscription (POST /api/me/push): one record per device.

import { api, inWords } from "./api.js";
import { t } from "./i18n.js";

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && window.isSecureContext;
}

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

/** This device's current subscription (null: none, or push unsupported). */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration("/");
    return reg ? await reg.pushManager.getSubscription() : null;
  } catch (err) {
    return null;
  }
}

/** Subscribes this device and tells the server. Resolves to a sentence for the player; rejects with an Error
 * whose message says what went wrong in words (a browser without a push service, permission refused...). */
export async function enablePush() {
  if (!pushSupported()) throw new Error(t("This browser cannot receive push notifications here (it needs a service worker, the Push API and a secure page)."));
  let subscription;
  try {
    const { key } = await api.pushKey();
    const reg = await registration();
    subscription = await reg.pushManager.getSubscription()
      || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  } catch (err) {
    const why = err && err.message ? err.message : String(err);
    if (err && err.name === "NotAllowedError") throw new Error(t("Push was not allowed: {reason}", { reason: why }));
    throw new Error(t("This browser could not subscribe to push ({reason}). Email and webhooks still work.", { reason: why }));
  }
  try {
    await api.subscribePush(subscription.toJSON());
  } catch (err) {
    throw new Error(inWords(err));
  }
  return t("Push is on for this device.");
}

/** Unsubscribes this device (and tells the server). */
export async function disablePush() {
  const subscription = await currentSubscription();
  if (!subscription) return t("Push was not on for this device.");
  try {
    await api.unsubscribePush(subscription.endpoint);
  } catch (err) {
    if (!err || err.status !== 404) throw new Error(inWords(err));
  }
  await subscription.unsubscribe();
  return t("Push is off for this device.");
}
