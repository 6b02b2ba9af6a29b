// A seat's receipt (docs/RANDOMNESS.md §6): at each of the seat's moves the page keeps the chain head the answer
// showed it (version and hash of the move's last event), in this browser's storage. A head commits to every event
// before it, the hidden ones (hands, draws, sealed bids) through commitments keyed by the secret seed. Once the game
// is over, "Check my receipt" reads the export, recomputes its chain with the browser's own SHA-256, opens every
// commitment with the revealed seed and finds each kept head in it: what the end reveals is what was committed
// when it happened. The same receipt downloads as JSON for the server's `verify --receipt RECEIPT EXPORT` command.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t, tn, within } from "./i18n.js";

const KEY = (gameId) => `receipt:${gameId}`;
const encoder = new TextEncoder();

/** The receipt kept for ``gameId`` in this browser, or null. */
export function receiptOf(gameId) {
  try {
    return JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
  } catch {
    return null;
  }
}

/** Keeps the chain head of a move's answer (``CommandOut``: its last event with a hash). */
export function keepHead(gameId, seat, answer) {
  const shown = (answer && answer.events || []).filter((e) => e.hash);
  if (seat === null || seat === undefined || !shown.length) return;
  const last = shown[shown.length - 1];
  const receipt = receiptOf(gameId) || { game_id: gameId, seat, heads: [] };
  if (receipt.seat !== seat) return; // another seat played in this browser: its receipt is its own
  if (!receipt.heads.some((head) => head.version === last.version)) receipt.heads.push({ version: last.version, hash: last.hash });
  try {
    localStorage.setItem(KEY(gameId), JSON.stringify(receipt));
  } catch {
    // storage full or refused: the move stands, the receipt just lacks this head
  }
}

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));

async function hmac(keyBytes, message) {
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", key, message);
}

/** The payload's exact bytes in an export line (the line is canonical: the payload sits between these keys). */
function payloadBytes(text) {
  const start = text.indexOf(',"payload":') + ',"payload":'.length;
  return encoder.encode(text.slice(start, text.lastIndexOf(',"prev_hash":"')));
}

/** Checks ``receipt`` against the export text -> {ok, heads, hidden, problem}. */
export async function checkReceipt(receipt, exportText) {
  const lines = exportText.split("\n").filter((line) => line.trim());
  const header = JSON.parse(lines[0]);
  if (header.game_id !== receipt.game_id) return { ok: false, problem: t("The export is of another game.") };
  if (!header.seed) return { ok: false, problem: t("The game has not ended: the seed is not revealed yet.") };
  const seed = Uint8Array.from(header.seed.match(/../g).map((b) => parseInt(b, 16)));
  const hashes = new Map();
  let previous = "0".repeat(64);
  let hidden = 0;
  const last = Math.max(...receipt.heads.map((head) => head.version));
  for (const text of lines) {
    const line = JSON.parse(text);
    if (line.kind !== "event") continue;
    const payload = payloadBytes(text);
    if (line.prev_hash !== previous) return { ok: false, problem: t("Event {version}: the chain is broken.", { version: line.version }) };
    const head = [previous, header.game_id, String(line.version), line.type, line.actor, line.command_id, line.recorded_at, ""].join("\n");
    const body = line.commitment ? encoder.encode(line.commitment) : payload;
    const digest = await sha256(new Uint8Array([...encoder.encode(head), ...body]));
    if (digest !== line.hash) return { ok: false, problem: t("Event {version}: its hash does not recompute.", { version: line.version }) };
    if (line.commitment && line.commitment !== await sha256(payload)) {
      const key = await hmac(seed, encoder.encode(`commit:${line.version}`));
      if (hex(await hmac(key, payload)) !== line.commitment) {
        return { ok: false, problem: t("Event {version}: its commitment does not open to what the export shows.", { version: line.version }) };
      }
      if (line.version <= last) hidden += 1;
    }
    hashes.set(line.version, line.hash);
    previous = line.hash;
  }
  for (const held of receipt.heads) {
    if (hashes.get(held.version) !== held.hash) {
      return { ok: false, problem: t("Your move at version {version}: the export's chain differs from what you were shown.", { version: held.version }) };
    }
  }
  return { ok: true, heads: receipt.heads.length, hidden };
}

/** The final panel's part for the seat's receipt (nothing when this browser kept none). */
export function receiptPart(gameId) {
  const receipt = receiptOf(gameId);
  if (!receipt || !receipt.heads.length) return null;
  const result = h("p", { id: "receipt-result", role: "status" });
  const check = h("button", { type: "button", id: "check-receipt" }, t("Check my receipt"));
  check.addEventListener("click", async () => {
    result.textContent = t("Checking…");
    delete result.dataset.ok;
    try {
      if (!globalThis.crypto || !crypto.subtle) throw new Error(t("This page cannot compute SHA-256 here (it needs HTTPS)."));
      const response = await fetch(api.exportUrl(gameId));
      if (!response.ok) throw new Error(t("The export could not be read (the server answered {status}).", { status: String(response.status) }));
      const verdict = await checkReceipt(receipt, await response.text());
      result.dataset.ok = String(verdict.ok);
      result.textContent = verdict.ok
        ? tn("Verified: the {n} chain head you were shown at your moves is in the export's chain, which recomputes; "
          + "{hidden} hidden events (hands, draws, sealed bids) up to your last move open, with the revealed seed, to the "
          + "commitments made when they happened.",
        "Verified: the {n} chain heads you were shown at your moves are in the export's chain, which recomputes; "
          + "{hidden} hidden events (hands, draws, sealed bids) up to your last move open, with the revealed seed, to the "
          + "commitments made when they happened.", verdict.heads, { hidden: verdict.hidden })
        : t("Not verified: {problem}", { problem: verdict.problem });
    } catch (err) {
      result.dataset.ok = "false";
      result.textContent = t("Could not check: {problem}", { problem: err.message });
    }
  });
  const blob = new Blob([JSON.stringify(receipt)], { type: "application/json" });
  return h("div", { id: "receipt" },
    h("p", {}, tn("This browser kept your receipt: the chain head you were shown at your {n} move.",
      "This browser kept your receipt: the chain head you were shown at each of your {n} moves.", receipt.heads.length)),
    h("p", {}, check, " ", ...within(t("{link} (check it with the server's {verify} command)."), {
      link: h("a", { href: URL.createObjectURL(blob), download: `receipt-${gameId}.json`, id: "receipt-link" }, t("Save the receipt")),
      verify: h("code", {}, "verify --receipt") })),
    result);
}
