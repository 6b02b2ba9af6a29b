// The game's Server-Sent Events stream: one "events" message per new version, whatever made it (a
// player, the AI, the dice, the market). The browser reconnects by itself, resuming after the last
// version it saw (Last-Event-ID), so nothing is missed.

import { api } from "./api.js";

export function follow(gameId, after, { onEvents, onState }) {
  const source = new EventSource(api.streamUrl(gameId, after));
  onState("connecting");
  source.addEventListener("open", () => onState("live"));
  source.addEventListener("error", () => onState(source.readyState === EventSource.CLOSED ? "closed" : "reconnecting"));
  source.addEventListener("events", (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch (err) {
      return;
    }
    onEvents(data);
  });
  return source;
}
