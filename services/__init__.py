"""Entry points: the gameplay application service, the HTTP API and the worker."""
