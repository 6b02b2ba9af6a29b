"""The arq worker that runs system jobs (dice, the property market, AI turns) off Redis."""
