"""The languages the service speaks: gettext catalogs managed with Babel, and rendering in the reader's language.

- :mod:`.domains`: the catalogs (gettext domains) and which sources feed each: ``server`` (mails, notices, error
  texts, the kernel's phrases), ``shell`` (the page shell and its HTML pages) and one per game (its narration,
  catalog names, rules help and page bundle).
- :mod:`.catalogs`: loads each domain's ``.po`` per language (and the pseudo-locale), and compiles the JSON the
  pages read.
- :mod:`.render`: a :class:`domain.kernel.phrases.Phrase` in a language, with where it names each seat.
- :mod:`.choice`: which language a request gets (the account's, the page's switch, ``Accept-Language``).
- :mod:`.maintain`: extraction, update and the completeness check (``magnate catalogs``, ``make catalogs``).
"""
