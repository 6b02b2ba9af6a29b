// The header's language switch (every page's template draws it: #language-switch, offering the languages the
// server speaks, each named in its own words). Choosing one keeps it in this browser (the cookie the server reads,
// named by the switch's ``data-cookie``, for a year), in the account when signed in (PUT /api/me/language), and shows the page again in it.

import { api, inWords } from "./api.js";
import { whoami } from "./account.js";
import { t } from "./i18n.js";

const YEAR = 365 * 24 * 60 * 60;

/** Keeps ``language`` as this browser's choice (read by the server on every page). */
export function remember(language) {
  const holder = document.querySelector("[data-cookie]");
  if (!holder) return;
  document.cookie = `${holder.dataset.cookie}=${encodeURIComponent(language)}; path=/; max-age=${YEAR}; SameSite=Lax`;
}

/** Wires the switch: the choice is kept, then the page reloads in the new language. */
export function mountLanguageSwitch() {
  const select = document.getElementById("language-switch");
  if (!select) return;
  select.addEventListener("change", async () => {
    const chosen = select.value;
    select.disabled = true;
    remember(chosen);
    try {
      if (await whoami()) await api.saveLanguage(chosen);
    } catch (err) {
      // the browser keeps the choice anyway; the account keeps its own until the next change
      console.warn(t("The account did not keep the language: {reason}", { reason: inWords(err) }));
    }
    location.reload();
  });
}

mountLanguageSwitch();
