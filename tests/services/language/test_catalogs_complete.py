"""Every word the service says is in every language it speaks: no message of any domain (the server's, the
kernel's, the shell's, each game's) is missing, empty or fuzzy in Russian or German, none has other placeholders
than its English, and no template is older than its sources (``make catalogs`` brings them up to date)."""

from __future__ import annotations

from infra.config import Settings
from services.gameplay.registry import registry_of
from services.language.domains import all_domains
from services.language.maintain import problems


def test_every_domain_is_complete_in_every_language_the_service_speaks() -> None:
    settings = Settings()
    served = registry_of(settings)
    domains = all_domains(served.games, served.bundles)
    assert {domain.name for domain in domains} >= {"server", "kernel", "shell", "magnate", "decktet",
                                                    "master_of_economy"}
    assert set(settings.languages) == {"en", "ru", "de"}
    assert list(problems(domains, settings.languages)) == []
