"""nginx with the nchan module as the push server of the pages' event streams (docs/SCALING.md): the configuration
it runs with (:mod:`.config`), the nginx process (:mod:`.process`) and the API's publishing side
(:mod:`.publisher`)."""
