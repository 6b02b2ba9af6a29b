// The page's words, from the same gettext catalogs the server speaks from (services/language): the server
// compiles each domain's catalog to JSON per language (GET /i18n/<domain>/<lang>.json) and this module reads it.
// The page's language is the one the server chose (<html lang>: the account's, the switch's cookie, the
// browser's Accept-Language); numbers, lists and dates are written with Intl in that language.
//
//   t("Your turn")                            a word or sentence
//   t("{name} joined", { name })              with placeholders (kept by translators)
//   tn("{n} seat", "{n} seats", n, { n })     with plural forms (Russian has three: 1, 2-4, 5+)
//   tc("tenant", "Home")                      with a context, where one English word has two meanings
//
// Babel extracts the first arguments of t, tn and tc from every module (services/language/domains.py), so a
// string shown to people is written only through them. A game's bundle reads its own domain:
// `const { t, tn, tc } = await words("<its game type>");`.

export const lang = document.documentElement.lang || "en";
/** The language Intl writes numbers, lists and dates in (the pseudo-locale writes English). */
export const locale = lang === "en-XA" ? "en" : lang;

const numbers = new Intl.NumberFormat(locale);
const lists = new Intl.ListFormat(locale, { style: "long", type: "conjunction" });
const plurals = new Intl.PluralRules(locale);

/** ``n`` written the language's way (1,200 · 1 200 · 1.200). */
export function num(n) {
  return numbers.format(n);
}

/** Items joined the language's way (a, b and c · a, b и c · a, b und c). */
export function list(items) {
  if (lang !== "en-XA") return lists.format(items.map(String));
  // the pseudo-locale: the connecting words are Intl's (CLDR's), not a catalog's: bracketed like every other word
  return lists.formatToParts(items.map(String))
    .map((part) => (part.type === "literal" && /[^\s,]/.test(part.value) ? `⟦${part.value}⟧` : part.value)).join("");
}

/** A sentence (``t``'s, with some placeholders left unfilled) whose placeholders are elements (a link, a code):
 * its pieces in the sentence's own order, to append: within(t("{link} — check it"), { link }). */
export function within(text, nodes) {
  return text.split(/(\{\w+\})/).filter(Boolean).map((piece) => {
    const name = piece.slice(1, -1);
    return piece.startsWith("{") && name in nodes ? nodes[name] : piece;
  });
}

/** A moment (an ISO time or a Date) written the language's way, short. */
export function when(moment, options = { dateStyle: "short", timeStyle: "short" }) {
  const d = moment instanceof Date ? moment : new Date(moment);
  return Number.isNaN(d.getTime()) ? "" : new Intl.DateTimeFormat(locale, options).format(d);
}

const relative = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });

/** How long ago (or in how long) ``moment`` is from ``now``, the language's way ("5 minutes ago", "vor 5 Minuten"). */
export function ago(moment, now = Date.now()) {
  const d = moment instanceof Date ? moment : new Date(moment);
  const seconds = (d.getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return "";
  const steps = [["second", 60], ["minute", 60], ["hour", 24], ["day", 7], ["week", 4.35], ["month", 12], ["year", Infinity]];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in args)) return whole;
    const value = args[name];
    return typeof value === "number" ? num(value) : String(value);
  });
}

/** The words of a catalog as the functions t, tn and tc. */
export function speaker(catalog) {
  const messages = catalog.messages || {};
  const order = catalog.plural || ["one", "other"];
  const t = (msg, args) => {
    const found = messages[msg];
    return fill(typeof found === "string" ? found : msg, args);
  };
  const tn = (one, many, n, args) => {
    const found = messages[one];
    let text = n === 1 ? one : many;
    if (Array.isArray(found)) {
      const index = order.indexOf(plurals.select(n));
      text = found[index >= 0 ? index : found.length - 1] || text;
    }
    return fill(text, { n, ...args });
  };
  const tc = (ctx, msg, args) => {
    const found = messages[`${ctx}\u0004${msg}`];
    return fill(typeof found === "string" ? found : msg, args);
  };
  return { t, tn, tc };
}

const loaded = new Map();

/** A domain's words ("shell", or a game's name), fetched once per page. */
export async function words(domain) {
  if (!loaded.has(domain)) {
    loaded.set(domain, (async () => {
      if (lang === "en") return speaker({});
      try {
        const response = await fetch(`/i18n/${encodeURIComponent(domain)}/${encodeURIComponent(lang)}.json`);
        return speaker(response.ok ? await response.json() : {});
      } catch {
        return speaker({});
      }
    })());
  }
  return loaded.get(domain);
}

export const { t, tn, tc } = await words("shell");
