/* The tablet's words in the table's language: Django's JavaScript catalogue (the
 * ``djangojs`` domain, /jsi18n/<lang>/, loaded by the page before the modules) defines
 * gettext, ngettext and interpolate. Without it (an old cached page) the English stands.
 * Every sentence is one msgid with named placeholders, never built by concatenation. */

const g = globalThis;

export function gettext(text) {
  return typeof g.gettext === "function" ? g.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  if (typeof g.ngettext === "function") return g.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

export function pgettext(context, text) {
  return typeof g.pgettext === "function" ? g.pgettext(context, text) : text;
}

/* "%(name)s" filled from ``values``: interpolate(gettext("Hand %(n)s"), { n: 3 }). */
export function interpolate(format, values) {
  if (typeof g.interpolate === "function") return g.interpolate(format, values, true);
  return format.replace(/%\((\w+)\)s/g, (_m, name) => String(values[name]));
}
